"""Chain primitives shared by every app: chain ids, addresses, 32-byte hashes.

Input is case-insensitive; output is always `0x` + lowercase hex (SPEC section 1).
"""

import re

import semver
from django.core.exceptions import ValidationError
from eth_utils import is_checksum_address

# EIP-2294 bounds chain ids so that they fit signed 64-bit integers (and PostgreSQL bigint).
MAX_CHAIN_ID = 9_223_372_036_854_775_771
MAX_UINT64 = 2**64 - 1

_ADDRESS_RE = re.compile(r"0x[0-9a-fA-F]{40}")
_BYTES32_RE = re.compile(r"0x[0-9a-fA-F]{64}")


class InvalidHex(ValueError):
    """The value is not the hex string it should be; the message says why."""


def normalize_address(value: str) -> str:
    """Lowercase a 20-byte address; mixed case must be a valid EIP-55 checksum."""
    if not isinstance(value, str) or not _ADDRESS_RE.fullmatch(value):
        raise InvalidHex("Enter an address: 0x followed by 40 hex digits.")
    digits = value[2:]
    if digits != digits.lower() and digits != digits.upper() and not is_checksum_address(value):
        raise InvalidHex("This mixed-case address fails its EIP-55 checksum.")
    return value.lower()


def normalize_bytes32(value: str) -> str:
    """Lowercase a 32-byte value (document hash, UID, transaction hash)."""
    if not isinstance(value, str) or not _BYTES32_RE.fullmatch(value):
        raise InvalidHex("Enter a 32-byte hex value: 0x followed by 64 hex digits.")
    return value.lower()


def validate_semver(value: str) -> None:
    if not semver.Version.is_valid(value):
        raise ValidationError("Enter a semantic version such as 1.4.0 or 2.0.0-rc.1.")


def validate_address(value: str) -> None:
    """Django validator (model fields, admin forms) with the API's address rules."""
    try:
        normalize_address(value)
    except InvalidHex as exc:
        raise ValidationError(str(exc)) from exc

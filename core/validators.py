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

# The prefix in either case, as the digits (`0X` too: a hash pasted from an upper-cased
# source); the patterns the OpenAPI schema gives.
ADDRESS_PATTERN = "^0[xX][0-9a-fA-F]{40}$"
BYTES32_PATTERN = "^0[xX][0-9a-fA-F]{64}$"
_ADDRESS_RE = re.compile(ADDRESS_PATTERN)
_BYTES32_RE = re.compile(BYTES32_PATTERN)


class InvalidHex(ValueError):
    """The value is not the hex string it should be; the message says why."""


def normalize_address(value: str) -> str:
    """Lowercase a 20-byte address; mixed case must be a valid EIP-55 checksum."""
    if not isinstance(value, str) or not _ADDRESS_RE.fullmatch(value):
        raise InvalidHex("Enter an address: 0x followed by 40 hex digits.")
    digits = value[2:]
    if (digits != digits.lower() and digits != digits.upper()
            and not is_checksum_address("0x" + digits)):
        raise InvalidHex("This mixed-case address fails its EIP-55 checksum.")
    return "0x" + digits.lower()


def normalize_bytes32(value: str) -> str:
    """Lowercase a 32-byte value (document hash, UID, transaction hash)."""
    if not isinstance(value, str) or not _BYTES32_RE.fullmatch(value):
        raise InvalidHex("Enter a 32-byte hex value: 0x followed by 64 hex digits.")
    return "0x" + value[2:].lower()


def validate_semver(value: str) -> None:
    if not semver.Version.is_valid(value):
        raise ValidationError("Enter a semantic version such as 1.4.0 or 2.0.0-rc.1.")


def validate_address(value: str) -> None:
    """Django validator (model fields, admin forms) with the API's address rules."""
    try:
        normalize_address(value)
    except InvalidHex as exc:
        raise ValidationError(str(exc)) from exc

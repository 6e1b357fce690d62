"""Serializer fields for chain primitives, used by every app's API."""

import re

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.validators import (
    ADDRESS_PATTERN,
    BYTES32_PATTERN,
    MAX_CHAIN_ID,
    InvalidHex,
    normalize_address,
    normalize_bytes32,
)


class HexField(serializers.CharField):
    """A hex value of `length` characters, normalised (lowercase, checked) by `normalize`,
    which raises InvalidHex."""

    length: int
    normalize: staticmethod  # str -> str

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", self.length)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        try:
            return self.normalize(data)
        except InvalidHex as exc:
            raise serializers.ValidationError(str(exc), code="invalid") from exc


@extend_schema_field({"type": "string", "pattern": ADDRESS_PATTERN, "example": "0x" + "ab" * 20})
class AddressField(HexField):
    length = 42
    normalize = staticmethod(normalize_address)


@extend_schema_field({"type": "string", "pattern": BYTES32_PATTERN, "example": "0x" + "cd" * 32})
class Bytes32Field(HexField):
    length = 66
    normalize = staticmethod(normalize_bytes32)


@extend_schema_field(OpenApiTypes.INT64)
class ChainIdField(serializers.IntegerField):
    """An EIP-155 chain id: a positive integer within the EIP-2294 bound."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_CHAIN_ID)
        super().__init__(**kwargs)


class ExactCharField(serializers.CharField):
    """A string kept exactly as given, leading and trailing spaces included (DRF's
    CharField strips them); one of spaces only is still refused as blank."""

    def __init__(self, **kwargs):
        kwargs["trim_whitespace"] = False
        super().__init__(**kwargs)

    def run_validation(self, data=serializers.empty):
        if isinstance(data, str) and data and not data.strip() and not self.allow_blank:
            self.fail("blank")
        return super().run_validation(data)


MAX_WEI = 2**256 - 1  # what an EVM word holds
_WEI = re.compile(r"0|[1-9][0-9]{0,77}")


def read_wei(value, low: int = 0, high: int = MAX_WEI) -> int | None:
    """The amount a well-formed wei string names, within [low, high]; else None."""
    if type(value) is not str or not _WEI.fullmatch(value):
        return None
    amount = int(value)
    return amount if low <= amount <= high else None


@extend_schema_field({"type": "string", "pattern": "^(0|[1-9][0-9]{0,77})$",
                      "example": "1500000000000000000"})
class WeiField(serializers.Field):
    """An amount of wei as a JSON string of decimal digits: amounts outgrow JavaScript's
    numbers (2^53 wei is 0.009 ether) and a 64-bit integer (100 ether is 10^20 wei)."""

    default_error_messages = {
        "invalid": "Enter an amount of wei: a string of decimal digits (\"1500000000\").",
        "range": "Enter an amount of wei from {low} to {high}.",
    }

    def __init__(self, *, min_value: int = 0, max_value: int = MAX_WEI, **kwargs):
        self.min_value, self.max_value = min_value, max_value
        super().__init__(**kwargs)

    def to_internal_value(self, data) -> int:
        amount = read_wei(data)
        if amount is None:
            self.fail("invalid")
        if not self.min_value <= amount <= self.max_value:
            self.fail("range", low=self.min_value, high=self.max_value)
        return amount

    def to_representation(self, value) -> str:
        return str(int(value))

"""Serializer fields for chain primitives, used by every app's API."""

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

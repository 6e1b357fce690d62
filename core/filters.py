"""Query-parameter filters shared by the APIs (django-filter).

Query parameters are checked as strictly as bodies: a malformed address or hash is a 400
naming the parameter, not a filter that silently matches nothing (and an unknown parameter
is a 400 too: core/filtering.py).

Multi-value filters (`...InFilter`) take `status=active,inactive`, or the parameter
repeated (`status=active&status=inactive`, as tRPC and many HTTP clients send lists): each
value is checked as the single-value filter checks it.
"""

from datetime import UTC, date, datetime

import django_filters as filters
from django import forms
from django_filters.constants import EMPTY_VALUES
from django_filters.widgets import CSVWidget
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from core.validators import (
    ADDRESS_PATTERN,
    BYTES32_PATTERN,
    MAX_CHAIN_ID,
    InvalidHex,
    normalize_address,
    normalize_bytes32,
)


@extend_schema_field(OpenApiTypes.BOOL)  # `true` or `false` in the URL, as OpenAPI writes them
class StrictBooleanFilter(filters.TypedChoiceFilter):
    """`true` or `false`; anything else is a 400, where BooleanFilter would ignore it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("choices", [("true", "true"), ("false", "false")])
        kwargs.setdefault("coerce", lambda value: value == "true")
        super().__init__(**kwargs)


@extend_schema_field({"type": "integer", "format": "int64", "minimum": 1, "maximum": MAX_CHAIN_ID})
class ChainIdFilter(filters.NumberFilter):
    field_class = forms.IntegerField

    def __init__(self, **kwargs):
        super().__init__(field_name="chain_id", min_value=1, max_value=MAX_CHAIN_ID, **kwargs)


class HexFormField(forms.CharField):
    """A hex value normalised (lowercase, checked) by `normalize`, which raises InvalidHex."""

    def __init__(self, *, normalize, **kwargs):
        self.normalize = normalize
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if not value:
            return value
        try:
            return self.normalize(value)
        except InvalidHex as exc:
            raise forms.ValidationError(str(exc), code="invalid") from exc


@extend_schema_field({"type": "string", "pattern": ADDRESS_PATTERN})
class AddressFilter(filters.CharFilter):
    """An address in any case (a mixed-case one must pass its checksum); stored lowercase."""

    field_class = HexFormField

    def __init__(self, **kwargs):
        super().__init__(normalize=normalize_address, **kwargs)


@extend_schema_field({"type": "string", "pattern": BYTES32_PATTERN})
class Bytes32Filter(filters.CharFilter):
    """A 32-byte value (hash, UID) in any case; stored lowercase."""

    field_class = HexFormField

    def __init__(self, **kwargs):
        super().__init__(normalize=normalize_bytes32, **kwargs)


class IsoTimeFormField(forms.Field):
    """An ISO 8601 time with its zone (`2026-11-21T10:00:00Z`, `...+01:00`), or a date
    (midnight UTC). A time without a zone is refused rather than guessed."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            if len(value) == 10:
                return datetime.combine(date.fromisoformat(value), datetime.min.time(), UTC)
            when = datetime.fromisoformat(value)
        except ValueError:
            raise forms.ValidationError(
                "Enter an ISO 8601 time such as 2026-11-21T10:00:00Z (in a URL, the + of "
                "an offset is written %%2B).", code="invalid") from None
        if when.tzinfo is None:
            raise forms.ValidationError(
                "Give the time zone: Z for UTC, or an offset such as %%2B01:00.", code="invalid")
        try:
            return when.astimezone(UTC)
        except OverflowError:  # 9999-12-31T23:59:59-14:00 is in the year 10000 in UTC
            raise forms.ValidationError(
                "The time is out of range in UTC (years 1 to 9999).", code="invalid") from None


@extend_schema_field(OpenApiTypes.DATETIME)
class IsoTimeFilter(filters.Filter):
    field_class = IsoTimeFormField


class MultiValueWidget(CSVWidget):
    """Comma-separated values, from one parameter or several of the same name: a repeated
    parameter must not silently keep only its last value."""

    def value_from_datadict(self, data, files, name):
        given = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
        given = [value for value in given if value is not None]
        if not given:
            return None
        return [part.strip() for value in given for part in value.split(",") if part.strip()]


class ChoiceInFilter(filters.BaseInFilter, filters.ChoiceFilter):
    """One of several choices: `status=active,inactive`."""

    def __init__(self, **kwargs):
        super().__init__(widget=MultiValueWidget, **kwargs)


class NumberInFilter(filters.BaseInFilter, filters.NumberFilter):
    """One of several integers: `rpcId=1,2`."""

    field_class = forms.IntegerField

    def __init__(self, **kwargs):
        super().__init__(widget=MultiValueWidget, **kwargs)


class ChainIdInFilter(filters.BaseInFilter, ChainIdFilter):
    """One of several chain ids: `chainId=1,10`."""

    def __init__(self, **kwargs):
        super().__init__(widget=MultiValueWidget, **kwargs)


class OrderingFilter(filters.OrderingFilter):
    """django-filter's `ordering` (`ordering=-chainId,name`), ended with the primary key:
    rows that tie on the chosen fields keep one order, so offset pages neither repeat nor
    skip them."""

    def filter(self, qs, value):
        qs = super().filter(qs, value)
        if value in EMPTY_VALUES:
            return qs
        return qs.order_by(*qs.query.order_by, "pk")

from datetime import UTC, date, datetime

import django_filters as filters
from django import forms
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from attestations.models import Attestation, Schema
from registry.api.filters import StrictBooleanFilter
from registry.models import Chain
from registry.validators import MAX_CHAIN_ID, InvalidHex, normalize_address, normalize_bytes32


class PublicChainFilter(filters.FilterSet):
    isTestnet = StrictBooleanFilter(field_name="is_testnet")
    shortName = filters.CharFilter(field_name="short_name")

    class Meta:
        model = Chain
        fields = []


# Query parameters are checked as strictly as bodies: a malformed address or hash is a 400
# naming the parameter, not a filter that silently matches nothing.


@extend_schema_field({"type": "integer", "format": "int64", "minimum": 1, "maximum": MAX_CHAIN_ID})
class ChainIdFilter(filters.NumberFilter):
    field_class = forms.IntegerField

    def __init__(self, **kwargs):
        super().__init__(field_name="chain_id", min_value=1, max_value=MAX_CHAIN_ID, **kwargs)


class HexFormField(forms.CharField):
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


@extend_schema_field({"type": "string", "pattern": "^0x[0-9a-fA-F]{40}$"})
class AddressFilter(filters.CharFilter):
    field_class = HexFormField

    def __init__(self, **kwargs):
        super().__init__(normalize=normalize_address, **kwargs)


@extend_schema_field({"type": "string", "pattern": "^0x[0-9a-fA-F]{64}$"})
class Bytes32Filter(filters.CharFilter):
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


class AttestationFilterForm(forms.Form):
    def clean(self):
        data = super().clean()
        start, end = data.get("from"), data.get("to")
        if start and end and end <= start:
            self.add_error("to", forms.ValidationError("Must be later than from.", code="invalid"))
        return data


class SchemaFilter(filters.FilterSet):
    chainId = ChainIdFilter()
    uid = Bytes32Filter()

    class Meta:
        model = Schema
        fields = []


class AttestationFilter(filters.FilterSet):
    chainId = ChainIdFilter()
    schemaId = Bytes32Filter(field_name="schema_uid")
    attester = AddressFilter()
    recipient = AddressFilter()
    documentHash = Bytes32Filter(field_name="document_hash")
    revoked = StrictBooleanFilter(method="filter_revoked")

    class Meta:
        model = Attestation
        fields = []
        form = AttestationFilterForm

    def filter_revoked(self, queryset, name, value: bool):
        return queryset.filter(revocation_time__isnull=not value)


# `from` and `to` are Python keywords: set beside the declared filters. A half-open range,
# [from, to), so that consecutive windows neither miss nor repeat an attestation.
AttestationFilter.base_filters["from"] = IsoTimeFilter(
    field_name="time", lookup_expr="gte", label="Attested at or after this time (ISO 8601).")
AttestationFilter.base_filters["to"] = IsoTimeFilter(
    field_name="time", lookup_expr="lt", label="Attested before this time (ISO 8601).")

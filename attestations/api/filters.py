import django_filters as filters
from django import forms

from attestations.models import Attestation, Schema
from core.filters import (
    AddressFilter,
    Bytes32Filter,
    ChainIdFilter,
    IsoTimeFilter,
    StrictBooleanFilter,
)
from registry.models import Chain


class PublicChainFilter(filters.FilterSet):
    isTestnet = StrictBooleanFilter(field_name="is_testnet")
    shortName = filters.CharFilter(field_name="short_name")

    class Meta:
        model = Chain
        fields = []


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

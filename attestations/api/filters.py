import django_filters as filters
from django import forms

from attestations.models import Attestation, Schema
from core.filters import (
    AddressFilter,
    Bytes32Filter,
    ChainIdInFilter,
    IsoTimeFilter,
    OrderingFilter,
    StrictBooleanFilter,
)
from registry.models import Chain


class PublicChainFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
    isTestnet = StrictBooleanFilter(field_name="is_testnet")
    shortName = filters.CharFilter(field_name="short_name")
    name = filters.CharFilter()
    ordering = OrderingFilter(fields=(("chain_id", "chainId"), ("name", "name"),
                                      ("short_name", "shortName")))

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
    chainId = ChainIdInFilter()
    uid = Bytes32Filter()

    class Meta:
        model = Schema
        fields = []


# No `ordering` on attestations: the keyset pagination keeps one order (newest first),
# which its cursors encode (core/pagination.py); `from`/`to` select a window instead.
class AttestationFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
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

import django_filters as filters
from django import forms

from attestations.api import decoded_filters
from attestations.models import (
    Attestation,
    OffchainAttestation,
    OffchainRevocation,
    Schema,
    Timestamp,
)
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
    # field.<name>[.gte|.gt|.lte|.lt]: a decoded field of schemaId's schema
    # (attestations/api/decoded_filters.py).
    parameter_prefixes = (decoded_filters.PREFIX,)

    chainId = ChainIdInFilter()
    schemaId = Bytes32Filter(field_name="schema_uid")
    attester = AddressFilter()
    recipient = AddressFilter()
    documentHash = Bytes32Filter(field_name="document_hash")
    revoked = StrictBooleanFilter(method="filter_revoked")
    offchain = StrictBooleanFilter(method="filter_offchain", label="true: the offchain "
                                   "attestations submitted here instead of the chain's.")

    class Meta:
        model = Attestation
        fields = []
        form = AttestationFilterForm

    def filter_revoked(self, queryset, name, value: bool):
        return queryset.filter(revocation_time__isnull=not value)

    def filter_offchain(self, queryset, name, value: bool):
        return queryset  # which table is read is the view's choice (AttestationViewSet)

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        return decoded_filters.filter_by_decoded_fields(
            queryset, self.data, self.form.cleaned_data.get("schemaId"))




class OffchainAttestationFilter(AttestationFilter):
    """The filters of /attestations, on offchain attestations (`offchain=true`)."""

    class Meta:
        model = OffchainAttestation
        fields = []
        form = AttestationFilterForm


class TimestampFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
    data = Bytes32Filter(label="The timestamped bytes32.")

    class Meta:
        model = Timestamp
        fields = []
        form = AttestationFilterForm


class OffchainRevocationFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
    revoker = AddressFilter()
    data = Bytes32Filter(label="The revoked offchain attestation's uid.")

    class Meta:
        model = OffchainRevocation
        fields = []
        form = AttestationFilterForm


def time_window(filterset_class, field_name: str, what: str) -> None:
    """`from` and `to` (Python keywords: set beside the declared filters) on `field_name`:
    a half-open range, [from, to), so that consecutive windows neither miss nor repeat."""
    filterset_class.base_filters["from"] = IsoTimeFilter(
        field_name=field_name, lookup_expr="gte", label=f"{what} at or after this time (ISO 8601).")
    filterset_class.base_filters["to"] = IsoTimeFilter(
        field_name=field_name, lookup_expr="lt", label=f"{what} before this time (ISO 8601).")


time_window(AttestationFilter, "time", "Attested")
time_window(OffchainAttestationFilter, "time", "Signed")
time_window(TimestampFilter, "timestamp", "Timestamped")
time_window(OffchainRevocationFilter, "timestamp", "Revoked")

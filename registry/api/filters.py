import django_filters as filters
from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from registry.models import (
    Category,
    Chain,
    ContractName,
    ContractVersion,
    Deployment,
    ProviderHealth,
    RpcEndpoint,
)
from registry.models.rpc import OverrideStatus, ProbeStatus

# Filter names are the camelCase names of the wire format.


@extend_schema_field(OpenApiTypes.BOOL)  # `true` or `false` in the URL, as OpenAPI writes them
class StrictBooleanFilter(filters.TypedChoiceFilter):
    """`true` or `false`; anything else is a 400, where BooleanFilter would ignore it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("choices", [("true", "true"), ("false", "false")])
        kwargs.setdefault("coerce", lambda value: value == "true")
        super().__init__(**kwargs)


class AddressFilter(filters.CharFilter):
    """An address in any case: addresses are stored lowercase."""

    def filter(self, qs, value):
        return super().filter(qs, value.lower() if value else value)


class ChainFilter(filters.FilterSet):
    status = filters.ChoiceFilter(choices=Chain.Status.choices)
    isTestnet = StrictBooleanFilter(field_name="is_testnet")
    shortName = filters.CharFilter(field_name="short_name")
    search = filters.CharFilter(field_name="name", lookup_expr="icontains")
    ordering = filters.OrderingFilter(
        fields=(("chain_id", "chainId"), ("name", "name"), ("created_at", "createdAt"))
    )

    class Meta:
        model = Chain
        fields = []


class CategoryFilter(filters.FilterSet):
    search = filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Category
        fields = []


class ContractNameFilter(filters.FilterSet):
    category = filters.CharFilter(field_name="category__slug")
    search = filters.CharFilter(method="filter_search")

    class Meta:
        model = ContractName
        fields = []

    def filter_search(self, queryset, name, value):
        # The slug ("eas") and the display name ("Ethereum Attestation Service") both identify it.
        return queryset.filter(Q(name__icontains=value) | Q(display_name__icontains=value))


class ContractVersionFilter(filters.FilterSet):
    contractName = filters.CharFilter(field_name="contract_name__name")
    version = filters.CharFilter()

    class Meta:
        model = ContractVersion
        fields = []


class DeploymentFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    kind = filters.ChoiceFilter(choices=Deployment.Kind.choices)
    address = AddressFilter()
    contractName = filters.CharFilter(field_name="contract_version__contract_name__name")
    contractVersion = filters.NumberFilter(field_name="contract_version_id")

    class Meta:
        model = Deployment
        fields = []


class RpcEndpointFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    provider = filters.CharFilter(lookup_expr="iexact")  # as POST /rpc/health takes it
    probeStatus = filters.ChoiceFilter(field_name="status", choices=ProbeStatus.choices)
    monitored = StrictBooleanFilter(field_name="monitoring_enabled")
    ordering = filters.OrderingFilter(
        fields=(("priority", "priority"), ("latency_ms", "latencyMs"), ("id", "id"))
    )

    class Meta:
        model = RpcEndpoint
        fields = []


class ProviderHealthFilter(filters.FilterSet):
    provider = filters.CharFilter(lookup_expr="iexact")
    rpcId = filters.NumberFilter(field_name="rpc_endpoint_id")
    status = filters.ChoiceFilter(choices=OverrideStatus.choices)

    class Meta:
        model = ProviderHealth
        fields = []

import django_filters as filters
from django.db.models import Q

from core.filters import AddressFilter, StrictBooleanFilter
from registry.models.chains import Chain
from registry.models.contracts import Category, ContractName, ContractVersion, Deployment
from registry.models.rpc import OverrideStatus, ProbeStatus, ProviderHealth, RpcEndpoint

# Filter names are the camelCase names of the wire format.


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

import django_filters as filters

from registry.models import Category, Chain, ContractName, ContractVersion, Deployment, ProviderHealth, RpcEndpoint
from registry.models.rpc import OverrideStatus, ProbeStatus

# Filter names are the camelCase names of the wire format.


class ChainFilter(filters.FilterSet):
    status = filters.ChoiceFilter(choices=Chain.Status.choices)
    isTestnet = filters.BooleanFilter(field_name="is_testnet")
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
    search = filters.CharFilter(field_name="display_name", lookup_expr="icontains")

    class Meta:
        model = ContractName
        fields = []


class ContractVersionFilter(filters.FilterSet):
    contractName = filters.CharFilter(field_name="contract_name__name")
    version = filters.CharFilter()

    class Meta:
        model = ContractVersion
        fields = []


class DeploymentFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    kind = filters.ChoiceFilter(choices=Deployment.Kind.choices)
    address = filters.CharFilter(method="filter_address")
    contractName = filters.CharFilter(field_name="contract_version__contract_name__name")
    contractVersion = filters.NumberFilter(field_name="contract_version_id")

    class Meta:
        model = Deployment
        fields = []

    def filter_address(self, queryset, name, value):
        return queryset.filter(address=value.lower())


class RpcEndpointFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    provider = filters.CharFilter()
    probeStatus = filters.ChoiceFilter(field_name="status", choices=ProbeStatus.choices)
    monitored = filters.BooleanFilter(field_name="monitoring_enabled")
    ordering = filters.OrderingFilter(
        fields=(("priority", "priority"), ("latency_ms", "latencyMs"), ("id", "id"))
    )

    class Meta:
        model = RpcEndpoint
        fields = []


class ProviderHealthFilter(filters.FilterSet):
    provider = filters.CharFilter()
    rpcId = filters.NumberFilter(field_name="rpc_endpoint_id")
    status = filters.ChoiceFilter(choices=OverrideStatus.choices)

    class Meta:
        model = ProviderHealth
        fields = []

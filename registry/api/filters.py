import django_filters as filters
from django.db.models import Q

from core.filters import (
    AddressFilter,
    ChainIdInFilter,
    ChoiceInFilter,
    NumberInFilter,
    OrderingFilter,
    StrictBooleanFilter,
)
from registry.models.api_keys import ApiKey, KeyScope
from registry.models.chains import Chain
from registry.models.contracts import Category, ContractName, ContractVersion, Deployment
from registry.models.rpc import OverrideStatus, ProbeStatus, ProviderHealth, RpcEndpoint

# Filter names are the camelCase names of the wire format. Where a filter names one of a
# few values (a status, a chain), it takes several: `status=active,inactive`.


class ChainFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
    status = ChoiceInFilter(choices=Chain.Status.choices)
    isTestnet = StrictBooleanFilter(field_name="is_testnet")
    shortName = filters.CharFilter(field_name="short_name")
    name = filters.CharFilter()
    search = filters.CharFilter(field_name="name", lookup_expr="icontains")
    ordering = OrderingFilter(fields=(
        ("chain_id", "chainId"), ("name", "name"), ("short_name", "shortName"),
        ("created_at", "createdAt"), ("updated_at", "updatedAt"),
    ))

    class Meta:
        model = Chain
        fields = []


class CategoryFilter(filters.FilterSet):
    search = filters.CharFilter(field_name="name", lookup_expr="icontains")
    ordering = OrderingFilter(fields=(("slug", "slug"), ("name", "name")))

    class Meta:
        model = Category
        fields = []


class ContractNameFilter(filters.FilterSet):
    category = filters.CharFilter(field_name="category__slug")
    search = filters.CharFilter(method="filter_search")
    ordering = OrderingFilter(fields=(("name", "name"), ("display_name", "displayName")))

    class Meta:
        model = ContractName
        fields = []

    def filter_search(self, queryset, name, value):
        # The slug ("eas") and the display name ("Ethereum Attestation Service") both identify it.
        return queryset.filter(Q(name__icontains=value) | Q(display_name__icontains=value))


class ContractVersionFilter(filters.FilterSet):
    contractName = filters.CharFilter(field_name="contract_name__name")
    version = filters.CharFilter()
    # By creation, not by `version`: semantic versions do not sort as text (1.10 < 1.9).
    ordering = OrderingFilter(fields=(("id", "id"), ("created_at", "createdAt")))

    class Meta:
        model = ContractVersion
        fields = []


class DeploymentFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
    kind = ChoiceInFilter(choices=Deployment.Kind.choices)
    address = AddressFilter()
    contractName = filters.CharFilter(field_name="contract_version__contract_name__name")
    contractVersion = NumberInFilter(field_name="contract_version_id")
    ordering = OrderingFilter(fields=(
        ("id", "id"), ("chain_id", "chainId"), ("start_block", "startBlock"),
        ("created_at", "createdAt"),
    ))

    class Meta:
        model = Deployment
        fields = []


class RpcEndpointFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
    provider = filters.CharFilter(lookup_expr="iexact")  # as POST /rpc/health takes it
    probeStatus = ChoiceInFilter(field_name="status", choices=ProbeStatus.choices)
    monitored = StrictBooleanFilter(field_name="monitoring_enabled")
    ordering = OrderingFilter(fields=(
        ("priority", "priority"), ("latency_ms", "latencyMs"), ("id", "id"),
        ("chain_id", "chainId"), ("last_checked_at", "lastCheckedAt"),
    ))

    class Meta:
        model = RpcEndpoint
        fields = []


class ProviderHealthFilter(filters.FilterSet):
    provider = filters.CharFilter(lookup_expr="iexact")
    rpcId = NumberInFilter(field_name="rpc_endpoint_id")
    status = ChoiceInFilter(choices=OverrideStatus.choices)
    ordering = OrderingFilter(fields=(("id", "id"), ("created_at", "createdAt")))

    class Meta:
        model = ProviderHealth
        fields = []


class ApiKeyFilter(filters.FilterSet):
    scope = ChoiceInFilter(choices=KeyScope.choices)
    revoked = StrictBooleanFilter(field_name="revoked_at", lookup_expr="isnull", exclude=True)
    name = filters.CharFilter()
    ordering = OrderingFilter(fields=(("created_at", "createdAt"), ("name", "name")))

    class Meta:
        model = ApiKey
        fields = []

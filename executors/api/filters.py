import django_filters as filters

from executors.models import Executor, ExecutorStatus, TrustedAttester
from registry.api.filters import StrictBooleanFilter


class ExecutorFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    status = filters.ChoiceFilter(choices=ExecutorStatus.choices)
    trusted = StrictBooleanFilter(field_name="trust_revoked_at", method="filter_trusted")
    address = filters.CharFilter(method="filter_address")

    class Meta:
        model = Executor
        fields = []

    def filter_trusted(self, queryset, name, value):
        return queryset.filter(trust_revoked_at__isnull=value)

    def filter_address(self, queryset, name, value):
        return queryset.filter(address=value.lower())


class TrustedAttesterFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    address = filters.CharFilter(method="filter_address")

    class Meta:
        model = TrustedAttester
        fields = []

    def filter_address(self, queryset, name, value):
        return queryset.filter(address=value.lower())

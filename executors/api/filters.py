import django_filters as filters

from core.filters import AddressFilter, StrictBooleanFilter
from executors.models import Executor, ExecutorStatus, TrustedAttester


class ExecutorFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    status = filters.ChoiceFilter(choices=ExecutorStatus.choices, method="filter_status")
    trusted = StrictBooleanFilter(field_name="trust_revoked_at", method="filter_trusted")
    address = AddressFilter()

    class Meta:
        model = Executor
        fields = []

    def filter_status(self, queryset, name, value):
        return queryset.showing(value)

    def filter_trusted(self, queryset, name, value):
        return queryset.filter(trust_revoked_at__isnull=value)


class TrustedAttesterFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    address = AddressFilter()

    class Meta:
        model = TrustedAttester
        fields = []

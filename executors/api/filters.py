import django_filters as filters

from core.filters import (
    AddressFilter,
    ChainIdInFilter,
    ChoiceInFilter,
    OrderingFilter,
    StrictBooleanFilter,
)
from executors.models import Executor, ExecutorStatus, TrustedAttester


class ExecutorFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
    status = ChoiceInFilter(choices=ExecutorStatus.choices, method="filter_status")
    trusted = StrictBooleanFilter(field_name="trust_revoked_at", method="filter_trusted")
    address = AddressFilter()
    ordering = OrderingFilter(fields=(
        ("chain_id", "chainId"), ("registered_at", "registeredAt"),
        ("last_heartbeat_at", "lastHeartbeatAt"), ("status_changed_at", "statusChangedAt"),
    ))

    class Meta:
        model = Executor
        fields = []

    def filter_status(self, queryset, name, values):
        return queryset.showing(*values)

    def filter_trusted(self, queryset, name, value):
        return queryset.filter(trust_revoked_at__isnull=value)


class TrustedAttesterFilter(filters.FilterSet):
    chainId = ChainIdInFilter()
    address = AddressFilter()
    ordering = OrderingFilter(fields=(("id", "id"), ("chain_id", "chainId"),
                                      ("created_at", "createdAt")))

    class Meta:
        model = TrustedAttester
        fields = []

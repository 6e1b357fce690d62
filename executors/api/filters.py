import django_filters as filters
from django.db.models import Q
from django.utils import timezone

from executors.models import Executor, ExecutorStatus, TrustedAttester
from registry.api.filters import AddressFilter, StrictBooleanFilter


def shown_status(status: str, now=None) -> Q:
    """Executors whose status reads as `status` (Executor.current_status()), so that a
    filter agrees with the status shown: a live executor whose lease ran out reads as stale
    before the sweep records it."""
    now = now or timezone.now()
    if status == ExecutorStatus.STALE:
        live = Q(status__in=[ExecutorStatus.HEALTHY, ExecutorStatus.DRAINING])
        return Q(status=status) | (live & Q(lease_expires_at__lte=now))
    if status in (ExecutorStatus.HEALTHY, ExecutorStatus.DRAINING):
        return Q(status=status, lease_expires_at__gt=now)
    return Q(status=status)


class ExecutorFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    status = filters.ChoiceFilter(choices=ExecutorStatus.choices, method="filter_status")
    trusted = StrictBooleanFilter(field_name="trust_revoked_at", method="filter_trusted")
    address = AddressFilter()

    class Meta:
        model = Executor
        fields = []

    def filter_status(self, queryset, name, value):
        return queryset.filter(shown_status(value))

    def filter_trusted(self, queryset, name, value):
        return queryset.filter(trust_revoked_at__isnull=value)


class TrustedAttesterFilter(filters.FilterSet):
    chainId = filters.NumberFilter(field_name="chain_id")
    address = AddressFilter()

    class Meta:
        model = TrustedAttester
        fields = []

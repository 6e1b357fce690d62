from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from rest_framework import mixins, viewsets

from attestations.api import filters, serializers
from executors.models import ExecutorStatus
from registry.models import Chain, Deployment, RpcEndpoint


class ChainViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The supported blockchain networks: active chains with their deployments, the health
    of their RPC endpoints and their online executors."""

    serializer_class = serializers.PublicChainSerializer
    filterset_class = filters.PublicChainFilter
    lookup_field = "chain_id"
    lookup_value_regex = "[0-9]+"

    def get_queryset(self):
        now = timezone.now()
        online = Q(executors__status__in=[ExecutorStatus.HEALTHY, ExecutorStatus.DRAINING],
                   executors__lease_expires_at__gt=now)
        return (
            Chain.objects.filter(status=Chain.Status.ACTIVE)
            .annotate(
                online_executors=Count("executors", filter=online, distinct=True),
                registered_executors=Count(
                    "executors", filter=~Q(executors__status=ExecutorStatus.DEREGISTERED),
                    distinct=True,
                ),
            )
            .prefetch_related(
                Prefetch("deployments", queryset=Deployment.objects.select_related(
                    "contract_version__contract_name").order_by("kind", "id")),
                Prefetch("rpc_endpoints", queryset=RpcEndpoint.objects.with_override()),
            )
        )

from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from attestations import schema
from attestations.api import filters, serializers
from executors.models import LIVE_STATUSES, ExecutorStatus
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
        online = Q(executors__status__in=LIVE_STATUSES, executors__lease_expires_at__gt=now)
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


class SchemaViewSet(viewsets.GenericViewSet):
    """EAS schemas: the grammar check of a schema string and of data for it."""

    @extend_schema(
        request=serializers.SchemaValidateRequestSerializer,
        responses=serializers.SchemaValidateResponseSerializer,
        description="Parse an EAS schema string and, when `data` is given, check and ABI-encode "
        "it. An invalid schema or data is a 200 with `valid: false` and errors naming the "
        "field; a malformed request is a 400.",
    )
    @action(detail=False, methods=["post"])
    def validate(self, request):
        body = serializers.SchemaValidateRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        result = schema.check(body.validated_data["schema"], body.validated_data.get("data"))
        # Rendered from the dict: the serializer above only documents the shape.
        return Response(result.as_dict())

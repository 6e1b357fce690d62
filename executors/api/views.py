from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.conditional import ConditionalMixin
from core.lean import answer, read_request
from core.viewsets import AdminViewSet, created_headers
from executors import serializers, services
from executors.api import filters
from executors.models import Executor, TrustedAttester
from registry.authentication import BearerKeyAuthentication
from registry.models import Chain
from registry.permissions import HasAdminScope, HasExecutorScope

CHAIN_PARAMETER = OpenApiParameter(
    "chain", str, OpenApiParameter.PATH, description="A chain id (31337) or short name (anvil)."
)


class ChainRegistryViewSet(viewsets.GenericViewSet):
    """The executor registry of one chain: executors register and keep their lease alive."""

    permission_classes = [HasExecutorScope]
    # An inactive chain (OpenAPI lists the 409). The chain's executor jobs are served
    # under the same path by bindings/api/jobs.py.
    conflict_actions = ["register"]
    lookup_field = "chain"
    lookup_value_regex = "[^/]+"

    def chain(self) -> Chain:
        return Chain.objects.registered(self.kwargs["chain"])

    @extend_schema(operation_id="registerExecutor", summary="Register an executor",
                   parameters=[CHAIN_PARAMETER], request=serializers.RegisterSerializer,
                   responses={201: serializers.ExecutorSerializer, 200: serializers.ExecutorSerializer})
    @action(detail=True, methods=["post"])
    def register(self, request, chain=None):
        """Register an executor (idempotent: the same address again returns the same id)."""
        body = serializers.RegisterSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        executor, created = services.executor_register(
            chain=self.chain(), holder=request.auth, **body.validated_data
        )
        if not created:
            return Response(serializers.ExecutorSerializer(executor).data)
        # The executor's record is read at the admin API (an executor key has no read).
        return Response(serializers.ExecutorSerializer(executor).data,
                        status=status.HTTP_201_CREATED,
                        headers=created_headers("executor-detail", pk=executor.pk))

    @extend_schema(operation_id="heartbeat", summary="Renew an executor's lease",
                   parameters=[CHAIN_PARAMETER], request=serializers.HeartbeatSerializer,
                   responses=serializers.HeartbeatResponseSerializer)
    @action(detail=True, methods=["post"])
    def heartbeat(self, request, chain=None):
        """Renew an executor's lease. 404 for an unknown executor: register again."""
        # The serializers' work without building them: core/lean.py (measured there).
        data = read_request(serializers.HeartbeatSerializer, request)
        beat = Executor.heartbeat(
            chain_ref=chain, holder=request.auth, executor_id=data["executor_id"],
            reported=data["status"], pending_jobs=data.get("pending_jobs"),
            head_block=data.get("head_block"), balance_wei=data.get("balance_wei"),
        )
        return answer(serializers.HeartbeatResponseSerializer, beat)


class ExecutorAdminViewSet(ConditionalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                           viewsets.GenericViewSet):
    """Executors of every chain; administrators can revoke or restore their trust."""

    authentication_classes = [BearerKeyAuthentication]
    permission_classes = [HasAdminScope]
    queryset = Executor.objects.all()
    serializer_class = serializers.ExecutorSerializer
    filterset_class = filters.ExecutorFilter

    def get_serializer_class(self):
        return serializers.ExecutorDetailSerializer if self.detail else serializers.ExecutorSerializer

    @extend_schema(request=serializers.ExecutorTrustSerializer,
                   responses=serializers.ExecutorDetailSerializer)
    def partial_update(self, request, pk=None):
        """Revoke (`{"trusted": false}`) or restore an executor's trust: its attestations stop
        or start verifying on the next request."""
        executor = self.get_object()
        body = serializers.ExecutorTrustSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        executor = Executor.set_trust(executor.pk, trusted=body.validated_data["trusted"])
        return Response(serializers.ExecutorDetailSerializer(executor).data)

    @extend_schema(request=None, responses=serializers.ExecutorDetailSerializer)
    @action(detail=True, methods=["post"])
    def deregister(self, request, pk=None):
        """Take the executor out of service; it keeps its trust. Registering again revives it."""
        executor = Executor.deregister(self.get_object().pk)
        return Response(serializers.ExecutorDetailSerializer(executor).data)


class TrustedAttesterViewSet(AdminViewSet):
    """Addresses trusted on a chain besides its executors."""

    queryset = TrustedAttester.objects.all()
    serializer_class = serializers.TrustedAttesterSerializer
    filterset_class = filters.TrustedAttesterFilter

    def perform_create(self, serializer):
        serializer.save(added_by=self.request.auth.prefix)

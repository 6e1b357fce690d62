from django.db import transaction
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.conditional import ConditionalMixin
from core.errors import Invalid
from core.lean import answer, read_request
from core.viewsets import AdminViewSet, created_headers
from executors import proofs, serializers, services, trust
from executors.api import filters
from executors.models import Executor, TrustedAttester
from registry.authentication import BearerKeyAuthentication
from registry.models import ApiKey, Chain, KeyScope
from registry.permissions import HasAdminScope, HasExecutorScope

CHAIN_PARAMETER = OpenApiParameter(
    "chain", str, OpenApiParameter.PATH, description="A chain id (31337) or short name (anvil)."
)


class ChainRegistryViewSet(viewsets.GenericViewSet):
    """The executor registry of one chain: executors register and keep their lease alive."""

    permission_classes = [HasExecutorScope]
    # An inactive chain, too many open challenges (OpenAPI lists the 409). The chain's
    # executor jobs are served under the same path by bindings/api/jobs.py.
    conflict_actions = ["register", "challenge"]
    lookup_field = "chain"
    lookup_value_regex = "[^/]+"

    def chain(self) -> Chain:
        return Chain.objects.registered(self.kwargs["chain"])

    @extend_schema(operation_id="challengeExecutorAddress",
                   summary="Ask for a challenge proving an address's key",
                   parameters=[CHAIN_PARAMETER], request=serializers.ChallengeSerializer,
                   responses=serializers.ChallengeResponseSerializer)
    @action(detail=True, methods=["post"])
    def challenge(self, request, chain=None):
        """An EIP-4361 message for the address's key to sign (personal_sign), then sent with
        the registration as `proof`: single use, valid for ADDRESS_PROOF_SECONDS (5 min)."""
        body = serializers.ChallengeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        issued = proofs.challenge_issue(
            purpose=proofs.Purpose.REGISTER, chain=self.chain(), key_prefix=request.auth.prefix,
            address=body.validated_data["address"], origin=proofs.origin_of(request))
        # 200, not 201: the challenge is the answer, not a resource to read back.
        return Response(serializers.ChallengeResponseSerializer(issued).data)

    @extend_schema(operation_id="registerExecutor", summary="Register an executor",
                   parameters=[CHAIN_PARAMETER], request=serializers.RegisterSerializer,
                   responses={201: serializers.ExecutorSerializer, 200: serializers.ExecutorSerializer})
    @action(detail=True, methods=["post"])
    def register(self, request, chain=None):
        """Register an executor (idempotent: the same address again returns the same id)."""
        body = serializers.RegisterSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        executor, created = services.executor_register(
            chain=self.chain(), holder=request.auth, origin=proofs.origin_of(request),
            **body.validated_data
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
        """Approve (`{"trusted": true}`) or revoke (`false`) an executor's trust, as the
        approve and revoke-trust actions: its attestations start or stop verifying on the
        next request."""
        executor = self.get_object()  # an unknown one is a 404 whatever the body
        body = serializers.ExecutorTrustSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self._decide(executor, trusted=body.validated_data["trusted"],
                            reason=body.validated_data["reason"])

    @extend_schema(operation_id="adminApproveExecutor", summary="Approve an executor",
                   request=serializers.TrustDecisionSerializer,
                   responses=serializers.ExecutorDetailSerializer)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """Trust the executor (a pending one, or restore a revoked one): its attestations
        verify from the next request. Recorded in the audit trail with the key."""
        return self._decide(self.get_object(), trusted=True, reason=self._reason(request))

    @extend_schema(operation_id="adminRevokeExecutorTrust", summary="Revoke an executor's trust",
                   request=serializers.TrustDecisionSerializer,
                   responses=serializers.ExecutorDetailSerializer)
    @action(detail=True, methods=["post"], url_path="revoke-trust")
    def revoke_trust(self, request, pk=None):
        """Its attestations stop verifying from the next request (also those made before).
        Recorded in the audit trail with the key."""
        return self._decide(self.get_object(), trusted=False, reason=self._reason(request))

    @extend_schema(operation_id="adminTransferExecutor",
                   summary="Move an executor to another executor key",
                   request=serializers.TransferSerializer,
                   responses=serializers.ExecutorDetailSerializer)
    @action(detail=True, methods=["post"])
    def transfer(self, request, pk=None):
        """From now on another executor key speaks for the executor (registers, heartbeats,
        claims); revoking its former key then leaves its trust as it is."""
        executor = self.get_object()
        body = serializers.TransferSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        key = ApiKey.objects.filter(prefix=body.validated_data["key"][4:],
                                    scope=KeyScope.EXECUTOR, revoked_at__isnull=True).first()
        if key is None:
            raise Invalid({"key": ["No executor key with this prefix, or it is revoked."]},
                          code="invalid")
        executor = trust.executor_transfer(executor.pk, to_key=key)
        return Response(serializers.ExecutorDetailSerializer(executor).data)

    def _reason(self, request) -> str:
        body = serializers.TrustDecisionSerializer(data=request.data or {})
        body.is_valid(raise_exception=True)
        return body.validated_data["reason"]

    def _decide(self, executor, *, trusted: bool, reason: str):
        executor = Executor.set_trust(executor.pk, trusted=trusted, reason=reason,
                                      by=self.request.auth.prefix)
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

    conflict_actions = ["challenge"]  # too many open challenges

    def perform_create(self, serializer):
        with transaction.atomic():  # a refused proof adds nothing
            serializer.save(added_by=self.request.auth.prefix, **self._proven(serializer))

    def perform_update(self, serializer):
        with transaction.atomic():
            serializer.save(**self._proven(serializer))

    def _proven(self, serializer) -> dict:
        """{"proven_at": now} when the request sent a proof, which it uses up."""
        proof = serializer.validated_data.pop("proof", None)
        if proof is None:
            return {}
        chain = serializer.validated_data.get("chain") or serializer.instance.chain
        address = serializer.validated_data.get("address") or serializer.instance.address
        used = proofs.proof_use(proof, purpose=proofs.Purpose.TRUSTED_ATTESTER, chain=chain,
                                address=address, key_prefix=self.request.auth.prefix,
                                origin=proofs.origin_of(self.request))
        return {"proven_at": used.used_at}

    @extend_schema(operation_id="adminChallengeTrustedAttester",
                   summary="Ask for a challenge proving a trusted attester's key",
                   request=serializers.AttesterChallengeSerializer,
                   responses=serializers.ChallengeResponseSerializer)
    @action(detail=False, methods=["post"])
    def challenge(self, request):
        """An EIP-4361 message for the address's key to sign, then sent as `proof` when
        adding the trusted attester (optional: the proof makes `provenAt`)."""
        body = serializers.AttesterChallengeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        issued = proofs.challenge_issue(
            purpose=proofs.Purpose.TRUSTED_ATTESTER, chain=body.validated_data["chain_id"],
            address=body.validated_data["address"], key_prefix=request.auth.prefix,
            origin=proofs.origin_of(request))
        # 200, not 201: the challenge is the answer, not a resource to read back.
        return Response(serializers.ChallengeResponseSerializer(issued).data)

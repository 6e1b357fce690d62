from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from bindings import workflows
from bindings.api import filters, serializers
from bindings.api.pagination import WorkflowCursorPagination
from bindings.api.serializers import MAX_IDEMPOTENCY_KEY
from bindings.models import Workflow
from core.conditional import ConditionalMixin
from core.viewsets import created_headers
from registry.models import KeyScope

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
    description="Repeating a request with the same key and body returns the first workflow "
    "(200); the same key with another body is a 409. Keys are per API key, up to "
    f"{MAX_IDEMPOTENCY_KEY} printable ASCII characters.",
)


class WorkflowViewSet(ConditionalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                      viewsets.GenericViewSet):
    """Document-binding workflows: a document hash to attest on a chain, followed from the
    request to the confirmed attestation."""

    queryset = Workflow.objects.all()
    serializer_class = serializers.WorkflowSerializer
    filterset_class = filters.WorkflowFilter
    pagination_class = WorkflowCursorPagination
    lookup_value_regex = "[^/]+"

    def get_queryset(self):
        # Each key sees the workflows it created; an admin key sees them all. Another key's
        # workflow is a 404, as an unknown one: its id tells nothing.
        holder = getattr(self.request, "auth", None)
        workflows = Workflow.objects.all()
        if holder is None:
            return workflows.none()
        if holder.scope != KeyScope.ADMIN:
            workflows = workflows.filter(created_by=holder.prefix)
        if self.detail:
            return workflows.prefetch_related("transitions")
        return workflows

    def get_serializer_class(self):
        return serializers.WorkflowDetailSerializer if self.detail else serializers.WorkflowSerializer

    @extend_schema(parameters=[IDEMPOTENCY_KEY], request=serializers.WorkflowCreateSerializer,
                   responses={201: serializers.WorkflowDetailSerializer,
                              200: serializers.WorkflowDetailSerializer})
    def create(self, request):
        """Bind a document: queue an attestation of `documentHash` on `chainId`."""
        key = request.headers.get("Idempotency-Key")
        if key is not None and not (0 < len(key) <= MAX_IDEMPOTENCY_KEY
                                    and key.isascii() and key.isprintable()):
            raise ValidationError({"idempotency_key": [
                f"Expected 1 to {MAX_IDEMPOTENCY_KEY} printable ASCII characters."]})
        body = serializers.WorkflowCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        workflow, created = workflows.workflow_create(
            holder=request.auth, chain_id=data["chain_id"], document_hash=data["document_hash"],
            schema_uid=data.get("schema_id"), data=data["data"], idempotency_key=key,
            fingerprint=workflows.request_fingerprint(request.data),
        )
        workflow = Workflow.objects.prefetch_related("transitions").get(pk=workflow.pk)
        data = serializers.WorkflowDetailSerializer(workflow).data
        if not created:  # the first answer to this Idempotency-Key, as it is now
            return Response(data)
        return Response(data, status=status.HTTP_201_CREATED,
                        headers=created_headers("workflow-detail", pk=workflow.pk))

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from bindings import workflows
from bindings.api import filters, serializers
from bindings.api.pagination import WorkflowCursorPagination
from bindings.api.serializers import MAX_BATCH_IDEMPOTENCY_KEY, MAX_IDEMPOTENCY_KEY
from bindings.models import Workflow
from core import lean
from core.conditional import ConditionalMixin
from core.parsers import DEFAULT_BODY_LIMITS, BodyLimits
from core.viewsets import created_headers
from registry.models import KeyScope

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
    description="Repeating a request with the same key and body returns the first workflow "
    "(200); the same key with another body is a 409. Keys are per API key, up to "
    f"{MAX_IDEMPOTENCY_KEY} printable ASCII characters.",
)
BATCH_IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
    description="Repeating the batch with the same key and body returns the workflows it "
    "created (200, `created: false`); the same key with another body is a 409. Each item "
    "is stored under its own key, the header's and the item's index. Keys are per API key, "
    f"up to {MAX_BATCH_IDEMPOTENCY_KEY} printable ASCII characters.",
)
# Between the header's key and an item's index: not printable, so that no key a client
# sends to POST /workflows can be the key of a batch's item.
ITEM_KEY_SEPARATOR = "\x1f"


def idempotency_key(request, longest: int) -> str | None:
    """The request's Idempotency-Key, checked: 1 to `longest` printable ASCII characters."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (0 < len(key) <= longest and key.isascii() and key.isprintable()):
        raise ValidationError({"idempotency_key": [
            f"Expected 1 to {longest} printable ASCII characters."]})
    return key


class WorkflowViewSet(ConditionalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                      viewsets.GenericViewSet):
    """Document-binding workflows: a document hash to attest on a chain, followed from the
    request to the confirmed attestation."""

    queryset = Workflow.objects.all()
    serializer_class = serializers.WorkflowSerializer
    filterset_class = filters.WorkflowFilter
    pagination_class = WorkflowCursorPagination
    lookup_value_regex = "[^/]+"
    body_limits = DEFAULT_BODY_LIMITS  # core/parsers.py; the batch has its own

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
        key = idempotency_key(request, MAX_IDEMPOTENCY_KEY)
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

    @extend_schema(operation_id="createWorkflowBatch", parameters=[BATCH_IDEMPOTENCY_KEY],
                   request=serializers.WorkflowBatchCreateSerializer,
                   responses={201: serializers.WorkflowBatchSerializer,
                              200: serializers.WorkflowBatchSerializer})
    # 1,000 workflows, each with the `data` of a schema of some 20 fields and arrays
    @action(detail=False, methods=["post"], url_path="batch",
            body_limits=BodyLimits(keys=25 * serializers.BATCH_LIMIT,
                                   items=25 * serializers.BATCH_LIMIT))
    def batch(self, request):
        """Bind many documents: up to 1,000 binding requests, each checked as `POST
        /workflows` checks one, queued all together or none (a refusal names the item:
        `workflows.3.documentHash`). 201 when any was created; `Location` is the first
        created workflow's."""
        key = idempotency_key(request, MAX_BATCH_IDEMPOTENCY_KEY)
        # Read without a serializer per item when well formed (core/lean.py), else by DRF,
        # which names every fault.
        items = lean.read_request(serializers.WorkflowBatchCreateSerializer, request)["workflows"]
        keys = None if key is None else [f"{key}{ITEM_KEY_SEPARATOR}{i}" for i in range(len(items))]
        made = workflows.workflows_create_many(
            holder=request.auth, items=[dict(item) for item in items], keys=keys,
            fingerprint=workflows.request_fingerprint(request.data))
        for workflow, created in made:
            workflow.created = created
        # Written without the renderer's camelCase pass over a thousand workflows (core/lean.py).
        data = serializers.WorkflowBatchSerializer({"workflows": [w for w, _ in made]}).data
        first = next((w for w, created in made if created), None)
        if first is None:
            return lean.respond(data)
        return lean.respond(data, status=status.HTTP_201_CREATED,
                            headers=created_headers("workflow-detail", pk=first.pk))

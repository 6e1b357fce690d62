from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from bindings.jobs import MAX_CLAIM, MAX_RESULTS
from bindings.models import Workflow, WorkflowState, WorkflowTransition
from bindings.workflows import BATCH_LIMIT
from core.document_hash import HELP_TEXT as DOCUMENT_HASH_HELP
from core.fields import Bytes32Field, ChainIdField
from core.serializers import StrictSerializer
from registry.models import Chain

MAX_IDEMPOTENCY_KEY = 255
# A batch's key is the header's with the item's index (bindings/api/views.py): the column
# holds 255 characters, the index and its separator take up to 4.
MAX_BATCH_IDEMPOTENCY_KEY = MAX_IDEMPOTENCY_KEY - 4


class WorkflowCreateSerializer(StrictSerializer):
    document_hash = Bytes32Field(help_text=DOCUMENT_HASH_HELP)
    chain_id = ChainIdField()
    schema_id = Bytes32Field(required=False, help_text="Defaults to the chain's document "
                             "schema (`bytes32 documentHash`).")
    data = serializers.DictField(required=False, default=dict,
                                 help_text="Values of the schema's other fields, by name.")


class WorkflowBatchCreateSerializer(StrictSerializer):
    workflows = WorkflowCreateSerializer(
        many=True, min_length=1, max_length=BATCH_LIMIT,
        help_text=f"1 to {BATCH_LIMIT} binding requests, each as `POST /workflows` takes it; "
        "a refused one is named by its index (`workflows.3.documentHash`).")


class WorkflowTransitionSerializer(serializers.ModelSerializer):
    class Meta:
        model = WorkflowTransition
        fields = ["from_state", "to_state", "cause", "created_at"]


class WorkflowSerializer(serializers.ModelSerializer):
    workflow_id = serializers.UUIDField(source="id", read_only=True)
    chain_id = serializers.IntegerField(read_only=True)
    schema_id = serializers.CharField(source="schema_uid", read_only=True)
    executor_id = serializers.UUIDField(read_only=True, allow_null=True)
    tx_hash = serializers.SerializerMethodField()
    attestation_uid = serializers.SerializerMethodField()

    class Meta:
        model = Workflow
        fields = [
            "workflow_id", "chain_id", "document_hash", "schema_id", "data", "state", "attempts",
            "available_at", "deadline", "executor_id", "tx_hash", "tx_hashes", "block_number",
            "attestation_uid", "last_error", "created_at", "updated_at", "confirmed_at",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_tx_hash(self, workflow) -> str | None:
        return workflow.tx_hash or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_attestation_uid(self, workflow) -> str | None:
        return workflow.attestation_uid or None


class WorkflowBatchItemSerializer(WorkflowSerializer):
    created = serializers.BooleanField(
        read_only=True, help_text="Whether this request created it (false: a repeat of the "
        "request under the same Idempotency-Key found it).")

    class Meta(WorkflowSerializer.Meta):
        fields = [*WorkflowSerializer.Meta.fields, "created"]
        read_only_fields = fields


class WorkflowBatchSerializer(serializers.Serializer):
    workflows = WorkflowBatchItemSerializer(many=True, help_text="In the request's order.")


class WorkflowDetailSerializer(WorkflowSerializer):
    transitions = WorkflowTransitionSerializer(many=True, read_only=True)

    class Meta(WorkflowSerializer.Meta):
        fields = [*WorkflowSerializer.Meta.fields, "transitions"]
        read_only_fields = fields


# Executor jobs (served under /v1/chain-registry/{chain}/jobs)


class JobClaimSerializer(StrictSerializer):
    executor_id = serializers.UUIDField()
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_CLAIM,
        help_text=f"Claim up to this many jobs (1 to {MAX_CLAIM}); the answer is then "
        "`{\"jobs\": [...]}` (an empty list when none is queued). Without it: one job, or 204.")


class JobSerializer(serializers.Serializer):
    """A workflow as its executor needs it: what to attest, where, and by when."""

    workflow_id = serializers.UUIDField(source="workflow.id")
    chain_id = serializers.IntegerField(source="workflow.chain_id")
    document_hash = serializers.CharField(source="workflow.document_hash")
    schema_id = serializers.CharField(source="workflow.schema_uid")
    schema = serializers.CharField(source="workflow.schema", help_text="The EAS schema string.")
    data = serializers.DictField(source="workflow.data")
    encoded_data = serializers.CharField(help_text="The attestation data, ABI-encoded.")
    eas_address = serializers.CharField(allow_null=True,
                                        help_text="The chain's EAS deployment to attest with.")
    revocable = serializers.BooleanField(source="workflow.revocable",
                                         help_text="Whether to attest revocably (as the "
                                         "schema says).")
    attempt = serializers.IntegerField(source="workflow.attempts")
    dispatched_at = serializers.DateTimeField(source="workflow.dispatched_at")
    binding_mode = serializers.ChoiceField(
        choices=Chain.BindingMode.choices,
        help_text="How to bind it: `single` (its own attest transaction), `multi` (one "
        "multiAttest for the claimed batch's jobs of this mode), `merkle` (in the Merkle "
        "root of the claimed batch's jobs of this mode).")
    root_schema_id = serializers.CharField(
        allow_null=True, help_text="With `merkle`: the chain's root schema (`bytes32 "
        "merkleRoot`) to attest the root under; null otherwise.")


class JobBatchSerializer(serializers.Serializer):
    jobs = JobSerializer(many=True, help_text="Oldest first; empty when none is queued.")


class _JobOutcome(StrictSerializer):
    # What came of a job: the transaction sent, or the error met.
    tx_hash = Bytes32Field(required=False)
    error = serializers.CharField(required=False, max_length=2000)

    def validate(self, attrs):
        if ("tx_hash" in attrs) == ("error" in attrs):
            raise serializers.ValidationError("Give either txHash or error.", code="invalid")
        return attrs


class JobResultSerializer(_JobOutcome):
    executor_id = serializers.UUIDField()


class JobResultItemSerializer(_JobOutcome):
    workflow_id = serializers.UUIDField()
    merkle_root = Bytes32Field(
        required=False, help_text="Binding mode `merkle`: the root attested in `txHash`. The "
        "results of one root come in one report; the service builds the tree of their "
        "documents again and refuses a root that is not theirs (409 merkle_root_mismatch).")


class JobResultsSerializer(StrictSerializer):
    executor_id = serializers.UUIDField()
    results = JobResultItemSerializer(
        many=True, min_length=1, max_length=MAX_RESULTS,
        help_text=f"1 to {MAX_RESULTS} results, each for another job of this executor.")


class JobResultResponseSerializer(serializers.Serializer):
    workflow_id = serializers.UUIDField(source="id")
    state = serializers.ChoiceField(choices=WorkflowState.choices)
    tx_hash = serializers.CharField(allow_blank=True)
    attempts = serializers.IntegerField()


class JobResultsResponseSerializer(serializers.Serializer):
    results = JobResultResponseSerializer(many=True, help_text="In the request's order.")


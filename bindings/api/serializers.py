from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from bindings.models import Workflow, WorkflowState, WorkflowTransition
from core.document_hash import HELP_TEXT as DOCUMENT_HASH_HELP
from core.fields import Bytes32Field, ChainIdField
from core.serializers import StrictSerializer

MAX_IDEMPOTENCY_KEY = 255


class WorkflowCreateSerializer(StrictSerializer):
    document_hash = Bytes32Field(help_text=DOCUMENT_HASH_HELP)
    chain_id = ChainIdField()
    schema_id = Bytes32Field(required=False, help_text="Defaults to the chain's document "
                             "schema (`bytes32 documentHash`).")
    data = serializers.DictField(required=False, default=dict,
                                 help_text="Values of the schema's other fields, by name.")


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


class WorkflowDetailSerializer(WorkflowSerializer):
    transitions = WorkflowTransitionSerializer(many=True, read_only=True)

    class Meta(WorkflowSerializer.Meta):
        fields = [*WorkflowSerializer.Meta.fields, "transitions"]
        read_only_fields = fields


# Executor jobs (served under /v1/chain-registry/{chain}/jobs)


class JobClaimSerializer(StrictSerializer):
    executor_id = serializers.UUIDField()


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


class JobResultSerializer(StrictSerializer):
    executor_id = serializers.UUIDField()
    tx_hash = Bytes32Field(required=False)
    error = serializers.CharField(required=False, max_length=2000)

    def validate(self, attrs):
        if ("tx_hash" in attrs) == ("error" in attrs):
            raise serializers.ValidationError("Give either txHash or error.", code="invalid")
        return attrs


class JobResultResponseSerializer(serializers.Serializer):
    workflow_id = serializers.UUIDField(source="id")
    state = serializers.ChoiceField(choices=WorkflowState.choices)
    tx_hash = serializers.CharField(allow_blank=True)
    attempts = serializers.IntegerField()


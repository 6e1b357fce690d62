"""The executors' wire shapes and their rules: the API's (executors/api/) and the Django
admin's (executors/admin.py), outside api/ so that nothing but the HTTP layer imports api/."""

import json
import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.fields import AddressField, WeiField
from core.serializers import StrictModelSerializer, StrictSerializer
from executors.models import (
    REPORTED_STATUS,
    Executor,
    ExecutorStatus,
    ExecutorStatusChange,
    TrustedAttester,
    TrustState,
    heartbeat_interval_seconds,
)
from registry.serializers import WEB_SCHEMES, ChainRefField, check_url

MAX_CAPABILITIES = 32
MAX_METADATA_BYTES = 4096
RECENT_CHANGES = 20
MAX_PENDING_JOBS = 1_000_000
MAX_HEAD_BLOCK = 2**63 - 1  # a signed bigint
_CAPABILITY = re.compile(r"[a-z0-9][a-z0-9_.:-]{0,63}")


class ProofSerializer(StrictSerializer):
    """That the caller holds an address's key: a challenge of this service, signed."""

    message = serializers.CharField(
        max_length=2000, trim_whitespace=False,
        help_text="The EIP-4361 message of a challenge (POST .../challenge), exactly as issued.")
    signature = serializers.RegexField(
        r"^0x[0-9a-fA-F]{130}$",
        help_text="The address's EIP-191 (personal_sign) signature of the message: 0x + 130 "
        "hex digits.", error_messages={"invalid": "A signature is 0x and 130 hex digits."})


# The proof's schema, inline: as a nested serializer it would also be walked (and published)
# as an unused response component, the field being write-only where an answer has it.
PROOF_SCHEMA = {
    "type": "object", "required": ["message", "signature"], "additionalProperties": False,
    "properties": {
        "message": {"type": "string", "maxLength": 2000,
                    "description": "The EIP-4361 message of a challenge, exactly as issued."},
        "signature": {"type": "string", "pattern": "^0x[0-9a-fA-F]{130}$",
                      "description": "The address's EIP-191 (personal_sign) signature of the "
                      "message: 0x + 130 hex digits."},
    },
}


@extend_schema_field(PROOF_SCHEMA)
class ProofField(serializers.JSONField):
    """A proof of possession ({message, signature}), checked as ProofSerializer says."""

    def to_internal_value(self, data):
        proof = ProofSerializer(data=data)
        if not proof.is_valid():
            raise serializers.ValidationError(proof.errors)
        return proof.validated_data


class ChallengeSerializer(StrictSerializer):
    address = AddressField(help_text="The address whose key will sign the challenge.")


class AttesterChallengeSerializer(ChallengeSerializer):
    chain_id = ChainRefField(help_text="The chain the trusted attester is for.")


class ChallengeResponseSerializer(serializers.Serializer):
    message = serializers.CharField(help_text="The EIP-4361 message to sign, unchanged.")
    nonce = serializers.CharField()
    address = serializers.CharField()
    chain_id = serializers.IntegerField()
    issued_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="After this the proof is refused.")


class RegisterSerializer(StrictSerializer):
    address = AddressField()
    proof = ProofField(
        help_text="A challenge (POST /v1/chain-registry/{chain}/challenge) signed by the "
        "address: registering proves the caller holds its key.",
        error_messages={"required": "Registering needs a proof that you hold the address's "
                        "key: POST /v1/chain-registry/{{chain}}/challenge, sign its message with "
                        "the address's key (personal_sign), and send {{message, signature}}."})
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    endpoint_url = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    version = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
    capabilities = serializers.ListField(  # JSONField child: CharField would turn 5 into "5"
        child=serializers.JSONField(), max_length=MAX_CAPABILITIES, required=False, default=list
    )
    metadata = serializers.DictField(required=False, default=dict)

    def validate_endpoint_url(self, value):
        return check_url(value, WEB_SCHEMES) if value else value

    def validate_capabilities(self, values):
        bad = [v for v in values if not isinstance(v, str) or not _CAPABILITY.fullmatch(v)]
        if bad:
            raise serializers.ValidationError(
                "A capability is lowercase letters, digits and . _ : - (up to 64 characters).")
        if len(set(values)) != len(values):
            raise serializers.ValidationError("Capabilities are listed once each.")
        return values

    def validate_metadata(self, value):
        # Bytes of UTF-8, as sent: ensure_ascii would count an "é" as six. (The parser has
        # already refused what no database stores: NUL, lone surrogates, 1e400.)
        size = len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
        if size > MAX_METADATA_BYTES:
            raise serializers.ValidationError(
                f"Metadata is at most {MAX_METADATA_BYTES} bytes of JSON.")
        return value


class HeartbeatSerializer(StrictSerializer):
    executor_id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=sorted(REPORTED_STATUS))
    pending_jobs = serializers.IntegerField(min_value=0, max_value=MAX_PENDING_JOBS,
                                            required=False, allow_null=True)
    head_block = serializers.IntegerField(min_value=0, max_value=MAX_HEAD_BLOCK, required=False,
                                          allow_null=True)
    balance_wei = WeiField(required=False, allow_null=True,
                           help_text="The executor's balance on the chain, in wei.")


class HeartbeatResponseSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=ExecutorStatus.choices)
    lease_expires_at = serializers.DateTimeField()
    heartbeat_interval_seconds = serializers.IntegerField()
    # The chain's fee policy for its executors (registry Chain).
    max_fee_per_gas_cap = WeiField(
        allow_null=True, help_text="The most to offer per gas, in wei; null: no cap.")
    replace_after_blocks = serializers.IntegerField(
        help_text="Blocks to wait for a transaction before replacing it with higher fees.")
    low_funds_batches = serializers.IntegerField(
        help_text="Report low_funds below the balance that pays for this many batches.")


class ExecutorSerializer(serializers.ModelSerializer):
    executor_id = serializers.UUIDField(source="id", read_only=True)
    chain_id = serializers.IntegerField(read_only=True)
    endpoint_url = serializers.CharField(source="masked_endpoint_url", read_only=True)
    status = serializers.SerializerMethodField()
    trusted = serializers.BooleanField(source="is_trusted", read_only=True)
    trust = serializers.ChoiceField(
        choices=TrustState.choices, read_only=True,
        help_text="`trusted`, `pending` (registered, waiting for an administrator's approval) "
        "or `revoked`. Only a trusted executor's attestations verify.")
    trust_basis = serializers.CharField(
        read_only=True, help_text="What made it trusted, last time it was: `approval`, "
        "`allow_list`, `automatic` or `admin_key` (empty: never trusted).")
    registered_by = serializers.CharField(read_only=True,
                                          help_text="The prefix of the key that speaks for it.")
    heartbeat_interval_seconds = serializers.SerializerMethodField()
    balance_wei = WeiField(read_only=True, allow_null=True,
                           help_text="Its balance in wei, as its last heartbeat said.")

    class Meta:
        model = Executor
        fields = [
            "executor_id", "chain_id", "address", "name", "endpoint_url", "version",
            "capabilities", "metadata", "status", "trusted", "trust", "trust_basis",
            "trusted_at", "trust_revoked_at", "trust_changed_by", "trust_reason",
            "registered_by", "pending_jobs",
            "head_block", "balance_wei", "heartbeat_interval_seconds", "lease_expires_at",
            "last_heartbeat_at", "registered_at", "status_changed_at",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=ExecutorStatus.choices))
    def get_status(self, executor) -> str:
        return executor.current_status()

    def get_heartbeat_interval_seconds(self, executor) -> int:
        return heartbeat_interval_seconds()


class StatusChangeSerializer(serializers.ModelSerializer):
    class Meta:
        model = ExecutorStatusChange
        fields = ["from_status", "to_status", "cause", "created_at"]


class ExecutorDetailSerializer(ExecutorSerializer):
    recent_status_changes = serializers.SerializerMethodField()

    class Meta(ExecutorSerializer.Meta):
        fields = [*ExecutorSerializer.Meta.fields, "recent_status_changes"]
        read_only_fields = fields

    @extend_schema_field(StatusChangeSerializer(many=True))
    def get_recent_status_changes(self, executor):
        # A query with a LIMIT, not a prefetch: a flapping executor has thousands of changes.
        recent = executor.status_changes.order_by("-created_at", "-id")[:RECENT_CHANGES]
        return StatusChangeSerializer(recent, many=True).data


class ExecutorTrustSerializer(StrictSerializer):
    trusted = serializers.BooleanField()
    reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True,
                                   help_text="Why: kept on the executor and in the audit trail.")


class TrustDecisionSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True,
                                   help_text="Why: kept on the executor and in the audit trail.")


class TransferSerializer(StrictSerializer):
    key = serializers.RegexField(
        r"^crk_[0-9a-f]{12}$", help_text="The prefix of the executor key that speaks for it "
        "from now on (crk_ and 12 hex digits).")


class TrustedAttesterSerializer(StrictModelSerializer):
    chain_id = ChainRefField(source="chain")
    address = AddressField()
    proof = ProofField(
        write_only=True, required=False,
        help_text="Optional: a challenge (POST /v1/admin/trusted-attesters/challenge) signed by "
        "the address, proving it holds its key; refused (400) unless valid. Its time is kept "
        "as `provenAt`.")

    class Meta:
        model = TrustedAttester
        fields = ["id", "chain_id", "address", "note", "added_by", "proven_at", "proof",
                  "created_at"]
        read_only_fields = ["added_by", "proven_at", "created_at"]
        immutable_fields = ["chain_id", "address"]
        validators = []  # validate() names the field of a duplicate

    def validate(self, attrs):
        self.refuse_duplicate(
            attrs, "address", "This address is already a trusted attester of this chain.", "chain"
        )
        return attrs

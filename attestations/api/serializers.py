from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from attestations.models import (
    Attestation,
    ChainHead,
    OffchainAttestation,
    OffchainRevocation,
    Schema,
    Timestamp,
)
from core.document_hash import ALGORITHMS, accepted_algorithms
from core.serializers import StrictSerializer
from registry.models import Chain, Deployment
from registry.models.rpc import OverrideStatus, ProbeStatus
from registry.serializers import NativeCurrencySerializer

# Best first: the summary's status is the best of its endpoints' statuses in force.
STATUS_RANK = [ProbeStatus.HEALTHY, ProbeStatus.DEGRADED, ProbeStatus.UNKNOWN,
               OverrideStatus.MAINTENANCE, ProbeStatus.DOWN]
RPC_SUMMARY_STATUSES = [str(status) for status in STATUS_RANK]


class PublicDeploymentSerializer(serializers.ModelSerializer):
    contract_name = serializers.CharField(source="contract_version.contract_name.name")
    version = serializers.CharField(source="contract_version.version")

    class Meta:
        model = Deployment
        fields = ["kind", "address", "contract_name", "version", "start_block"]


class RpcSummarySerializer(serializers.Serializer):
    endpoints = serializers.IntegerField(help_text="RPC endpoints registered for the chain.")
    healthy = serializers.IntegerField(help_text="Of those, healthy now (overrides included).")
    best_head_block = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(
        choices=RPC_SUMMARY_STATUSES, help_text="The best status among its endpoints."
    )


class ExecutorSummarySerializer(serializers.Serializer):
    online = serializers.IntegerField(
        help_text="Alive, with a valid lease: healthy, draining, or holding (low_funds, "
        "blocked_by_fees, signer_error).")
    registered = serializers.IntegerField(help_text="Not deregistered.")


class ChainHeadSerializer(serializers.Serializer):
    """What the indexer last saw of the chain (attestations/finality.py)."""

    head_block = serializers.IntegerField(
        allow_null=True, help_text="The newest head seen (null before the indexer's first run).")
    head_at = serializers.DateTimeField(allow_null=True,
                                        help_text="When that head was first seen.")
    finalized_block = serializers.IntegerField(
        source="final_block", allow_null=True,
        help_text="The newest block final under the chain's `finality` rule.")
    stalled = serializers.BooleanField(
        help_text="No new head for the chain's stall window, or its safe/finalized block "
        "not advancing: answers about it are as of `headBlock`.")
    stalled_since = serializers.DateTimeField(allow_null=True)
    stall_reason = serializers.ChoiceField(
        choices=["", "no_new_head", "finality_not_advancing"],
        help_text="Why it is stalled (empty when it is not).")


class PublicChainSerializer(serializers.ModelSerializer):
    """A supported chain as API consumers see it (no RPC URLs: those are administrators')."""

    native_currency = NativeCurrencySerializer(source="*")
    # Declared, not derived from the model: a derived range is the database's (smallint on
    # PostgreSQL, 64 bits on SQLite), and the schema must not depend on it.
    confirmations = serializers.IntegerField(
        min_value=0, max_value=10_000,
        help_text="Blocks on top of a record before it counts as final.")
    finality = serializers.ChoiceField(
        choices=Chain.Finality.choices,
        help_text="When a record counts as final: `confirmations` (that many blocks on top), "
        "`safe` or `finalized` (at or below the node's block of that tag).")
    head = serializers.SerializerMethodField(
        help_text="What the indexer last saw of the chain (its fields null before its first "
        "run).")
    stalled = serializers.SerializerMethodField(
        help_text="Whether the chain is stalled (`head.stalled`; false before a first run).")
    deployments = PublicDeploymentSerializer(many=True)
    rpc = serializers.SerializerMethodField()
    executors = serializers.SerializerMethodField()
    document_hash_algorithms = serializers.SerializerMethodField(
        help_text="What a `documentHash` on this chain may be the hash of the file's bytes "
        "with, the default first (the setting DOCUMENT_HASH_ALGORITHMS, service-wide).",
    )

    class Meta:
        model = Chain
        fields = [
            "chain_id", "name", "short_name", "native_currency", "explorer_url", "info_url",
            "is_testnet", "confirmations", "finality", "stalled", "head", "offchain_unanchored",
            "binding_mode", "deployments", "rpc", "executors", "document_hash_algorithms",
        ]

    def get_rpc(self, chain) -> RpcSummarySerializer:
        endpoints = list(chain.rpc_endpoints.all())
        statuses = [e.effective_status for e in endpoints]
        ranked = [s for s in STATUS_RANK if s in statuses]
        heads = [e.head_block for e in endpoints if e.head_block is not None
                 and e.answers_for_its_chain and e.effective_status != ProbeStatus.DOWN]
        return RpcSummarySerializer({
            "endpoints": len(endpoints),
            "healthy": statuses.count(ProbeStatus.HEALTHY),
            "best_head_block": max(heads) if heads else None,
            "status": ranked[0] if ranked else ProbeStatus.DOWN,
        }).data

    @extend_schema_field(serializers.ListField(child=serializers.ChoiceField(ALGORITHMS)))
    def get_document_hash_algorithms(self, chain) -> list[str]:
        return list(accepted_algorithms())

    @staticmethod
    def _head(chain) -> ChainHead | None:
        try:
            return chain.head
        except ChainHead.DoesNotExist:
            return None

    @extend_schema_field(ChainHeadSerializer)
    def get_head(self, chain) -> dict:
        head = self._head(chain) or ChainHead(chain=chain, finality_rule=chain.finality)
        head.stalled = head.stalled_since is not None
        return ChainHeadSerializer(head).data

    def get_stalled(self, chain) -> bool:
        head = self._head(chain)
        return head is not None and head.stalled_since is not None

    def get_executors(self, chain) -> ExecutorSummarySerializer:
        return ExecutorSummarySerializer({
            "online": chain.online_executors, "registered": chain.registered_executors,
        }).data


class SchemaValidateRequestSerializer(StrictSerializer):
    schema = serializers.CharField(
        max_length=2000, allow_blank=True, trim_whitespace=False,
        help_text="An EAS schema string: `bytes32 documentHash,string name,uint64 expiry`.",
    )
    data = serializers.DictField(
        required=False,
        help_text="Values keyed by field name, to check and ABI-encode. Without it only the "
        "schema string is checked.",
    )


class SchemaFieldSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField(help_text="Canonical ABI type: `uint256`, `(string,uint256)[]`.")
    components = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="Tuples only: their fields, each {name, type, components?}.",
    )


class SchemaCheckErrorSerializer(serializers.Serializer):
    attr = serializers.CharField(
        help_text="`schema`, `schema.3` (4th field), `schema.3.1` (its 2nd component) or "
        "`data.attrs.1.value`."
    )
    code = serializers.CharField()
    detail = serializers.CharField()


class SchemaValidateResponseSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    errors = SchemaCheckErrorSerializer(many=True)
    fields = SchemaFieldSerializer(many=True, help_text="Empty when the schema is invalid.")
    document_hash_field = serializers.CharField(
        allow_null=True, help_text="`documentHash` when the schema has a `bytes32 documentHash` "
        "field (a document schema), else null.",
    )
    encoded = serializers.CharField(
        allow_null=True, help_text="The data ABI-encoded as EAS stores it (0x-hex); null "
        "without data or when anything is invalid.",
    )


@extend_schema_field({"type": "string", "pattern": "^0x([0-9a-f]{2})*$", "example": "0x1234"})
class HexBytesField(serializers.Field):
    """Raw bytes as 0x + lowercase hex."""

    def to_representation(self, value):
        return "0x" + bytes(value).hex()


# Null in the date-time branch: `nullable` beside `oneOf` has no type to qualify (OpenAPI 3.0).
@extend_schema_field({
    "oneOf": [{"type": "string", "format": "date-time", "nullable": True},
              {"type": "integer", "minimum": 253402300800, "maximum": 2**64 - 1,
               "description": "Seconds since 1970, beyond 9999-12-31."}],
    "example": "2027-11-21T10:00:00Z",
})
class ExpirationTimeField(serializers.DateTimeField):
    """The expirationTime as attested: a date-time, or (beyond 9999-12-31, which EAS takes as
    a uint64 like any other) the integer of seconds; null when it never expires."""

    def __init__(self, **kwargs):
        super().__init__(source="*", **kwargs)

    def to_representation(self, attestation):
        if attestation.expiration_time_raw:
            return int(attestation.expiration_time_raw)
        if attestation.expiration_time is None:
            return None
        return super().to_representation(attestation.expiration_time)


class OnChainFieldsMixin(serializers.Serializer):
    chain_id = serializers.IntegerField()
    tx_hash = serializers.CharField(help_text="The transaction that emitted the record's event.")
    block_number = serializers.IntegerField()
    confirmations = serializers.IntegerField(
        help_text="Blocks from the record's block to the chain's head as the indexer last saw "
        "it, that block included; compare with the chain's `confirmations`.")


class PublicSchemaSerializer(OnChainFieldsMixin, serializers.ModelSerializer):
    schema = serializers.CharField(
        help_text="The schema string as registered; where it holds a NUL or bytes that are "
        "not UTF-8, they are written `\\xNN` (its bytes are then in `rawSchema`).")
    raw_schema = HexBytesField(
        allow_null=True, help_text="The schema string's bytes as registered (0x-hex) when "
        "`schema` escapes some of them; else null.")
    fields = serializers.ListField(
        child=serializers.DictField(),
        help_text="Parsed fields [{name, type, components?}], as `POST /schemas/validate` "
        "returns them; empty when the schema string does not parse.")
    document_hash_field = serializers.CharField(
        allow_null=True, help_text="The bytes32 field that holds a document hash, or null.")
    attestation_count = serializers.IntegerField(help_text="Attestations indexed with it.")

    class Meta:
        model = Schema
        fields = [
            "uid", "chain_id", "schema", "raw_schema", "fields", "resolver", "revocable",
            "attestation_count",
            "document_hash_field", "registerer", "tx_hash", "block_number", "confirmations",
        ]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["document_hash_field"] = data["document_hash_field"] or None
        return data


class DecodedDataMixin(serializers.Serializer):
    """An attestation's schema, expiry and data as its schema decodes it: on-chain and
    offchain ones alike."""

    schema_id = serializers.CharField(source="schema_uid")
    expiration_time = ExpirationTimeField(
        help_text="The expirationTime as attested: a date-time; an integer of seconds when it "
        "is beyond 9999-12-31 (verification counts it as never expiring); null: never "
        "expires.")
    decoded = serializers.DictField(
        allow_null=True, help_text="The data decoded by its schema, keyed by field name "
        "(strings with a NUL or bytes that are not UTF-8 have them written `\\xNN`; `data` "
        "is the source of truth); null when it is not decoded, `decodeError` says why.")
    decode_error = serializers.CharField(
        allow_null=True, help_text="Why `decoded` is null: the schema is not indexed (yet), "
        "does not parse, or the data does not decode with it (or is too long to); null when "
        "decoded.")
    document_hash = serializers.CharField(
        allow_null=True, help_text="The document hash, when the schema has one.")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["decode_error"] = data["decode_error"] or None
        return data


class AttestationSerializer(DecodedDataMixin, OnChainFieldsMixin, serializers.ModelSerializer):
    revoked = serializers.BooleanField(help_text="Whether it has a revocation time.")
    data = HexBytesField(help_text="The attestation data as attested (ABI-encoded).")

    class Meta:
        model = Attestation
        fields = [
            "uid", "chain_id", "schema_id", "attester", "recipient", "ref_uid", "time",
            "expiration_time", "revocation_time", "revocable", "revoked", "data", "decoded",
            "decode_error", "document_hash", "tx_hash", "block_number", "confirmations",
        ]


class TimestampSerializer(OnChainFieldsMixin, serializers.ModelSerializer):
    data = serializers.CharField(help_text="The timestamped bytes32 (0x-hex): an offchain "
                                 "attestation's uid, a document hash, ...")
    timestamp = serializers.DateTimeField(help_text="The time the chain gave it (its block's).")

    class Meta:
        model = Timestamp
        fields = ["data", "chain_id", "timestamp", "tx_hash", "block_number", "confirmations"]


class OffchainRevocationSerializer(OnChainFieldsMixin, serializers.ModelSerializer):
    data = serializers.CharField(help_text="The revoked offchain attestation's uid (0x-hex).")
    revoker = serializers.CharField(help_text="Who revoked it: only the attester's own "
                                    "revocation counts for its attestation.")
    timestamp = serializers.DateTimeField(help_text="When the chain recorded the revocation.")

    class Meta:
        model = OffchainRevocation
        fields = ["data", "revoker", "chain_id", "timestamp", "tx_hash", "block_number",
                  "confirmations"]


class OffchainPackageSerializer(serializers.Serializer):
    """The EAS SDK's offchain attestation package, as `signOffchainAttestation` and
    easscan's "offchain attestation" JSON give it; checked whole by attestations/offchain.py
    (its errors name the part: `sig.domain.version`, `sig.signature`, ...)."""

    sig = serializers.DictField(help_text="The signed offchain attestation: version, uid, "
                                "domain, primaryType, types, message, signature {v, r, s}.")
    signer = serializers.CharField(help_text="The attester's address.")


class OffchainAttestationSerializer(DecodedDataMixin, serializers.ModelSerializer):
    chain_id = serializers.IntegerField()
    revocation_time = serializers.DateTimeField(
        allow_null=True, help_text="When the attester revoked it offchain (its EAS contract's "
        "RevokedOffchain, as indexed); null while not revoked.")
    revoked = serializers.SerializerMethodField(help_text="Whether it has a revocationTime.")
    data = HexBytesField(help_text="The attestation data as signed (ABI-encoded).")
    offchain = serializers.SerializerMethodField(help_text="Always true here.")
    version = serializers.IntegerField(min_value=0, max_value=2,
                                       help_text="The SDK's offchain version: 0-2.")
    eas_address = serializers.CharField(source="deployment.address",
                                        help_text="The EAS contract of its EIP-712 domain.")
    timestamped_at = serializers.DateTimeField(
        allow_null=True, help_text="When the chain timestamped its uid (EAS Timestamped, as "
        "indexed); null when it did not.")
    timestamp_proven = serializers.SerializerMethodField(
        help_text="Whether its time is proven by the chain (timestamped); otherwise `time` is "
        "the attester's claim.")

    class Meta:
        model = OffchainAttestation
        fields = [
            "uid", "chain_id", "schema_id", "attester", "recipient", "ref_uid", "time",
            "expiration_time", "revocation_time", "revocable", "revoked", "data", "decoded",
            "decode_error", "document_hash", "offchain", "version", "eas_address",
            "timestamped_at", "timestamp_proven",
        ]

    def get_revoked(self, record) -> bool:
        return record.revocation_time is not None

    def get_offchain(self, record) -> bool:
        return True

    def get_timestamp_proven(self, record) -> bool:
        return record.timestamped_at is not None

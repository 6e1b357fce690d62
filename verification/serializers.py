"""The verification's wire shapes: the API's request and answer (verification/api/), the
same answer the public page gives as JSON (verification/pages.py). Outside api/, so that
nothing but the HTTP layer imports api/ (a contract in pyproject.toml)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.document_hash import HELP_TEXT as DOCUMENT_HASH_HELP
from core.fields import AddressField, Bytes32Field, ChainIdField
from core.serializers import StrictSerializer
from issuers.serializers import VerdictIssuerField
from registry.models import Chain
from verification.rules import REASONS

MAX_PROOF = 64  # siblings: a tree of 2**64 leaves


class VerifyRequestSerializer(StrictSerializer):
    document_hash = Bytes32Field(help_text=DOCUMENT_HASH_HELP)
    chain_id = ChainIdField(required=False, allow_null=True,
                            help_text="Only look on this chain.")
    live = serializers.BooleanField(
        required=False, default=False,
        help_text="Re-read the attestation from the chain before answering (slower; 503 when "
        "the chain's RPC endpoints do not answer).",
    )
    proof = serializers.ListField(
        child=Bytes32Field(), required=False, max_length=MAX_PROOF,
        help_text="A Merkle proof the holder has for the document (OpenZeppelin "
        "StandardMerkleTree, leaf encoding [\"bytes32\"]): the answer is then that proof's, "
        "verified when it leads to the root of a batch bound here whose attestation passes "
        "the rules, else `invalid_proof`. Not with `live`.")
    merkle_root = Bytes32Field(required=False, help_text="The root `proof` must lead to "
                               "(with `proof` only).")


@extend_schema_field({
    "type": "object", "nullable": True, "required": ["to", "data"],
    "properties": {
        "to": {"type": "string", "pattern": "^0x[0-9a-f]{40}$",
               "description": "The EAS contract (`easAddress`)."},
        "data": {"type": "string", "pattern": "^0x[0-9a-f]{72}$",
                 "description": "`getAttestation(bytes32)`'s selector 0xa3112a64 and the uid."},
    },
    "description": "The call that reads the attestation from the chain: send it as "
    "`eth_call`'s transaction object (`[{\"to\": ..., \"data\": ...}, \"latest\"]`); "
    "docs/verify-yourself.md decodes the answer.",
})
class EthCallField(serializers.Field):
    """An eth_call's transaction object ({"to", "data"}), written as it is."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value):
        return value


# Inline, nullable: the generated Python client reads a null `$ref` (allOf) as required.
@extend_schema_field({
    "type": "object", "nullable": True, "required": ["rule", "finalizedBlock"],
    "properties": {
        "rule": {"type": "string", "enum": list(Chain.Finality.values),
                 "description": "The chain's finality rule: `confirmations` (its "
                 "`confirmations` blocks on top), `safe` or `finalized` (at or below the "
                 "node's block of that tag)."},
        "finalizedBlock": {"type": "integer", "nullable": True,
                           "description": "The newest block final under that rule when the "
                           "answer was made (null: none yet)."},
    },
    "description": "What \"final\" meant for this answer: the rule of the attestation's chain "
    "(of the asked chain when nothing was found there) and its newest final block; null "
    "when no chain applies (nothing found and no chain asked; an offchain attestation).",
})
class FinalityField(serializers.Field):
    """A verdict's finality ({"rule", "finalizedBlock"}), written as it is."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value):
        return value


class VerifyResponseSerializer(serializers.Serializer):
    """What verification found; when nothing verifies, every field but `verified` and
    `reason` is null. A verified answer carries the evidence to re-check it on the chain
    without trusting this service (docs/verify-yourself.md)."""

    verified = serializers.BooleanField()
    attestation_id = Bytes32Field(allow_null=True, help_text="The EAS attestation UID.")
    timestamp = serializers.DateTimeField(allow_null=True,
                                          help_text="When the chain says it was attested.")
    chain_id = ChainIdField(allow_null=True)
    attester = AddressField(allow_null=True)
    schema_id = Bytes32Field(allow_null=True)
    tx_hash = Bytes32Field(allow_null=True)
    block_number = serializers.IntegerField(allow_null=True)
    confirmations = serializers.IntegerField(
        allow_null=True, help_text="Blocks from the attestation's to the head, both included.")
    block_hash = Bytes32Field(allow_null=True,
                              help_text="The hash of block `blockNumber` as indexed: still "
                              "the chain's at that height unless it was reorganised.")
    log_index = serializers.IntegerField(
        allow_null=True, help_text="The position of the `Attested` log in block `blockNumber`.")
    eas_address = AddressField(allow_null=True,
                               help_text="The EAS contract that holds the attestation.")
    get_attestation_call = EthCallField(allow_null=True)
    finality = FinalityField(allow_null=True)
    chain_stalled = serializers.BooleanField(
        help_text="true when the chain (the attestation's; the asked one when nothing was "
        "found) is stalled: no new head for a while, or its finalized block not advancing. "
        "The answer is then as of the last block the service saw, and may change when the "
        "chain resumes.")
    offchain = serializers.BooleanField(
        allow_null=True, help_text="true: verified through an offchain attestation submitted "
        "here (POST /attestations/offchain; no transaction, block or getAttestation call); "
        "false: through an on-chain one; null when not verified.")
    timestamp_proven = serializers.BooleanField(
        allow_null=True, help_text="Whether the chain proves `timestamp`: always for on-chain "
        "attestations; for an offchain one, when its uid was timestamped on chain (then "
        "`timestamp` is that time), else `timestamp` is the attester's signed claim.")
    merkle_root = Bytes32Field(
        allow_null=True, help_text="Verified through a Merkle batch: the root its attestation "
        "(`attestationId`) holds; null otherwise.")
    proof = serializers.ListField(
        child=Bytes32Field(), allow_null=True,
        help_text="With `merkleRoot`: the siblings from the document's leaf "
        "(keccak256(keccak256(abi.encode(documentHash)))) to the root, each pair hashed "
        "sorted, as OpenZeppelin's MerkleProof.verify takes them (docs/verify-yourself.md).")
    issuer = VerdictIssuerField()
    reason = serializers.ChoiceField(
        choices=REASONS, allow_null=True,
        help_text="Why not, when not verified (null when verified): the most telling reason "
        "among the document's attestations (on `chainId` when given), in this precedence: "
        "`not_final` (not final yet under the chain's `finality` rule: wait) > `revoked` > `expired` "
        "> `not_timestamped` > `undecodable` (its data is not laid out as its schema says) > "
        "`unproven_issuer` (only where VERIFY_REQUIRE_PROVEN_ISSUER is set: the attester's "
        "issuer has not proven its identity) > `untrusted_attester` > `chain_inactive` > "
        "`invalid_proof` (a given Merkle proof leads to no root bound here) > `not_found` "
        "(no attestation of it). "
        "Each attestation's own reason is its first failing rule: chain active, trusted "
        "attester, proven issuer (when required), data as its schema says, not revoked, not "
        "expired, final (as the chain's `finality` rule says).",
    )


BATCH_LIMIT = 1000  # documents per POST /v1/verify/batch


class VerifyBatchRequestSerializer(StrictSerializer):
    document_hashes = serializers.ListField(
        child=Bytes32Field(), min_length=1, max_length=BATCH_LIMIT,
        help_text=f"1 to {BATCH_LIMIT} document hashes ({DOCUMENT_HASH_HELP}). A malformed "
        "one is named by its index (`documentHashes.3`); a repeated one is answered once.")
    chain_id = ChainIdField(required=False, allow_null=True,
                            help_text="Only look on this chain, for every document.")


class _DocumentHashed(serializers.Serializer):
    document_hash = Bytes32Field(help_text="The document hash this answer is for.")


class VerifyBatchResultSerializer(_DocumentHashed, VerifyResponseSerializer):
    """The answer for one document of a batch: `POST /v1/verify`'s, with its hash."""


class VerifyBatchResponseSerializer(serializers.Serializer):
    results = VerifyBatchResultSerializer(
        many=True, help_text="One answer per distinct document hash, in the order of each "
        "hash's first appearance in the request.")

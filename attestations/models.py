"""What the indexer reads from the chain: schemas, attestations, timestamps, and where it is.

Every on-chain record keeps the block it came from (number, hash) and its log's position, so
that a reorganisation can delete exactly what the chain no longer holds. Hex values are
stored as SPEC section 1 writes them: 0x + lowercase hex.
"""

from django.db import models
from django.db.models import Case, Exists, ExpressionWrapper, F, OuterRef, Q, Value, When
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Coalesce, Now

from attestations.confirmations import confirmations_expression
from attestations.schema import head_word, parse
from registry.models import Chain, Deployment


class OnChainQuerySet(models.QuerySet):
    def with_confirmations(self):
        """Annotate `confirmations`: blocks from the record's block to the head, itself
        included (a record in the head block has 1); 0 while the head is unknown. The head
        is the one the record's cursor (its deployment's) last saw: that cursor has checked
        the blocks up to it for reorganisations. One join, no chain call."""
        head = Coalesce(F("index_cursor__head_block"), Value(-1))
        return self.annotate(confirmations=confirmations_expression(head, F("block_number")))

    def with_finality(self):
        """`with_confirmations`, and as the chain's rule says (attestations/finality.py):
        `final` (the chain's confirmations; or at or below the final block its cursor last
        stored, under a tag), `finalized_block` (the newest final block then: the head less
        the confirmations, or the tag's), `chain_stalled`. verification/sql.py spells the
        same in SQL."""
        by_count = Q(chain__finality=Chain.Finality.CONFIRMATIONS)
        head, needed = F("index_cursor__head_block"), F("chain__confirmations")
        one_at_least = Case(When(chain__confirmations__gt=0, then=needed), default=Value(1),
                            output_field=models.BigIntegerField())
        return self.with_confirmations().annotate(
            final=Case(When(by_count & Q(confirmations__gte=needed), then=Value(True)),
                       When(~by_count & Q(block_number__lte=F("index_cursor__final_block")),
                            then=Value(True)),
                       default=Value(False), output_field=models.BooleanField()),
            finalized_block=Case(
                When(by_count & Q(index_cursor__head_block__gte=needed),
                     then=ExpressionWrapper(head - one_at_least + 1,
                                            output_field=models.BigIntegerField())),
                When(~by_count, then=F("index_cursor__final_block")),
                default=Value(None), output_field=models.BigIntegerField()),
            chain_stalled=Exists(ChainHead.objects.filter(
                chain_id=OuterRef("chain_id"), stalled_since__isnull=False)),
        )


class OnChainRecord(models.Model):
    """Where a record was read: the log that announced it."""

    # No single-column indexes on these two: each model's unique constraints and indexes
    # start with them, and every index costs the indexer's bulk writes.
    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="+",
                              db_index=False)
    deployment = models.ForeignKey(Deployment, on_delete=models.PROTECT, related_name="+",
                                   db_index=False)
    tx_hash = models.CharField(max_length=66)
    block_number = models.PositiveBigIntegerField()
    block_hash = models.CharField(max_length=66)
    log_index = models.PositiveIntegerField()
    indexed_at = models.DateTimeField(db_default=Now())
    # The cursor that read the record (its deployment's): a relation for joins, no column.
    index_cursor = models.ForeignObject(
        "attestations.IndexCursor", on_delete=models.DO_NOTHING, from_fields=["deployment"],
        to_fields=["deployment"], related_name="+", null=True, editable=False,
    )

    objects = OnChainQuerySet.as_manager()

    class Meta:
        abstract = True


class Schema(OnChainRecord):
    """A schema registered in a SchemaRegistry."""

    uid = models.CharField(max_length=66)
    schema = models.TextField(help_text="The EAS schema string, as registered (escaped where "
                              "raw_schema is set).")
    # Only when `schema` is not the registered bytes verbatim: they hold a NUL (which
    # PostgreSQL's text cannot) or are not UTF-8, and `schema` escapes them (escape_text).
    raw_schema = models.BinaryField(null=True, blank=True,
                                    help_text="The schema string's bytes, when escaped.")
    fields = models.JSONField(default=list, help_text="Parsed fields [{name, type}]; empty "
                              "when the string does not parse.")
    parse_error = models.TextField(blank=True)
    resolver = models.CharField(max_length=42)
    revocable = models.BooleanField()
    registerer = models.CharField(max_length=42, blank=True)
    document_hash_field = models.CharField(
        max_length=200, blank=True,
        help_text="The bytes32 field holding the document hash: documentHash when the schema "
        "has one; administrators may name another bytes32 field.",
    )
    # Kept by the indexer in the transaction that writes the attestations: counting at
    # millions of rows on every list would not be cheap.
    attestation_count = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["chain_id", "block_number", "log_index"]
        constraints = [
            models.UniqueConstraint(fields=["chain", "uid"], name="unique_schema_uid"),
        ]
        indexes = [
            models.Index(fields=["uid"], name="schema_uid_idx"),
            models.Index(fields=["deployment", "block_number"], name="schema_block_idx"),
        ]

    def __str__(self):
        return f"{self.uid} on {self.chain_id}"

    def bytes32_fields(self) -> list[str]:
        """The top-level bytes32 fields: those that can hold a document hash."""
        return [f["name"] for f in self.fields if f.get("type") == "bytes32"]

    def rederive_document_hashes(self) -> int:
        """Set each attestation's document hash from its decoded data under the current
        document_hash_field (none when it is empty), or, for data not decoded, from its
        place in the data; returns how many were updated."""
        attestations = Attestation.objects.filter(schema=self)
        if not self.document_hash_field:
            return attestations.update(document_hash=None)
        updated = attestations.filter(decoded__isnull=False).update(
            document_hash=KeyTextTransform(self.document_hash_field, "decoded"))
        raw = list(attestations.filter(decoded__isnull=True).only("pk", "data"))
        fields = parse(self.schema) if raw and not self.parse_error else []
        for attestation in raw:
            attestation.document_hash = head_word(fields, bytes(attestation.data),
                                                  self.document_hash_field)
        return updated + Attestation.objects.bulk_update(raw, ["document_hash"], batch_size=500)


class Attestation(OnChainRecord):
    """An EAS attestation, with its data decoded by its schema."""

    uid = models.CharField(max_length=66)
    schema_uid = models.CharField(max_length=66)
    schema = models.ForeignKey(Schema, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="attestations", db_constraint=False)
    attester = models.CharField(max_length=42)
    recipient = models.CharField(max_length=42)
    ref_uid = models.CharField(max_length=66)
    time = models.DateTimeField(help_text="When the chain says it was attested.")
    expiration_time = models.DateTimeField(null=True, blank=True)
    # EAS takes any uint64; a datetime ends with 9999-12-31. Beyond it the integer is kept
    # here (decimal digits: PostgreSQL's bigint stops at 2**63-1, and SQLite's NUMERIC
    # would round it) and expiration_time is NULL, which verification reads as "never
    # expires", as its index reads it: the hot query stays as it was.
    # The new columns have database defaults: rows written by raw SQL, or by processes of the
    # previous release during a rolling deploy, need not name them.
    expiration_time_raw = models.CharField(
        max_length=20, blank=True, default="", db_default="",
        help_text="The expirationTime in seconds, when it is beyond 9999-12-31.")
    revocation_time = models.DateTimeField(null=True, blank=True)
    # The block of the Revoked event: a reorganisation that removes that block undoes the
    # revocation, while the attestation (from an earlier block) stays.
    revoked_block_number = models.PositiveBigIntegerField(null=True, blank=True)
    revocable = models.BooleanField()
    data = models.BinaryField()
    decoded = models.JSONField(null=True, blank=True)
    decode_error = models.TextField(blank=True, default="", db_default="",
                                    help_text="Why `decoded` is null, if it is.")
    document_hash = models.CharField(max_length=66, null=True, blank=True)
    undecodable = models.BooleanField(
        default=False, db_default=False,
        help_text="The data is not laid out as its schema says (decode_error says how): it "
        "names its document but verifies nothing.")

    class Meta:
        ordering = ["-time", "-id"]
        constraints = [
            # uid first: it also answers a lookup by uid alone (no index of its own).
            models.UniqueConstraint(fields=["uid", "chain"], name="unique_attestation_uid"),
        ]
        indexes = [
            # Newest first, and each filter of GET /attestations with it (keyset on time, id).
            models.Index(fields=["-time", "-id"], name="attestation_time_idx"),
            models.Index(fields=["attester", "-time", "-id"], name="attestation_attester_idx"),
            models.Index(fields=["schema_uid", "-time", "-id"], name="attestation_schema_idx"),
            models.Index(fields=["recipient", "-time", "-id"], name="attestation_recipient_idx"),
            models.Index(fields=["chain", "-time", "-id"], name="attestation_chain_idx"),
            # In verification's order (earliest first, then chain, block, log): the first
            # valid row ends the lookup, with no sort and no look at the later ones.
            models.Index(fields=["document_hash", "time", "chain", "block_number", "log_index"],
                         name="attestation_document_idx",
                         condition=models.Q(document_hash__isnull=False)),
            # Reorg rollback: everything of a deployment from a block on.
            models.Index(fields=["deployment", "block_number"], name="attestation_block_idx"),
            # revoked=true at millions of rows, where revoked ones are rare (docs/decisions.md).
            models.Index(fields=["-time", "-id"], name="attestation_revoked_time_idx",
                         condition=models.Q(revocation_time__isnull=False)),
            models.Index(fields=["deployment", "revoked_block_number"],
                         name="attestation_revoked_block_idx",
                         condition=models.Q(revoked_block_number__isnull=False)),
        ]

    def __str__(self):
        return f"{self.uid} on {self.chain_id}"

    @property
    def revoked(self) -> bool:
        return self.revocation_time is not None


class Timestamp(OnChainRecord):
    """EAS `Timestamped(data, timestamp)`: a bytes32 anchored at a time."""

    data = models.CharField(max_length=66)
    timestamp = models.DateTimeField()

    class Meta:
        ordering = ["-timestamp", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["deployment", "data"], name="unique_timestamp_data"),
        ]
        indexes = [
            models.Index(fields=["data"], name="timestamp_data_idx"),
            # GET /timestamps: newest first, a page at a time (keyset on timestamp, id).
            models.Index(fields=["-timestamp", "-id"], name="timestamp_time_idx"),
        ]


class OffchainRevocation(OnChainRecord):
    """EAS `RevokedOffchain(revoker, data, timestamp)`: an off-chain attestation revoked."""

    revoker = models.CharField(max_length=42)
    data = models.CharField(max_length=66)
    timestamp = models.DateTimeField()

    class Meta:
        ordering = ["-timestamp", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["deployment", "revoker", "data"],
                                    name="unique_offchain_revocation"),
        ]
        indexes = [
            # GET /offchain-revocations: newest first, and by an offchain attestation's uid
            # (what verification of an offchain attestation asks).
            models.Index(fields=["-timestamp", "-id"], name="offchain_revocation_time_idx"),
            models.Index(fields=["data"], name="offchain_revocation_data_idx"),
        ]


class OffchainAttestation(models.Model):
    """An EAS offchain attestation, as the EAS SDK signed it and a client submitted it
    (POST /attestations/offchain), checked by attestations/offchain.py. Its chain and EAS
    contract are those of its EIP-712 domain; nothing of it is on chain unless its uid was
    timestamped (a Timestamp) or revoked offchain (an OffchainRevocation)."""

    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="+",
                              db_index=False)
    deployment = models.ForeignKey(Deployment, on_delete=models.PROTECT, related_name="+",
                                   db_index=False, help_text="The EAS contract of its domain.")
    uid = models.CharField(max_length=66)
    version = models.PositiveSmallIntegerField(help_text="The SDK's offchain version: 0-2.")
    schema_uid = models.CharField(max_length=66)
    schema = models.ForeignKey(Schema, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+", db_constraint=False)
    attester = models.CharField(max_length=42, help_text="The signer.")
    recipient = models.CharField(max_length=42)
    ref_uid = models.CharField(max_length=66)
    time = models.DateTimeField(help_text="When the attester says it signed: a claim, "
                                "unless its uid is timestamped on chain.")
    expiration_time = models.DateTimeField(null=True, blank=True)
    expiration_time_raw = models.CharField(
        max_length=20, blank=True, default="",
        help_text="The expirationTime in seconds, when it is beyond 9999-12-31.")
    revocable = models.BooleanField()
    data = models.BinaryField()
    salt = models.CharField(max_length=66, blank=True, default="")
    decoded = models.JSONField(null=True, blank=True)
    decode_error = models.TextField(blank=True, default="")
    document_hash = models.CharField(max_length=66, null=True, blank=True)
    undecodable = models.BooleanField(default=False, db_default=False,
                                      help_text="As Attestation.undecodable.")
    package = models.JSONField(help_text="The package as submitted: anyone can check it again.")
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-time", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["chain", "uid"], name="unique_offchain_uid"),
        ]
        indexes = [
            models.Index(fields=["-time", "-id"], name="offchain_time_idx"),
            models.Index(fields=["attester", "-time", "-id"], name="offchain_attester_idx"),
            models.Index(fields=["schema_uid", "-time", "-id"], name="offchain_schema_idx"),
            models.Index(fields=["uid"], name="offchain_uid_idx"),
            models.Index(fields=["document_hash", "time"], name="offchain_document_idx",
                         condition=models.Q(document_hash__isnull=False)),
        ]

    def __str__(self):
        return f"offchain {self.uid} on {self.chain_id}"


class IndexCursor(models.Model):
    """How far the indexer has read one deployment, and what it saw there."""

    deployment = models.OneToOneField(Deployment, on_delete=models.CASCADE,
                                      related_name="index_cursor")
    chain = models.ForeignKey(Chain, on_delete=models.CASCADE, related_name="index_cursors")
    next_block = models.PositiveBigIntegerField(help_text="The first block not read yet.")
    head_block = models.PositiveBigIntegerField(null=True, blank=True,
                                                help_text="The chain's head at the last run.")
    final_block = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The newest block final under the chain's rule at "
        "the last run (attestations/finality.py); moves with head_block.")
    range_size = models.PositiveIntegerField(default=2000,
                                             help_text="Blocks per getLogs call; adapts.")
    # {"<number>": "<hash>"} of the latest blocks read, to notice a reorganisation.
    recent_blocks = models.JSONField(default=dict, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    reorgs = models.PositiveIntegerField(default=0, help_text="Reorganisations seen.")
    # Set by an administrator ("re-index from block"); the next run, under the chain's lock,
    # rolls back to it and clears it.
    reindex_from_block = models.PositiveBigIntegerField(null=True, blank=True)
    # Records that could not be stored, so that nothing a stranger writes on the chain can
    # stop its indexer: the latest SKIPPED_KEPT, each {block, logIndex, txHash, uid, reason}.
    skipped = models.JSONField(default=list, db_default=[], blank=True,
                               help_text="Records the indexer could not store, and why.")

    SKIPPED_KEPT = 500

    class Meta:
        ordering = ["chain_id", "deployment_id"]

    def __str__(self):
        return f"cursor of {self.deployment}"

    @property
    def lag(self) -> int | None:
        """Blocks between the head and what has been read."""
        if self.head_block is None:
            return None
        return max(0, self.head_block + 1 - self.next_block)


class MerkleBatch(models.Model):
    """Documents bound together by one Merkle root (binding mode `merkle`, eas_primitives/merkle.py):
    an executor attested the root under the root schema in `tx_hash`, and reported the
    batch; the service built the tree again from the documents it had handed out, and
    stored each leaf's proof. `attestation_uid` is the root's attestation once the indexer
    holds it (set by the workflow tracking): verification goes through it, so that the
    root's revocation, expiry and confirmations are the leaves'."""

    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="+",
                              db_index=False)
    root = models.CharField(max_length=66)
    attester = models.CharField(max_length=42, help_text="The executor that attested it.")
    tx_hash = models.CharField(max_length=66, help_text="The transaction it was reported in.")
    attestation_uid = models.CharField(max_length=66, blank=True,
                                       help_text="The root's attestation, once indexed.")
    leaf_count = models.PositiveIntegerField()
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        indexes = [
            models.Index(fields=["root"], name="merklebatch_root_idx"),
            models.Index(fields=["chain", "tx_hash"], name="merklebatch_tx_idx"),
        ]

    def __str__(self):
        return f"Merkle root {self.root} on {self.chain_id}"


class MerkleLeaf(models.Model):
    """One document of a Merkle batch, with its proof: the siblings from its leaf to the
    root, as OpenZeppelin's MerkleProof takes them."""

    batch = models.ForeignKey(MerkleBatch, on_delete=models.CASCADE, related_name="leaves",
                              db_index=False)
    document_hash = models.CharField(max_length=66)
    proof = models.JSONField(default=list)

    class Meta:
        indexes = [
            models.Index(fields=["document_hash"], name="merkleleaf_document_idx"),
            models.Index(fields=["batch"], name="merkleleaf_batch_idx"),
        ]

    def __str__(self):
        return f"leaf {self.document_hash} of {self.batch_id}"


class ChainHead(models.Model):
    """What the indexer last saw of a chain's head and finality, and since when
    (attestations/finality.py): facts from which "final" and "stalled" are derived.
    `stalled_since` is the one stored state: set and cleared by attestations.finality, each
    change told as a `chain.stalled` / `chain.resumed` event."""

    chain = models.OneToOneField(Chain, on_delete=models.CASCADE, primary_key=True,
                                 related_name="head")
    head_block = models.PositiveBigIntegerField(help_text="The newest head seen.")
    head_at = models.DateTimeField(help_text="When that head was first seen.")
    head_timestamp = models.PositiveBigIntegerField(null=True, blank=True,
                                                    help_text="The head block's own time.")
    block_time = models.FloatField(null=True, blank=True,
                                   help_text="Seconds per block, learned from head timestamps.")
    finality_rule = models.CharField(max_length=16, choices=Chain.Finality.choices,
                                     help_text="The rule `final_block` was read under.")
    final_block = models.PositiveBigIntegerField(
        null=True, blank=True,
        help_text="The newest block final under the chain's rule (a tag's block, or the head "
        "less the confirmations).")
    final_at = models.DateTimeField(null=True, blank=True,
                                    help_text="When `final_block` last advanced.")
    final_lag = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="Blocks from the final block to the head, when the "
        "final block last advanced: its usual lag.")
    stalled_since = models.DateTimeField(null=True, blank=True)
    stall_reason = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["chain_id"]

    def __str__(self):
        return f"head of chain {self.chain_id}"

"""Tracking workflows on their chains (the Celery beat task and `manage.py track_workflows`).

A run expires what nobody claimed, requeues what an executor abandoned, then reads the
receipts of submitted workflows through the chain client, outside any transaction, and
applies what it saw under the row's lock:

- mined and successful, final under the chain's rule (its confirmations, or at or below the
  node's `safe`/`finalized` block: attestations/finality.py), and the indexer holds the
  matching attestation (same chain, schema, document hash, attester = the executor, same
  tx): confirmed;
- mined and reverted: retried after a back-off, or failed once the attempts are used up;
- no longer known to the chain (a reorganisation removed it, or it was dropped) for longer
  than WORKFLOW_TX_MISSING_GRACE_SECONDS: back to the queue, unless the indexer holds the
  attestation under another transaction, which is then adopted (never bound twice).

A confirmed workflow whose attestation the indexer dropped (a reorganisation) is checked the
same way: its transaction gone, it goes back to the queue.

Workflows that share a transaction (a `multi` batch: one multiAttest) are looked at with one
receipt call for the transaction, and moved together (Workflow.objects.transition_many); the
indexer's attestations of a run's workflows are read with one query, not one per workflow.
"""

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, Min, OuterRef, Q
from django.utils import timezone
from web3.exceptions import TransactionNotFound

from attestations import finality
from attestations.confirmations import confirmations
from attestations.indexer import reorg_window, rpc
from attestations.indexer.events import attested_uids
from attestations.models import Attestation, IndexCursor, MerkleBatch
from bindings.merkle import forget_unbound_batches
from bindings.models import Workflow, WorkflowState
from bindings.workflows import (
    requeue_fields,
    retry_or_fail,
    workflows_expire,
    workflows_requeue_abandoned,
)
from core.progress import ProgressCallback, no_progress
from eas_primitives.merkle import attested_root
from registry.chain_client import NoEndpointAvailable, chain_client
from registry.models import Chain, Deployment

logger = logging.getLogger(__name__)
S = WorkflowState
REORG_HORIZON_HOURS = 24
CHUNK = 500  # workflows moved per transaction


@dataclass
class TrackReport:
    expired: int = 0
    requeued: int = 0
    confirmed: int = 0
    reverted: int = 0
    reorganised: int = 0
    errors: dict[int, str] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"expired": self.expired, "requeued": self.requeued, "confirmed": self.confirmed,
                "reverted": self.reverted, "reorganised": self.reorganised,
                "errors": {str(k): v for k, v in self.errors.items()}}


@dataclass(frozen=True)
class Seen:
    """What the chain said of a workflow's candidate transactions."""

    kind: str  # "mined", "pending", "missing"
    tx_hash: str = ""
    block_number: int | None = None
    succeeded: bool = False
    confirmations: int = 0
    final: bool = False  # under the chain's rule (attestations/finality.py)


def workflows_track(now=None, *, progress: ProgressCallback = no_progress,
                    track_chain=None) -> TrackReport:
    """One tracking run; `progress(done, total)` in workflows looked at on their chains.
    `track_chain(chain)`, when given, takes over each chain's receipts (the periodic task
    queues one task per chain)."""
    now = now or timezone.now()
    report = TrackReport(expired=workflows_expire(now), requeued=workflows_requeue_abandoned(now))
    tracked = Workflow.objects.filter(chain=OuterRef("pk"), state__in=(S.SUBMITTED, S.CONFIRMED))
    counts = {chain: _watched(now, chain).count()
              for chain in Chain.objects.filter(Exists(tracked)).order_by("pk")}
    looked = Looked(progress, sum(counts.values()))
    for chain in [chain for chain, count in counts.items() if count]:
        if track_chain is not None:
            track_chain(chain)
        else:
            _track_reporting(chain, now, report, looked)
    return report


def workflows_track_chain(chain_id: int, now=None) -> TrackReport:
    """The receipts of one chain's watched workflows only (right after its index run)."""
    report = TrackReport()
    chain = Chain.objects.filter(pk=chain_id).first()
    if chain is not None:
        _track_reporting(chain, now or timezone.now(), report, Looked(no_progress, 0))
    return report


def _track_reporting(chain: Chain, now, report: TrackReport, looked: "Looked") -> None:
    try:
        _track_chain(chain, now, report, looked)
    except NoEndpointAvailable as exc:
        report.errors[chain.chain_id] = str(exc)
        logger.warning("Tracking workflows of chain %s: %s", chain.chain_id, exc)


def _watched(now, chain: Chain):
    """The chain's submitted workflows, and its confirmed ones whose attestation the indexer
    no longer holds, among those a rollback could have reached: confirmed in the last
    REORG_HORIZON_HOURS, in a block from the chain's rollback floor on (older ones lie
    deeper than any reorganisation). The floor keeps each run to the newest blocks'
    workflows (workflow_confirmed_block_idx), not every workflow confirmed that day."""
    dropped = ~Exists(Attestation.objects.filter(chain_id=OuterRef("chain_id"),
                                                 uid=OuterRef("attestation_uid")))
    reach = Q(state=S.CONFIRMED, confirmed_at__gte=now - timedelta(hours=REORG_HORIZON_HOURS))
    floor = rollback_floor(chain)
    if floor is not None:
        reach &= Q(block_number__gte=floor)
    return Workflow.objects.filter(chain=chain).filter(Q(state=S.SUBMITTED) | (reach & dropped))


def rollback_floor(chain: Chain) -> int | None:
    """The lowest block that the indexer's reorganisation check can roll the chain back to
    from where its cursors stand (attestations.indexer._check_reorg: at most twice the
    reorg window below the newest block a cursor read), or None when nothing indexes the
    chain. A rollback an operator asks for deeper re-reads the same attestations, under the
    same uids."""
    oldest_next = IndexCursor.objects.filter(deployment__chain=chain).aggregate(
        lowest=Min("next_block"))["lowest"]
    if oldest_next is None:
        return None
    return oldest_next - 1 - 2 * reorg_window(chain)


@dataclass
class Looked:
    """How many of the run's workflows have been looked at, for its progress."""

    progress: ProgressCallback
    total: int
    done: int = 0

    def more(self, count: int) -> None:
        self.done += count
        self.progress(self.done, max(self.total, self.done))


def _track_chain(chain: Chain, now, report: TrackReport, looked: Looked) -> None:
    watched = (_watched(now, chain).select_related("executor", "chain")
               .defer(*Workflow.REQUEST_FIELDS))
    rows = list(watched.order_by("created_at", "id"))
    if not rows:
        return
    w3 = chain_client(chain)
    head, final = rpc.head_and_final(w3, chain)
    receipts = Receipts(w3)
    seen = {w.pk: _look(receipts, w, head, chain, final) for w in rows}
    bound = Bound(chain, rows, roots=MerkleRoots(chain, rows, seen, receipts))
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start:start + CHUNK]
        _apply(chunk, seen, bound, report)
        looked.more(len(chunk))


class Receipts:
    """What the chain says of each transaction, asked once per transaction in a run (the
    workflows of a multiAttest share theirs)."""

    def __init__(self, w3):
        self.w3 = w3
        self.memo: dict[str, tuple[str, dict | None]] = {}

    def of(self, tx_hash: str) -> tuple[str, dict | None]:
        """("mined", receipt), ("pending", None) or ("missing", None)."""
        if tx_hash not in self.memo:
            self.memo[tx_hash] = self._ask(tx_hash)
        return self.memo[tx_hash]

    def _ask(self, tx_hash: str) -> tuple[str, dict | None]:
        try:
            return "mined", self.w3.eth.get_transaction_receipt(tx_hash)
        except TransactionNotFound:
            pass
        try:
            return ("pending" if self.w3.eth.get_transaction(tx_hash) is not None
                    else "missing"), None
        except TransactionNotFound:
            return "missing", None


def _look(receipts: Receipts, workflow: Workflow, head: int, chain: Chain,
          final: int | None) -> Seen:
    pending = False
    for tx_hash in reversed(workflow.tx_hashes):  # the newest candidate first
        kind, receipt = receipts.of(tx_hash)
        if kind == "mined":
            block = receipt["blockNumber"]
            count = confirmations(head, block)
            is_final = (count >= chain.confirmations if finality.tag(chain) is None
                        else finality.is_final(chain, block, final))
            return Seen("mined", tx_hash, block, receipt["status"] == 1, count, is_final)
        pending = pending or kind == "pending"
    return Seen("pending" if pending else "missing")


def _final_as(chain: Chain, look: Seen) -> str:
    """What made a workflow final, for its transition's cause."""
    if finality.tag(chain) is None:
        return f"{look.confirmations} confirmations"
    return f"block {look.block_number} {chain.finality} ({look.confirmations} confirmations)"


class Bound:
    """The indexer's attestations that bind the run's workflows' documents (same chain,
    schema, document hash, attester = the executor), read with one query (per thousands of
    documents where the database limits a statement's parameters)."""

    def __init__(self, chain: Chain, rows: list[Workflow], roots: "MerkleRoots | None" = None):
        self.roots = roots
        documents = sorted({w.document_hash for w in rows if not w.merkle_batch_id})
        size = connection.features.max_query_params or len(documents) or 1
        self.by_document: dict[str, list[Attestation]] = {}
        for start in range(0, len(documents), size):
            found = (Attestation.objects.filter(chain=chain,
                                                document_hash__in=documents[start:start + size])
                     .only("uid", "tx_hash", "document_hash", "schema_uid", "attester")
                     .order_by("block_number", "log_index"))
            for attestation in found:
                self.by_document.setdefault(attestation.document_hash, []).append(attestation)

    def find(self, workflow: Workflow, *, tx_hash: str | None = None,
             not_in: list[str] = ()) -> Attestation | None:
        """The first attestation that binds `workflow`'s document as it asked, in `tx_hash`
        (when given), in none of `not_in`. A Merkle-bound workflow's is its batch root's,
        in the transaction the batch was reported with (no other: a batch is not found
        elsewhere)."""
        if workflow.merkle_batch_id:
            return self.roots.find(workflow, tx_hash) if self.roots and tx_hash else None
        for attestation in self.by_document.get(workflow.document_hash, ()):
            if (attestation.schema_uid == workflow.schema_uid
                    and (workflow.executor is None
                         or attestation.attester == workflow.executor.address)
                    and tx_hash in (None, attestation.tx_hash)
                    and attestation.tx_hash not in not_in):
                return attestation
        return None


class MerkleRoots:
    """The root attestations of the run's Merkle-bound workflows: the uids of the Attested
    logs that the chain's EAS contracts emitted in their transactions' receipts, read by
    uid (the attestation table's unique index), each kept when it holds its batch's root,
    by the batch's attester, under a root schema."""

    def __init__(self, chain: Chain, rows: list[Workflow], seen: dict, receipts: Receipts):
        merkle = [w for w in rows if w.merkle_batch_id]
        self.batches = MerkleBatch.objects.in_bulk({w.merkle_batch_id for w in merkle})
        self.found: dict[tuple[str, str], Attestation] = {}
        mined = {seen[w.pk].tx_hash for w in merkle if seen[w.pk].kind == "mined"}
        if not mined:
            return
        eas = set(Deployment.objects.filter(chain=chain, kind=Deployment.Kind.EAS)
                  .values_list("address", flat=True))
        uids = [uid for tx_hash in mined for uid in attested_uids(receipts.of(tx_hash)[1], eas)]
        for attestation in (Attestation.objects.filter(chain=chain, uid__in=uids)
                            .select_related("schema").only("uid", "tx_hash", "decoded",
                                                           "attester", "schema__schema")):
            schema = attestation.schema.schema if attestation.schema is not None else None
            root = attested_root(schema, attestation.decoded)
            if root is not None:
                self.found[root, attestation.tx_hash, attestation.attester] = attestation

    def find(self, workflow: Workflow, tx_hash: str) -> Attestation | None:
        batch = self.batches.get(workflow.merkle_batch_id)
        if batch is None:
            return None
        return self.found.get((batch.root, tx_hash, batch.attester))


# What tracking reads and writes of a workflow besides its executor and chain.
_LOCKED = ("state", "tx_hashes", "tx_hash", "block_number", "tx_missing_since",
           "attestation_uid", "merkle_batch_id")


def _apply(snapshots: list[Workflow], seen: dict, bound: Bound, report: TrackReport) -> None:
    """Apply what the chain said to a chunk of workflows, under their locks, in one
    transaction; those that moved on meanwhile (a result, another tracker) are left to the
    next run."""
    now = timezone.now()
    read = {w.pk: w for w in snapshots}
    with transaction.atomic():
        # The snapshots are used as read, once their locked rows show the same state,
        # transactions and tracked facts (_LOCKED); the others moved on.
        locked = (Workflow.objects.select_for_update().filter(pk__in=list(read))
                  .order_by("created_at", "id").values_list("pk", *_LOCKED))
        rows = [read[pk] for pk, *now_is in locked
                if now_is == [getattr(read[pk], name) for name in _LOCKED]]
        by_kind: dict[str, list[Workflow]] = {}
        for workflow in rows:
            kind = seen[workflow.pk].kind
            if kind == "mined" and not seen[workflow.pk].succeeded:
                kind = "reverted"
            by_kind.setdefault(kind, []).append(workflow)
        _mined(by_kind.get("mined", []), seen, bound, now, report)
        _reverted(by_kind.get("reverted", []), seen, now, report)
        _update([w for w in by_kind.get("pending", []) if w.tx_missing_since is not None],
                tx_missing_since=None)
        _missing(by_kind.get("missing", []), bound, now, report)


def _mined(rows: list[Workflow], seen: dict, bound: Bound, now, report: TrackReport) -> None:
    final, unchanged = [], {}
    readopted = []
    for workflow in rows:
        look = seen[workflow.pk]
        attestation = bound.find(workflow, tx_hash=look.tx_hash)
        if workflow.state == S.CONFIRMED:
            # Mined still: the indexer is re-reading the range and will hold it again, maybe
            # under another uid (a re-mined transaction has another time): adopt it then.
            if attestation is not None and attestation.uid != workflow.attestation_uid:
                readopted.append((workflow, attestation))
            continue
        if look.final and attestation is not None:
            final.append((workflow, attestation))
        elif (workflow.block_number, workflow.tx_hash, workflow.tx_missing_since) != (
                look.block_number, look.tx_hash, None):
            unchanged.setdefault(look.tx_hash, []).append(workflow)
    uid = {w.pk: a.uid for w, a in final}
    report.confirmed += len(final)
    Workflow.objects.transition_many(
        [w for w, _ in final], S.CONFIRMED, now=now, confirmed_at=now, tx_missing_since=None,
        cause=lambda w: f"{_final_as(w.chain, seen[w.pk])}; indexed as {uid[w.pk]}",
        each=lambda w: {"attestation_uid": uid[w.pk], "tx_hash": seen[w.pk].tx_hash,
                        "block_number": seen[w.pk].block_number})
    for workflow, attestation in readopted:
        _update([workflow], attestation_uid=attestation.uid)
    # A Merkle batch's leaves verify through its root's attestation from now on.
    roots = {w.merkle_batch_id: a.uid for w, a in [*final, *readopted] if w.merkle_batch_id}
    for batch, uid in roots.items():
        MerkleBatch.objects.filter(pk=batch).exclude(attestation_uid=uid).update(
            attestation_uid=uid)
    for tx_hash, waiting in unchanged.items():  # not final yet: what was seen, per transaction
        _update(waiting, block_number=seen[waiting[0].pk].block_number, tx_hash=tx_hash,
                tx_missing_since=None)


def _reverted(rows: list[Workflow], seen: dict, now, report: TrackReport) -> None:
    by_tx: dict[str, list[Workflow]] = {}
    batches = [w.merkle_batch_id for w in rows]  # before the moves forget them
    for workflow in rows:
        by_tx.setdefault(seen[workflow.pk].tx_hash, []).append(workflow)
    for tx_hash, sent in by_tx.items():
        report.reverted += len(sent)
        block = seen[sent[0].pk].block_number
        retry_or_fail(sent, now=now, errors={w.pk: f"Transaction {tx_hash} reverted." for w in sent},
                      cause=f"transaction {tx_hash} reverted in block {block}")
    forget_unbound_batches(batches)


def _missing(rows: list[Workflow], bound: Bound, now, report: TrackReport) -> None:
    _update([w for w in rows if w.tx_missing_since is None], tx_missing_since=now)
    grace = settings.WORKFLOW_TX_MISSING_GRACE_SECONDS
    gone = [w for w in rows if (now - w.tx_missing_since).total_seconds() >= grace]
    requeue = []
    for workflow in gone:
        # Before binding again: is the document bound on chain under another transaction?
        elsewhere = bound.find(workflow, not_in=workflow.tx_hashes)
        if elsewhere is None:
            requeue.append(workflow)
            continue
        _update([workflow], tx_hash=elsewhere.tx_hash, tx_missing_since=None,
                tx_hashes=[*workflow.tx_hashes, elsewhere.tx_hash])
    report.reorganised += len(requeue)
    batches = [w.merkle_batch_id for w in requeue]  # before the move forgets them
    Workflow.objects.transition_many(
        requeue, S.QUEUED, now=now, **requeue_fields(now),
        cause=lambda w: f"transaction {w.tx_hash or w.tx_hashes[-1]} is no longer on chain "
        "(reorganisation)")
    forget_unbound_batches(batches)


def _update(rows: list[Workflow], **changes) -> None:
    """Facts about the tracked transaction that are not a change of state: one UPDATE for
    the rows that share them."""
    if not rows:
        return
    Workflow.objects.filter(pk__in=[w.pk for w in rows]).update(**changes)
    for workflow in rows:
        for name, value in changes.items():
            setattr(workflow, name, value)

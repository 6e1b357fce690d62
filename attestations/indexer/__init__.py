"""The chain indexer: follows the SchemaRegistry and EAS deployments of active chains.

A run, per chain and under the chain's lock: read the head; for each deployment (schema
registries first, so that attestations find their schema), check the block hashes it stored
for a reorganisation (rolling back to the fork and re-reading when the chain changed), then
read from its cursor to the head in adaptive block ranges, one transaction per range.
Records are read up to the head, without waiting: their confirmations count from it.

A run that finds the chain busy asks the run in hand to go once more (`ask_again`): that
run read its head before the block that queued this one, which would otherwise wait for
the next block to be indexed.
"""

import logging
import time
from dataclasses import dataclass, field

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from web3 import Web3

from attestations import finality
from attestations.indexer import rpc, store
from attestations.indexer.lock import chain_lock
from attestations.indexer.reader import RangeRead, prefetch_logs, read_range
from attestations.models import ChainHead, IndexCursor
from core.progress import ProgressCallback, no_progress
from registry.chain_client import chain_client
from registry.models import Chain, Deployment

logger = logging.getLogger(__name__)
INDEXED_KINDS = (Deployment.Kind.SCHEMA_REGISTRY, Deployment.Kind.EAS)
MAX_PASSES = 5  # one run's passes at most, however often it is asked to go again
AGAIN_SECONDS = 60


@dataclass
class DeploymentReport:
    deployment: Deployment
    from_block: int = 0
    next_block: int = 0
    ranges: int = 0
    logs: int = 0
    schemas: int = 0
    attestations: int = 0
    revocations: int = 0
    timestamps: int = 0
    rolled_back_from: int | None = None
    reorg: bool = False
    error: str = ""

    def add(self, later: "DeploymentReport") -> None:
        """Fold in the report of a later pass over the same deployment."""
        for name in ("ranges", "logs", "schemas", "attestations", "revocations", "timestamps"):
            setattr(self, name, getattr(self, name) + getattr(later, name))
        self.next_block, self.error = later.next_block, later.error
        self.reorg = self.reorg or later.reorg
        if later.rolled_back_from is not None:
            self.rolled_back_from = later.rolled_back_from if self.rolled_back_from is None \
                else min(self.rolled_back_from, later.rolled_back_from)

    def as_dict(self) -> dict:
        return {"deployment": self.deployment.pk, "kind": self.deployment.kind,
                "address": self.deployment.address,
                "fromBlock": self.from_block, "nextBlock": self.next_block,
                "ranges": self.ranges, "logs": self.logs, "schemas": self.schemas,
                "attestations": self.attestations, "revocations": self.revocations,
                "timestamps": self.timestamps, "rolledBackFrom": self.rolled_back_from,
                "reorg": self.reorg, "error": self.error}


@dataclass
class ChainReport:
    chain_id: int
    head: int | None = None
    final: int | None = None  # the newest final block under the chain's rule
    skipped: str = ""
    error: str = ""
    deployments: list[DeploymentReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.skipped and not self.error and not any(d.error for d in self.deployments)

    def as_dict(self) -> dict:
        return {"chainId": self.chain_id, "head": self.head, "finalBlock": self.final,
                "skipped": self.skipped,
                "error": self.error, "deployments": [d.as_dict() for d in self.deployments]}


def reorg_window(chain: Chain, head: int | None = None, final: int | None = None) -> int:
    """How many blocks of hashes a cursor keeps: reorganisations deeper than the chain's
    confirmations are caught too, and under a tag (attestations/finality.py) any above its
    final block, as far as the run knows them (`head`, `final`)."""
    window = max(2 * chain.confirmations, settings.INDEXER_MIN_REORG_WINDOW)
    if finality.tag(chain) and head is not None and final is not None:
        window = max(window, head - final + 1)
    return window


def indexed_chains():
    """The active chains that have deployments to follow."""
    return Chain.objects.filter(status=Chain.Status.ACTIVE,
                                deployments__kind__in=INDEXED_KINDS).distinct()


def index_chains() -> list[ChainReport]:
    """Index every active chain that has deployments to follow, one after the other."""
    return [index_chain(chain) for chain in indexed_chains()]


def _again_key(chain_id: int) -> str:
    return f"indexer-again:{chain_id}"


NOT_INDEXED = "not an active chain with deployments to index"


def index_chain(chain: Chain | int, *, from_block: int | None = None,
                progress: ProgressCallback = no_progress) -> ChainReport:
    """One run over the chain's deployments; `from_block` re-reads them from that block.
    `progress(done, total)` in blocks of the deployment being read, after each range.
    Given a chain id (the index task), the chain is indexed only while it is active
    (read with its deployments: no query of its own), else the run is skipped."""
    chain_id = chain if isinstance(chain, int) else chain.chain_id
    report = ChainReport(chain_id)
    with chain_lock(chain_id) as held:
        if not held:
            cache.set(_again_key(chain_id), True, AGAIN_SECONDS)
            report.skipped = "another run holds the chain's lock"
            return report
        cache.delete(_again_key(chain_id))  # this pass reads a head from now on
        _index_pass(chain, report, from_block, progress)
        for _ in range(MAX_PASSES - 1):
            if report.skipped or report.error or not cache.delete(_again_key(chain_id)):
                break
            _index_pass(chain, report, None, progress)
    if report.error or any(d.error for d in report.deployments):
        _clients.pop(chain_id, None)  # the next run reads the endpoints again
    return report


def _index_pass(chain: Chain | int, report: ChainReport, from_block: int | None,
                progress: ProgressCallback) -> None:
    cursors = _cursors(chain)
    if isinstance(chain, int):
        if not cursors:
            report.skipped = NOT_INDEXED
            return
        chain = cursors[0].chain
    w3 = _client(chain)
    # The head and each cursor's newest block hash (for the reorganisation check), in one
    # round trip.
    tips = sorted({max(int(n) for n in c.recent_blocks) for c in cursors if c.recent_blocks})
    try:
        tip = rpc.head_and_hashes(w3, tips, finality.tag(chain))
    except Exception as exc:
        report.error = _describe(exc)
        for cursor in cursors:
            _record_error(cursor, report.error)
        logger.warning("Indexing chain %s: cannot read the head: %s", chain.chain_id,
                       report.error)
        finality.observe(chain, head=None, now=timezone.now())  # no new head: stalled?
        return
    report.head, head_hash, tip_hashes = tip.head, tip.head_hash, tip.hashes
    known = ChainHead.objects.filter(pk=chain.pk, finality_rule=chain.finality).values_list(
        "final_block", flat=True).first()
    final = report.final = finality.checked_final_block(chain, tip.head, tip.tagged, known)
    run = _Run(w3, chain, report.head, reorg_window(chain, tip.head, final), progress, final)
    if from_block is None:
        run.prefetch(cursors)
    reports = []
    for cursor in cursors:
        done = DeploymentReport(cursor.deployment, from_block=cursor.next_block)
        reports.append(done)
        requested = from_block if from_block is not None else cursor.reindex_from_block
        if requested is not None:
            _guarded(cursor, done, _requested_rollback, cursor, requested, done)
        if not done.error:
            _guarded(cursor, done, _check_reorg, w3, chain, cursor, done, tip_hashes)
        if not done.error:
            done.from_block = cursor.next_block  # where reading starts, after any rollback
            _guarded(cursor, done, _read_to_head, run, cursor, head_hash, done)
    run.flush()
    now = timezone.now()
    earlier = {d.deployment.pk: d for d in report.deployments}
    for cursor, done in zip(cursors, reports):
        if not done.error and cursor.pk not in run.wrote_head:
            store.note_head(cursor, head=report.head, final=final, now=now)
        done.next_block = cursor.next_block
        if cursor.deployment_id in earlier:
            earlier[cursor.deployment_id].add(done)
        else:
            report.deployments.append(done)
    finality.observe(chain, head=tip.head, timestamp=tip.timestamp, final=final, now=now)


_clients: dict[int, tuple[float, Web3]] = {}  # chain id -> (when it was made, client)


def _client(chain: Chain) -> Web3:
    """The chain's client, shared by this process's runs for INDEXER_CLIENT_SECONDS: the
    order of its endpoints is a query whose building costs a run at the head a fifth of its
    CPU, and its HTTP connections stay open. A run that fails drops it (`index_chain`), so
    the next one reads the endpoints again; an administrator's change to them reaches the
    indexer within that time."""
    made = _clients.get(chain.chain_id)
    if made is not None and time.monotonic() - made[0] < settings.INDEXER_CLIENT_SECONDS:
        return made[1]
    w3 = chain_client(chain, timeout=settings.INDEXER_RPC_TIMEOUT_SECONDS)
    _clients[chain.chain_id] = (time.monotonic(), w3)
    return w3


def forget_clients() -> None:
    """Drop every chain client (the tests, between one and the next)."""
    _clients.clear()


def _cursors(chain: Chain | int) -> list[IndexCursor]:
    """The cursors of the chain's indexed deployments (made for new ones), schema registries
    first: an attestation then finds its schema in the same run. By chain id: those of an
    active chain only."""
    deployments = Deployment.objects.filter(kind__in=INDEXED_KINDS).select_related(
        "index_cursor", "chain")
    if isinstance(chain, int):
        deployments = deployments.filter(chain_id=chain, chain__status=Chain.Status.ACTIVE)
    else:
        deployments = deployments.filter(chain=chain)
    cursors = []
    for deployment in deployments:
        try:
            cursor = deployment.index_cursor
        except IndexCursor.DoesNotExist:
            cursor, _ = IndexCursor.objects.get_or_create(
                deployment=deployment,
                defaults={"chain_id": deployment.chain_id, "next_block": deployment.start_block})
        cursor.deployment, cursor.chain = deployment, deployment.chain
        cursors.append(cursor)
    cursors.sort(key=lambda c: (c.deployment.kind != Deployment.Kind.SCHEMA_REGISTRY,
                                c.deployment_id))
    return cursors


def _guarded(cursor: IndexCursor, report: DeploymentReport, step, *args) -> None:
    """Run one step of a deployment's indexing; a failure stops that deployment only, and is
    recorded on its cursor and in its report."""
    try:
        step(*args)
    except SoftTimeLimitExceeded:
        raise  # the task's time is up: stop the run; the next one resumes from the cursor
    except Exception as exc:
        report.error = _describe(exc)
        _record_error(cursor, report.error, range_size=cursor.range_size)
        logger.warning("Indexing %s stopped at block %s: %s", cursor.deployment,
                       cursor.next_block, report.error)


def _requested_rollback(cursor: IndexCursor, block: int, report: DeploymentReport) -> None:
    """An administrator's "re-index from block": cleared whatever else happens."""
    IndexCursor.objects.filter(pk=cursor.pk).update(reindex_from_block=None)
    _roll_back(cursor, block, report, reorg=False)


@dataclass
class _Pending:
    """A range read and not written yet."""

    cursor: IndexCursor
    read: RangeRead
    range_size: int
    report: DeploymentReport
    first: int  # the deployment's first block of this run, for the progress


@dataclass
class _Run:
    """One pass's reading and writing. The range of each deployment that reaches the head is
    held (`pending`) and the ranges of all the deployments are written in one transaction at
    the end: a new block costs one commit, not one per deployment. A deployment that needs
    more than one range (catching up) writes each range as it goes, after what is held (the
    schema registry's ranges before the attestations that may need their schemas)."""

    w3: Web3
    chain: Chain
    head: int
    window: int
    progress: ProgressCallback
    final: int | None  # the newest final block (attestations/finality.py)
    pending: list[_Pending] = field(default_factory=list)
    wrote_head: set[int] = field(default_factory=set)  # cursors written up to the head
    # {cursor: (start, logs)} of the ranges to the head fetched together (`prefetch`)
    prefetched: dict[int, tuple[int, list[dict]]] = field(default_factory=dict)

    def prefetch(self, cursors: list[IndexCursor]) -> None:
        """Fetch the logs of every deployment that is one range away from the head in one
        batch: a run that follows the head makes one getLogs round trip, not one each."""
        near = [c for c in cursors if c.reindex_from_block is None
                and c.next_block <= self.head < c.next_block + c.range_size]
        if len(near) > 1:
            found = prefetch_logs(self.w3, [(c.deployment, c.next_block, self.head)
                                            for c in near])
            self.prefetched = {c.pk: (c.next_block, logs) for c, logs in zip(near, found)}

    def logs(self, cursor: IndexCursor, start: int, end: int) -> list[dict] | None:
        """What `prefetch` fetched for exactly this range, if it did."""
        fetched = self.prefetched.pop(cursor.pk, None)
        return fetched[1] if fetched and fetched[0] == start and end == self.head else None

    def write(self, item: _Pending) -> None:
        self.pending.append(item)
        if item.read.end < self.head:
            self.flush()

    def flush(self) -> None:
        """Write what is held: the ranges with records in one transaction first (what makes
        a new attestation verifiable), then those that only move their cursor."""
        pending, self.pending = self.pending, []
        with_records = [p for p in pending if p.read.holds_records]
        self._write(with_records)
        self._write([p for p in pending if p not in with_records])

    def _write(self, pending: list[_Pending]) -> None:
        if not pending:
            return
        try:
            try:
                written = self._write_all(pending, careful=False)
            except store.Refused:  # a record the database refuses: again, skipping it
                written = self._write_all(pending, careful=True)
        except SoftTimeLimitExceeded:
            raise
        except Exception as exc:
            error = _describe(exc)
            for p in pending:
                p.report.error = error
                _record_error(p.cursor, error, range_size=p.cursor.range_size)
                logger.warning("Indexing %s stopped at block %s: %s", p.cursor.deployment,
                               p.read.start, error)
            return
        for p, (counts, changes) in zip(pending, written):
            for name, value in changes.items():
                setattr(p.cursor, name, value)
            p.report.ranges += 1
            p.report.logs += p.read.logs
            for name, count in counts.items():
                setattr(p.report, name, getattr(p.report, name) + count)
            if p.read.end == self.head:
                self.wrote_head.add(p.cursor.pk)
            self.progress(p.cursor.next_block - p.first, self.head - p.first + 1)

    def _write_all(self, pending: list[_Pending], careful: bool) -> list[tuple[dict, dict]]:
        with transaction.atomic():
            store.commit_without_waiting_for_disk()
            return [store.write_range(p.cursor, p.read, head=self.head, final=self.final,
                                      window=self.window,
                                      range_size=p.range_size, careful=careful)
                    for p in pending]


def _read_to_head(run: _Run, cursor: IndexCursor, head_hash: str,
                  report: DeploymentReport) -> None:
    """Read the deployment from its cursor to the head in adaptive ranges, handing each to
    the run to write. A range that holds too much (a provider's limit, a timeout, an answer
    over RPC_RESPONSE_MAX_BYTES) is halved, down to one block, which the reader takes in
    parts; ranges do not grow again in a run that had to shrink one."""
    first, shrunk = cursor.next_block, False
    start = cursor.next_block
    while start <= run.head and not report.error:
        size = cursor.range_size
        end = min(run.head, start + size - 1)
        try:
            read = read_range(run.w3, cursor.deployment, start, end,
                              end_hash=head_hash if end == run.head else None,
                              logs=run.logs(cursor, start, end))
        except Exception as exc:
            if rpc.is_range_too_large(exc) and size > 1:
                cursor.range_size, shrunk = max(1, size // 2), True
                logger.info("%s: blocks %s-%s hold too much (%s); trying %s blocks.",
                            cursor.deployment, start, end, exc, cursor.range_size)
                continue
            raise
        following = _next_size(size, end - start + 1, read.logs)
        run.write(_Pending(cursor, read, min(following, size) if shrunk else following,
                           report, first))
        start = end + 1


def _next_size(size: int, read_blocks: int, logs: int) -> int:
    """Aim at INDEXER_TARGET_LOGS per range: halve after a crowded range, double after a
    quiet full-size one."""
    target = settings.INDEXER_TARGET_LOGS
    if logs > 2 * target:
        return max(1, size // 2)
    if logs < target // 2 and read_blocks == size:
        return min(settings.INDEXER_MAX_RANGE, size * 2)
    return size


def _check_reorg(w3, chain, cursor, report, known: dict[int, str | None]) -> None:
    """Compare the newest stored block hash with the chain's (in `known`, read with the
    head, or read now); on a difference, find the fork (the newest stored block still on the
    chain) and roll back to the block after it."""
    recent = {int(n): h for n, h in cursor.recent_blocks.items()}
    if not recent:
        return
    tip = max(recent)
    now = known[tip] if tip in known else rpc.block_hashes(w3, [tip])[tip]
    if now == recent[tip]:
        return
    numbers = sorted(recent)
    now = rpc.block_hashes(w3, numbers)
    first_changed = next(n for n in numbers if now[n] != recent[n])
    kept = [n for n in numbers if n < first_changed]
    if kept:
        fork = kept[-1] + 1
    else:  # deeper than the hashes kept: go back a whole window more
        fork = max(cursor.deployment.start_block, first_changed - reorg_window(chain))
    logger.warning("Chain %s reorganised: %s rolls back to block %s.", chain.chain_id,
                   cursor.deployment, fork)
    _roll_back(cursor, fork, report, reorg=True)


def _roll_back(cursor, from_block, report, *, reorg) -> None:
    store.rollback(cursor, from_block, reorg=reorg)
    report.rolled_back_from = from_block if report.rolled_back_from is None \
        else min(report.rolled_back_from, from_block)
    report.reorg = report.reorg or reorg


def _record_error(cursor: IndexCursor, error: str, **changes) -> None:
    now = timezone.now()
    IndexCursor.objects.filter(pk=cursor.pk).update(
        last_run_at=now, last_error=error[:2000].replace("\x00", "\\x00"), last_error_at=now,
        **changes)


def _describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"

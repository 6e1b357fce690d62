"""Tracking workflows on their chains (the Celery beat task and `manage.py track_workflows`).

A run expires what nobody claimed, requeues what an executor abandoned, then reads the
receipts of submitted workflows through the chain client, outside any transaction, and
applies what it saw under the row's lock:

- mined and successful, with the chain's confirmations, and the indexer holds the matching
  attestation (same chain, schema, document hash, attester = the executor, same tx):
  confirmed;
- mined and reverted: retried after a back-off, or failed once the attempts are used up;
- no longer known to the chain (a reorganisation removed it, or it was dropped) for longer
  than WORKFLOW_TX_MISSING_GRACE_SECONDS: back to the queue, unless the indexer holds the
  attestation under another transaction, which is then adopted (never bound twice).

A confirmed workflow whose attestation the indexer dropped (a reorganisation) is checked the
same way: its transaction gone, it goes back to the queue.
"""

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from web3.exceptions import TransactionNotFound

from attestations.confirmations import confirmations
from attestations.models import Attestation
from bindings.models import Workflow, WorkflowState
from bindings.workflows import (
    requeue_fields,
    retry_or_fail,
    workflows_expire,
    workflows_requeue_abandoned,
)
from core.progress import ProgressCallback, no_progress
from registry.chain_client import NoEndpointAvailable, chain_client
from registry.models import Chain

logger = logging.getLogger(__name__)
S = WorkflowState
REORG_HORIZON_HOURS = 24


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


def workflows_track(now=None, *, progress: ProgressCallback = no_progress,
                    track_chain=None) -> TrackReport:
    """One tracking run; `progress(done, total)` in workflows looked at on their chains.
    `track_chain(chain)`, when given, takes over each chain's receipts (the periodic task
    queues one task per chain)."""
    now = now or timezone.now()
    report = TrackReport(expired=workflows_expire(now), requeued=workflows_requeue_abandoned(now))
    looked = Looked(progress, _watched(now).count())
    for chain in Chain.objects.filter(pk__in=_watched(now).values("chain_id")):
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


def _indexed(workflow: Workflow):
    """The indexer's attestations that bind this workflow's document as it asked."""
    found = Attestation.objects.filter(chain_id=workflow.chain_id,
                                       document_hash=workflow.document_hash,
                                       schema_uid=workflow.schema_uid)
    if workflow.executor is not None:
        found = found.filter(attester=workflow.executor.address)
    return found


def _watched(now):
    """Submitted workflows, and recently confirmed ones whose attestation the indexer no
    longer holds (older ones lie deeper than any reorganisation)."""
    dropped = ~Exists(Attestation.objects.filter(chain_id=OuterRef("chain_id"),
                                                 uid=OuterRef("attestation_uid")))
    recent = now - timedelta(hours=REORG_HORIZON_HOURS)
    return Workflow.objects.filter(
        Q(state=S.SUBMITTED) | (Q(state=S.CONFIRMED, confirmed_at__gte=recent) & dropped)
    )


@dataclass
class Looked:
    """How many of the run's workflows have been looked at, for its progress."""

    progress: ProgressCallback
    total: int
    done: int = 0

    def one_more(self) -> None:
        self.done += 1
        self.progress(self.done, max(self.total, self.done))


def _track_chain(chain: Chain, now, report: TrackReport, looked: Looked) -> None:
    watched = _watched(now).filter(chain=chain).select_related("executor", "chain")
    rows = list(watched.order_by("created_at"))
    if not rows:
        return
    w3 = chain_client(chain)
    head = w3.eth.block_number
    for workflow in rows:
        seen = _look(w3, workflow, head)
        _apply(workflow, seen, report)
        looked.one_more()


def _look(w3, workflow: Workflow, head: int) -> Seen:
    pending = False
    for tx_hash in reversed(workflow.tx_hashes):  # the newest candidate first
        try:
            receipt = w3.eth.get_transaction_receipt(tx_hash)
        except TransactionNotFound:
            try:
                pending = pending or w3.eth.get_transaction(tx_hash) is not None
            except TransactionNotFound:
                pass
            continue
        block = receipt["blockNumber"]
        return Seen("mined", tx_hash, block, receipt["status"] == 1, confirmations(head, block))
    return Seen("pending" if pending else "missing")


def _apply(snapshot: Workflow, seen: Seen, report: TrackReport) -> None:
    now = timezone.now()
    with transaction.atomic():
        workflow = (Workflow.objects.select_for_update(of=("self",)).select_related("executor", "chain")
                    .filter(pk=snapshot.pk, state=snapshot.state, tx_hashes=snapshot.tx_hashes)
                    .first())
        if workflow is None:
            return  # moved on meanwhile (a result, another tracker): the next run looks again
        if seen.kind == "mined" and seen.succeeded:
            _mined(workflow, seen, now, report)
        elif seen.kind == "mined":
            report.reverted += 1
            retry_or_fail(workflow, now=now, error=f"Transaction {seen.tx_hash} reverted.",
                          cause=f"transaction {seen.tx_hash} reverted in block {seen.block_number}")
        elif seen.kind == "pending":
            if workflow.tx_missing_since is not None:
                _update(workflow, tx_missing_since=None)
        else:
            _missing(workflow, now, report)


def _mined(workflow: Workflow, seen: Seen, now, report: TrackReport) -> None:
    if workflow.state == S.CONFIRMED:
        return  # mined still: the indexer is re-reading the range, and will hold it again
    attestation = _indexed(workflow).filter(tx_hash=seen.tx_hash).first()
    if seen.confirmations >= workflow.chain.confirmations and attestation is not None:
        report.confirmed += 1
        workflow.transition(
            S.CONFIRMED, now=now, attestation_uid=attestation.uid, confirmed_at=now,
            tx_hash=seen.tx_hash, block_number=seen.block_number, tx_missing_since=None,
            cause=f"{seen.confirmations} confirmations; indexed as {attestation.uid}",
        )
    elif (workflow.block_number, workflow.tx_hash, workflow.tx_missing_since) != (
            seen.block_number, seen.tx_hash, None):
        _update(workflow, block_number=seen.block_number, tx_hash=seen.tx_hash,
                tx_missing_since=None)


def _missing(workflow: Workflow, now, report: TrackReport) -> None:
    if workflow.tx_missing_since is None:
        _update(workflow, tx_missing_since=now)
    grace = settings.WORKFLOW_TX_MISSING_GRACE_SECONDS
    if (now - workflow.tx_missing_since).total_seconds() < grace:
        return
    # Before binding again: is the document bound on chain under another transaction?
    elsewhere = _indexed(workflow).exclude(tx_hash__in=workflow.tx_hashes).first()
    if elsewhere is not None:
        _update(workflow, tx_hash=elsewhere.tx_hash, tx_missing_since=None,
                tx_hashes=[*workflow.tx_hashes, elsewhere.tx_hash])
        return
    report.reorganised += 1
    gone = workflow.tx_hash or workflow.tx_hashes[-1]
    workflow.transition(S.QUEUED, now=now, **requeue_fields(now),
                        cause=f"transaction {gone} is no longer on chain (reorganisation)")


def _update(workflow: Workflow, **changes) -> None:
    """Facts about the tracked transaction that are not a change of state."""
    Workflow.objects.filter(pk=workflow.pk).update(**changes)
    for name, value in changes.items():
        setattr(workflow, name, value)

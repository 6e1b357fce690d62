"""The lease expiry sweep: healthy -> stale after the lease, stale -> offline after the grace.

Each transition is one set-based statement that claims its rows with FOR UPDATE SKIP
LOCKED, moves them, and records every change, so a row is never moved twice and a heartbeat
that holds a row is simply left to finish. Self-preservation: when one sweep would take too
large a share of a chain's executors offline, it holds back that chain.

A sweep is one transaction, and sweeps queue for each other: counting a chain's due
executors while another sweep's moves are uncommitted would miss them, and the move that
follows the count would then take them offline too, past the share.
"""

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from core import events
from executors.models import (
    LIVE_STATUSES,
    Executor,
    ExecutorStatus,
    ExecutorStatusChange,
    SelfPreservation,
    emit_status_changed,
    offline_cutoff,
)

logger = logging.getLogger(__name__)
NOT_OFFLINE = (*LIVE_STATUSES, ExecutorStatus.STALE)
SWEEP_LOCK_ID = 0x5EE9  # the sweep's PostgreSQL advisory lock; no other lock uses it


@dataclass
class SweepReport:
    stale: int = 0
    offline: int = 0
    held_back: dict[int, int] = field(default_factory=dict)  # chain id -> executors kept

    def as_dict(self) -> dict:
        return {"stale": self.stale, "offline": self.offline,
                "heldBack": {str(k): v for k, v in self.held_back.items()}}


def executor_leases_expire(now=None) -> SweepReport:
    report = SweepReport()
    with transaction.atomic():
        _wait_for_other_sweeps()
        # The clock is read after the wait: a queued sweep must not stamp its changes
        # earlier than those of the sweep it waited for.
        now = now or timezone.now()
        grace_over = offline_cutoff(now)  # the lease rule (executors/models.py)
        report.stale = _move(LIVE_STATUSES, ExecutorStatus.STALE, cause="lease expired",
                             lapsed_before=now, now=now)
        allowed = []
        for chain_id, due, live in _offline_candidates(grace_over):
            if _holds_back(chain_id, due, live, now):
                report.held_back[chain_id] = due
            else:
                allowed.append(chain_id)
        if allowed:
            report.offline = _move((ExecutorStatus.STALE,), ExecutorStatus.OFFLINE,
                                   cause="grace expired", lapsed_before=grace_over, now=now,
                                   chain_ids=allowed)
        # Chains with nothing left to hold back are released.
        SelfPreservation.objects.exclude(chain_id__in=report.held_back).delete()
    return report


def _wait_for_other_sweeps() -> None:
    """Until the end of the transaction, this is the only sweep (see the module's docstring).
    SQLite needs nothing: its writing transactions already run one at a time (BEGIN
    IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [SWEEP_LOCK_ID])


def _offline_candidates(lapsed_before):
    """(chain id, executors due to go offline, executors not offline) per chain."""
    due = Q(status=ExecutorStatus.STALE, lease_expires_at__lte=lapsed_before)
    rows = (
        Executor.objects.filter(status__in=NOT_OFFLINE).values("chain_id")
        .annotate(due=Count("pk", filter=due), live=Count("pk"))
        .filter(due__gt=0)
    )
    return [(row["chain_id"], row["due"], row["live"]) for row in rows]


def _holds_back(chain_id: int, due: int, live: int, now) -> bool:
    if live < settings.EXECUTOR_SELF_PRESERVATION_MIN_EXECUTORS:
        return False
    if due / live <= settings.EXECUTOR_SELF_PRESERVATION_SHARE:
        return False
    # The hold starts at the sweep's `now` (not the wall clock), so that its end is measured
    # on the same clock as the leases.
    counts = {"would_go_offline": due, "executors": live, "checked_at": now}
    hold, created = SelfPreservation.objects.update_or_create(
        chain_id=chain_id, defaults=counts, create_defaults={"since": now, **counts},
    )
    if now - hold.since >= timedelta(seconds=settings.EXECUTOR_SELF_PRESERVATION_MAX_SECONDS):
        logger.warning("Self-preservation of chain %s ended after %s: taking %d of %d executors "
                       "offline.", chain_id, now - hold.since, due, live)
        hold.delete()
        return False
    if created:
        logger.warning("Self-preservation: chain %s would take %d of %d executors offline at "
                       "once; holding back (the registry's own network is the likelier fault).",
                       chain_id, due, live)
    return True


def _move(from_statuses, to_status, *, cause, lapsed_before, now, chain_ids=None) -> int:
    if connection.vendor == "postgresql":
        return _move_postgresql(from_statuses, to_status, cause, lapsed_before, now, chain_ids)
    return _move_portable(from_statuses, to_status, cause, lapsed_before, now, chain_ids)


def _move_postgresql(from_statuses, to_status, cause, lapsed_before, now, chain_ids) -> int:
    executors, changes = Executor._meta.db_table, ExecutorStatusChange._meta.db_table
    chain_filter = "AND chain_id = ANY(%(chain_ids)s)" if chain_ids is not None else ""
    # The moved rows come back only for a listener (a webhook subscription): a sweep of
    # 100,000 leases should not fetch them for nobody.
    told = events.wanted("executor.status_changed")
    answer = "SELECT id, chain_id, address, from_status, balance_wei FROM moved" if told else \
        "SELECT count(*) FROM moved"
    sql = f"""
        WITH claimed AS (
            SELECT id, status FROM {executors}
            WHERE status = ANY(%(from)s) AND lease_expires_at <= %(lapsed_before)s {chain_filter}
            FOR UPDATE SKIP LOCKED
        ), moved AS (
            UPDATE {executors} AS e SET status = %(to)s, status_changed_at = %(now)s
            FROM claimed WHERE e.id = claimed.id
            RETURNING e.id, e.chain_id, e.address, claimed.status AS from_status, e.balance_wei
        ), recorded AS (
            INSERT INTO {changes} (executor_id, from_status, to_status, cause, created_at)
            SELECT id, from_status, %(to)s, %(cause)s, %(now)s FROM moved
        )
        {answer}
    """
    params = {"from": list(from_statuses), "lapsed_before": lapsed_before, "to": to_status,
              "now": now, "cause": cause, "chain_ids": chain_ids}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        if not told:
            return cursor.fetchone()[0]
        moved = cursor.fetchall()
        for executor_id, chain_id, address, from_status, balance_wei in moved:
            emit_status_changed(executor_id, chain_id, address, from_status, to_status, cause,
                                now, balance_wei)
        return len(moved)


def _move_portable(from_statuses, to_status, cause, lapsed_before, now, chain_ids) -> int:
    # Other databases (SQLite, the embedded default) serialise writing transactions.
    due = Executor.objects.filter(status__in=from_statuses, lease_expires_at__lte=lapsed_before)
    if chain_ids is not None:
        due = due.filter(chain_id__in=chain_ids)
    moved = 0
    with transaction.atomic():
        rows = list(due.values_list("id", "status", "chain_id", "address", "balance_wei"))
        for start in range(0, len(rows), 500):
            batch = rows[start:start + 500]
            Executor.objects.filter(
                pk__in=[pk for pk, *_ in batch], status__in=from_statuses
            ).update(status=to_status, status_changed_at=now)
            ExecutorStatusChange.objects.bulk_create(
                ExecutorStatusChange(executor_id=pk, from_status=status, to_status=to_status,
                                     cause=cause, created_at=now)
                for pk, status, *_ in batch
            )
            for pk, status, chain_id, address, balance_wei in batch:
                emit_status_changed(pk, chain_id, address, status, to_status, cause, now,
                                    balance_wei)
            moved += len(batch)
    return moved

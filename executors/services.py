"""Executor registration and heartbeats (the lease expiry sweep is in sweep.py)."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.utils import timezone

from core.db import run_hot
from core.errors import Conflict, NotFound, PermissionDenied
from core.validators import MAX_CHAIN_ID
from executors.models import Executor, ExecutorStatus, ExecutorStatusChange, lease_seconds
from registry.authentication import KeyHolder
from registry.models import Chain, KeyScope

# What an executor may say of itself in a heartbeat, and the status it means.
REPORTED_STATUS = {
    "ok": ExecutorStatus.HEALTHY,
    "busy": ExecutorStatus.HEALTHY,
    "draining": ExecutorStatus.DRAINING,
}


@dataclass(frozen=True)
class Heartbeat:
    status: str
    lease_expires_at: datetime


def check_owner(executor: Executor, holder: KeyHolder) -> None:
    """An executor answers to the key that registered it, or to an admin key: 403 otherwise.
    (Also the rule of its jobs, bindings/workflows.py.)"""
    if holder.scope != KeyScope.ADMIN and executor.registered_by != holder.prefix:
        raise PermissionDenied("This executor was registered with another key.")


def executor_register(
    *, chain: Chain, holder: KeyHolder, address: str, name: str = "", endpoint_url: str = "",
    version: str = "", capabilities: list | None = None, metadata: dict | None = None, now=None,
) -> tuple[Executor, bool]:
    """Register `address` as an executor of `chain`, or renew its registration.

    Idempotent on (chain, address): the same executor id comes back, its details updated
    and its lease renewed (a deregistered one revived). Only the key that registered it
    first (or an admin key) may: another key gets 403. Returns (executor, created).
    """
    if not chain.is_active:
        raise Conflict(f"Chain {chain.chain_id} is inactive and takes no executors.",
                       code="chain_inactive")
    details = {"name": name, "endpoint_url": endpoint_url, "version": version,
               "capabilities": capabilities or [], "metadata": metadata or {}}
    with transaction.atomic():
        executor = Executor.objects.select_for_update().filter(chain=chain, address=address).first()
        if executor is None:
            try:
                with transaction.atomic():  # a concurrent first registration may win the race
                    return _create(chain, holder, address, details, now or timezone.now()), True
            except IntegrityError:
                executor = Executor.objects.select_for_update().get(chain=chain, address=address)
        # Deregistered or not, the address stays with the key that registered it: another
        # key taking it over would inherit its id, its trust and the job it held.
        check_owner(executor, holder)
        for field, value in details.items():
            setattr(executor, field, value)
        at = now or timezone.now()  # under the lock, as in executor_heartbeat()
        executor.renew_lease(at)
        executor.transition(ExecutorStatus.HEALTHY, cause="registered", now=at)
        executor.save()
    return executor, False


def _create(chain, holder, address, details, now) -> Executor:
    executor = Executor(chain=chain, address=address, registered_by=holder.prefix,
                        status=ExecutorStatus.HEALTHY, status_changed_at=now, registered_at=now,
                        **details)
    executor.renew_lease(now)
    executor.save(force_insert=True)
    ExecutorStatusChange.objects.create(executor=executor, from_status="", cause="registered",
                                        to_status=ExecutorStatus.HEALTHY, created_at=now)
    return executor


def executor_heartbeat(
    *, chain_ref: str, holder: KeyHolder, executor_id, reported: str,
    pending_jobs: int | None = None, head_block: int | None = None, now=None,
) -> Heartbeat:
    """Renew an executor's lease from the server's clock, recording any change of status.

    `chain_ref` is the chain id or short name of the path; the usual heartbeat matches it
    inside its one UPDATE instead of reading the chain first.
    """
    target = REPORTED_STATUS[reported]
    reports = {"pending_jobs": pending_jobs, "head_block": head_block}

    # The usual heartbeat changes nothing but the lease: one conditional UPDATE. If the
    # status must change (or the sweep got there first), the locked path below records it,
    # and it also tells an unknown executor (404) from another key's (403).
    at = now or timezone.now()
    lease_expires_at = at + timedelta(seconds=lease_seconds())
    if _renew_lease(chain_ref, holder, executor_id, target, at, lease_expires_at, reports):
        return Heartbeat(target, lease_expires_at)

    try:
        chain = Chain.objects.by_ref(chain_ref)
    except Chain.DoesNotExist:
        raise NotFound(f"No chain {chain_ref!r} is registered.") from None
    with transaction.atomic():
        executor = Executor.objects.select_for_update().filter(pk=executor_id, chain=chain).first()
        if executor is None or executor.status == ExecutorStatus.DEREGISTERED:
            raise NotFound("No executor with this id on this chain: register it (again).")
        check_owner(executor, holder)
        # The clock is read under the lock: concurrent heartbeats then record their
        # transitions in the order they made them (read before, a later one could be
        # stamped earlier than the change it followed).
        at = now or timezone.now()
        executor.renew_lease(at)
        for field, value in reports.items():
            setattr(executor, field, value)
        executor.transition(target, cause=f"heartbeat: {reported}", now=at)
        executor.save()
    return Heartbeat(executor.status, executor.lease_expires_at)


def _renew_lease(chain_ref, holder, executor_id, status, at, lease_expires_at, reports) -> bool:
    """Renew the lease of the executor `executor_id` of the chain `chain_ref` if it is in
    `status` already and `holder` may beat for it: one statement, written in SQL because the
    ORM takes longer to build it than the database to run it. False if no row matched."""
    by_name = not (chain_ref.isascii() and chain_ref.isdigit())  # as Chain.objects.by_ref
    if not by_name and int(chain_ref) > MAX_CHAIN_ID:
        return False  # no such chain (and past what the column holds)
    owned = holder.scope != KeyScope.ADMIN
    # Outside a transaction the UPDATE is the whole transaction, and its commit need not
    # wait for the disk (docs/decisions.md); inside one, the caller's commit decides.
    db = connections[DEFAULT_DB_ALIAS]  # once: each access through the proxy costs
    asynchronous = db.vendor == "postgresql" and not db.in_atomic_block
    adapt = db.ops.adapt_datetimefield_value
    params = [adapt(at), adapt(lease_expires_at), reports["pending_jobs"], reports["head_block"],
              Executor._meta.pk.get_db_prep_value(executor_id, db),
              chain_ref if by_name else int(chain_ref), status]
    if owned:
        params.append(holder.prefix)
    return run_hot(_renewal_sql(by_name, owned, asynchronous), params) == 1


@lru_cache
def _renewal_sql(by_name: bool, owned: bool, asynchronous: bool) -> str:
    chains = Chain._meta
    chain = (f"(SELECT {chains.pk.column} FROM {chains.db_table} WHERE short_name = %s)"
             if by_name else "%s")
    return (
        f"UPDATE {Executor._meta.db_table} SET last_heartbeat_at = %s, lease_expires_at = %s, "
        "pending_jobs = %s, head_block = %s"
        # A one-row FROM item, evaluated once: makes this transaction's commit asynchronous.
        + (" FROM (SELECT set_config('synchronous_commit', 'off', true)) AS commit_mode"
           if asynchronous else "")
        + f" WHERE id = %s AND chain_id = {chain} AND status = %s"
        + (" AND registered_by = %s" if owned else "")
    )


def executor_deregister(executor_id, *, now=None) -> Executor:
    """Take an executor out of service (an administrator's decision). It keeps its trust:
    what it bound stays bound. Registering again brings it back."""
    with transaction.atomic():
        executor = Executor.objects.select_for_update().get(pk=executor_id)
        at = now or timezone.now()  # under the lock, as in executor_heartbeat()
        executor.transition(ExecutorStatus.DEREGISTERED, cause="deregistered", now=at)
        executor.save()
    return executor


def executor_set_trust(executor_id, *, trusted: bool, now=None) -> Executor:
    """Revoke or restore trust: an untrusted executor's attestations do not verify."""
    now = now or timezone.now()
    with transaction.atomic():
        executor = Executor.objects.select_for_update().get(pk=executor_id)
        if trusted != executor.is_trusted:
            executor.trust_revoked_at = None if trusted else now
            executor.save(update_fields=["trust_revoked_at"])
    return executor

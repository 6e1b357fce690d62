"""Executor registration, with its proof of possession (proofs.py) and its trust (trust.py).
Heartbeats, deregistration and an administrator's trust decisions are the model's own
(Executor.heartbeat, .deregister, .set_trust); the lease expiry sweep is in sweep.py."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import Conflict
from executors import proofs
from executors.models import (
    Executor,
    ExecutorStatus,
    ExecutorStatusChange,
    emit_status_changed,
)
from executors.trust import trust_on_registration
from registry.authentication import KeyHolder
from registry.models import Chain


def executor_register(
    *, chain: Chain, holder: KeyHolder, address: str, proof: dict, origin: str,
    name: str = "", endpoint_url: str = "", version: str = "", capabilities: list | None = None,
    metadata: dict | None = None, now=None,
) -> tuple[Executor, bool]:
    """Register `address` as an executor of `chain`, or renew its registration, with `proof`
    that the caller holds the address's key (a signed challenge of this service at `origin`,
    used up by this registration: proofs.py).

    Idempotent on (chain, address): the same executor id comes back, its details updated
    and its lease renewed (a deregistered one revived). Only the key that registered it
    first (or an admin key) may: another key gets 403. A new executor is untrusted until an
    administrator approves it, unless it has standing trust (trust.py). Returns (executor,
    created).
    """
    if not chain.is_active:
        raise Conflict(f"Chain {chain.chain_id} is inactive and takes no executors.",
                       code="chain_inactive")
    details = {"name": name, "endpoint_url": endpoint_url, "version": version,
               "capabilities": capabilities or [], "metadata": metadata or {}}
    with transaction.atomic():
        proofs.proof_use(proof, purpose=proofs.Purpose.REGISTER, chain=chain, address=address,
                         key_prefix=holder.prefix, origin=origin, now=now)
        executor = Executor.objects.select_for_update().filter(chain=chain, address=address).first()
        if executor is None:
            try:
                with transaction.atomic():  # a concurrent first registration may win the race
                    return _create(chain, holder, address, details, now or timezone.now()), True
            except IntegrityError:
                executor = Executor.objects.select_for_update().get(chain=chain, address=address)
        # Deregistered or not, the address stays with the key that registered it: another
        # key taking it over would inherit its id, its trust and the job it held.
        executor.check_owner(holder)
        for field, value in details.items():
            setattr(executor, field, value)
        at = now or timezone.now()  # under the lock, as in Executor.heartbeat()
        executor.renew_lease(at)
        executor.transition(ExecutorStatus.HEALTHY, cause="registered", now=at)
        trust_on_registration(executor, holder=holder, created=False, now=at)
        executor.save()
    return executor, False


def _create(chain, holder, address, details, now) -> Executor:
    executor = Executor(chain=chain, address=address, registered_by=holder.prefix,
                        status=ExecutorStatus.HEALTHY, status_changed_at=now, registered_at=now,
                        **details)
    executor.renew_lease(now)
    trust_on_registration(executor, holder=holder, created=True, now=now)
    executor.save(force_insert=True)
    ExecutorStatusChange.objects.create(executor=executor, from_status="", cause="registered",
                                        to_status=ExecutorStatus.HEALTHY, created_at=now)
    emit_status_changed(executor.pk, chain.chain_id, address, "", ExecutorStatus.HEALTHY,
                        "registered", now, None)
    return executor

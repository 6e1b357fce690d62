"""Workflow services: create a binding request, hand jobs to executors, take their results,
expire and requeue what nobody finishes. Tracking the chain is in tracking.py.

The chain's document schema: a workflow without `schemaId` uses the schema registered on its
chain with exactly `bytes32 documentHash`, as the indexer read it from the chain's
SchemaRegistry (attestations.Schema); with no resolver and revocable when there are several
(its uid is then the same on every chain), else the earliest. A chain whose registry holds
none takes no workflow without a schemaId (409 no_document_schema).
"""

import hashlib
import json
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Q, Value, When
from django.utils import timezone

from attestations import schema as schema_grammar
from attestations.models import Schema
from bindings.models import IllegalTransition, Workflow, WorkflowState, WorkflowTransition
from core.eas_abi import ZERO_ADDRESS
from core.errors import Conflict, Invalid, NotFound, PermissionDenied
from executors.models import Executor, ExecutorStatus
from registry.authentication import KeyHolder
from registry.models import Chain, Deployment

S = WorkflowState
DOCUMENT_SCHEMA = "bytes32 documentHash"
MAX_BACKOFF_SECONDS = 3600


def request_fingerprint(body) -> str:
    """SHA-256 of the request body as parsed (key order and spacing do not count)."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def chain_document_schema(chain: Chain) -> Schema | None:
    """The chain's document schema (see the module's docstring)."""
    plain = Q(resolver=ZERO_ADDRESS, revocable=True)
    return (
        Schema.objects.filter(chain=chain, schema=DOCUMENT_SCHEMA)
        .order_by(Case(When(plain, then=Value(0)), default=Value(1)), "block_number", "log_index")
        .first()
    )


def _schema_for(chain: Chain, schema_uid: str | None) -> Schema:
    if schema_uid is None:
        found = chain_document_schema(chain)
        if found is None:
            raise Conflict(f"Chain {chain.chain_id} has no document schema ({DOCUMENT_SCHEMA!r}) "
                           "registered yet: give a schemaId.", code="no_document_schema")
        return found
    found = Schema.objects.filter(chain=chain, uid=schema_uid).first()
    if found is None:
        raise Invalid({"schema_id": [f"No schema {schema_uid} is known on chain "
                                             f"{chain.chain_id}."]}, code="does_not_exist")
    if not found.document_hash_field:
        raise Invalid({"schema_id": ["This schema has no bytes32 document hash field."]},
                              code="not_a_document_schema")
    return found


def _values(document_hash: str, schema: Schema, data: dict) -> dict:
    return {**data, schema.document_hash_field: document_hash}


def _encoded(document_hash: str, schema: Schema, data: dict) -> bytes:
    """The attestation data: the document hash and the other values, checked and encoded."""
    if schema.document_hash_field in data:
        raise Invalid({"data": {schema.document_hash_field: [
            "The document hash comes from documentHash."]}})
    result = schema_grammar.check(schema.schema, _values(document_hash, schema, data))
    if result.errors:
        nested: dict = {}
        for error in result.errors:
            *parents, leaf = error["attr"].split(".")
            node = nested
            for part in parents:
                node = node.setdefault(part, {})
            node.setdefault(leaf, []).append(error["detail"])
        raise Invalid(nested)
    return result.encoded


def workflow_create(*, holder: KeyHolder, chain_id: int, document_hash: str,
                    schema_uid: str | None = None, data: dict | None = None,
                    idempotency_key: str | None = None, fingerprint: str = "",
                    now=None) -> tuple[Workflow, bool]:
    """Accept a binding request and queue it. Returns (workflow, created).

    With an idempotency key, a repeat of the same body returns the first workflow; the same
    key with another body is a conflict.
    """
    if idempotency_key is not None:
        earlier = _by_key(holder, idempotency_key, fingerprint)
        if earlier is not None:
            return earlier, False
    chain = Chain.objects.filter(pk=chain_id).first()
    if chain is None:
        raise Invalid({"chain_id": [f"No chain with chain id {chain_id} is registered."]},
                              code="does_not_exist")
    if not chain.is_active:
        raise Conflict(f"Chain {chain.chain_id} is inactive and takes no workflows.",
                       code="chain_inactive")
    schema = _schema_for(chain, schema_uid)
    data = data or {}
    encoded = _encoded(document_hash, schema, data)
    now = now or timezone.now()
    workflow = Workflow(
        chain=chain, document_hash=document_hash, schema_uid=schema.uid, data=data,
        schema=schema.schema, revocable=schema.revocable, attestation_data=encoded,
        state=S.RECEIVED, deadline=_claim_deadline(now), available_at=now, created_by=holder.prefix,
        idempotency_key=idempotency_key, request_fingerprint=fingerprint, created_at=now,
        updated_at=now,
    )
    try:
        with transaction.atomic():
            workflow.save(force_insert=True)
            WorkflowTransition.objects.create(workflow=workflow, from_state="", to_state=S.RECEIVED,
                                              cause="requested", created_at=now)
            workflow.emit_state_changed("", "requested", now)
            workflow.transition(S.QUEUED, cause="accepted", now=now)
    except IntegrityError:
        if idempotency_key is None:
            raise
        # A concurrent request with the same key won the race.
        earlier = _by_key(holder, idempotency_key, fingerprint)
        if earlier is None:
            raise
        return earlier, False
    return workflow, True


def _by_key(holder: KeyHolder, key: str, fingerprint: str) -> Workflow | None:
    earlier = Workflow.objects.filter(created_by=holder.prefix, idempotency_key=key).first()
    if earlier is not None and earlier.request_fingerprint != fingerprint:
        raise Conflict("This Idempotency-Key was used with another request body.",
                       code="idempotency_key_reused")
    return earlier


def _claim_deadline(queued_at):
    return queued_at + timedelta(seconds=settings.WORKFLOW_CLAIM_DEADLINE_SECONDS)


def _backoff(attempts: int) -> timedelta:
    seconds = settings.WORKFLOW_RETRY_BACKOFF_SECONDS * 2 ** max(0, attempts - 1)
    return timedelta(seconds=min(seconds, MAX_BACKOFF_SECONDS))


def requeue_fields(now, delay: timedelta = timedelta(0)) -> dict:
    """What a workflow going back to the queue forgets, and when it may be claimed again."""
    available_at = now + delay
    return {"executor": None, "dispatched_at": None, "tx_hash": "", "tx_missing_since": None,
            "block_number": None, "attestation_uid": "", "confirmed_at": None,
            "available_at": available_at, "deadline": _claim_deadline(available_at)}


def retry_or_fail(workflow: Workflow, *, cause: str, error: str, now) -> None:
    """After an executor's error or a reverted transaction: back to the queue after a
    back-off, or failed for good once the attempts are used up. Inside a transaction."""
    if workflow.attempts >= settings.WORKFLOW_MAX_ATTEMPTS:
        workflow.transition(S.FAILED, cause=f"{cause}; no attempts left", now=now,
                            last_error=error[:2000])
        return
    delay = _backoff(workflow.attempts)
    workflow.transition(S.QUEUED, now=now, last_error=error[:2000],
                        cause=f"{cause}; retry in {int(delay.total_seconds())} s",
                        **requeue_fields(now, delay))


# Executor jobs


def _chain(chain_ref: str) -> Chain:
    try:
        return Chain.objects.by_ref(chain_ref)
    except Chain.DoesNotExist:
        raise NotFound(f"No chain {chain_ref!r} is registered.") from None


def _executor(chain: Chain, holder: KeyHolder, executor_id) -> Executor:
    executor = Executor.objects.filter(pk=executor_id, chain=chain).first()
    if executor is None or executor.status == ExecutorStatus.DEREGISTERED:
        raise NotFound("No executor with this id on this chain: register it (again).")
    executor.check_owner(holder)
    return executor


def job_claim(*, chain_ref: str, holder: KeyHolder, executor_id, now=None) -> dict | None:
    """Hand the oldest claimable queued workflow of the chain to the executor: the job (see
    job_payload), or None if none is claimable.

    On PostgreSQL, the candidate row is locked with SKIP LOCKED: concurrent claims each take
    another row instead of waiting. Elsewhere, the conditional UPDATE of transition() makes
    a lost race visible, and the claim tries the next candidate.
    """
    chain = _chain(chain_ref)
    executor = _executor(chain, holder, executor_id)
    if not chain.is_active:
        raise Conflict(f"Chain {chain.chain_id} is inactive.", code="chain_inactive")
    status = executor.current_status()
    if status != ExecutorStatus.HEALTHY:
        raise Conflict(f"This executor is {status}: only a healthy executor takes jobs "
                       "(heartbeat first).", code="executor_not_healthy")
    skip_locked = connection.features.has_select_for_update_skip_locked
    for _ in range(20):
        with transaction.atomic():
            at = now or timezone.now()
            queued = (Workflow.objects.filter(chain=chain, state=S.QUEUED, available_at__lte=at,
                                              deadline__gt=at).order_by("created_at"))
            if skip_locked:
                queued = queued.select_for_update(skip_locked=True)
            workflow = queued.first()
            if workflow is None:
                return None
            try:
                workflow.transition(S.DISPATCHED, now=at, cause=f"claimed by {executor.address}",
                                    executor=executor, dispatched_at=at,
                                    attempts=workflow.attempts + 1)
            except IllegalTransition:
                continue  # another claim took it first (without SKIP LOCKED)
            # In the claim's transaction: a job that cannot be described is not handed out.
            return job_payload(workflow)
    return None


def job_report(*, chain_ref: str, holder: KeyHolder, workflow_id, executor_id,
               tx_hash: str | None = None, error: str | None = None, now=None) -> Workflow:
    """An executor's result: the hash of the transaction it sent, or the error it met."""
    chain = _chain(chain_ref)
    executor = _executor(chain, holder, executor_id)
    try:
        workflow_id = uuid.UUID(str(workflow_id))
    except ValueError:
        raise NotFound("No workflow with this id on this chain.") from None
    with transaction.atomic():
        workflow = (Workflow.objects.select_for_update().filter(pk=workflow_id, chain=chain)
                    .first())
        if workflow is None:
            raise NotFound("No workflow with this id on this chain.")
        if workflow.executor_id != executor.pk:
            raise PermissionDenied("This job is not held by this executor.")
        at = now or timezone.now()
        if tx_hash is not None:
            _report_tx(workflow, executor, tx_hash, at)
        elif workflow.state != S.DISPATCHED:
            raise _wrong_state(workflow)
        else:
            retry_or_fail(workflow, cause=f"executor {executor.address} reported an error",
                          error=error, now=at)
    return workflow


def _report_tx(workflow: Workflow, executor: Executor, tx_hash: str, now) -> None:
    if workflow.state == S.SUBMITTED:
        # The same hash again is a repeat; another one replaces the transaction (same nonce,
        # more gas): every candidate is kept, the newest is tracked first.
        if tx_hash not in workflow.tx_hashes:
            changes = {"tx_hash": tx_hash, "tx_hashes": [*workflow.tx_hashes, tx_hash],
                       "tx_missing_since": None, "updated_at": now}
            Workflow.objects.filter(pk=workflow.pk).update(**changes)
            for name, value in changes.items():
                setattr(workflow, name, value)
        return
    if workflow.state != S.DISPATCHED:
        raise _wrong_state(workflow)
    hashes = workflow.tx_hashes if tx_hash in workflow.tx_hashes else [*workflow.tx_hashes, tx_hash]
    workflow.transition(S.SUBMITTED, now=now, cause=f"executor {executor.address} sent {tx_hash}",
                        tx_hash=tx_hash, tx_hashes=hashes, tx_missing_since=None)


def _wrong_state(workflow: Workflow) -> Conflict:
    return Conflict(f"This workflow is {workflow.state}: it takes no result now.",
                    code="illegal_state")


# Housekeeping (run by the tracking task)


def workflows_expire(now=None) -> int:
    """Queued workflows that nobody claimed before their deadline: expired."""
    now = now or timezone.now()
    return _move_each(Workflow.objects.filter(state=S.QUEUED, deadline__lte=now),
                      lambda w: w.transition(S.EXPIRED, cause="nobody claimed it in time", now=now))


def workflows_requeue_abandoned(now=None) -> int:
    """Dispatched workflows whose executor went offline (or was deregistered), or that it
    has held past the dispatch timeout without a result: back to the queue, no back-off."""
    now = now or timezone.now()
    timeout = now - timedelta(seconds=settings.WORKFLOW_DISPATCH_TIMEOUT_SECONDS)
    gone = (Q(executor__isnull=True)
            | Q(executor__status__in=[ExecutorStatus.OFFLINE, ExecutorStatus.DEREGISTERED]))
    abandoned = Workflow.objects.filter(Q(state=S.DISPATCHED) & (gone | Q(dispatched_at__lte=timeout)))

    def requeue(workflow):
        executor = workflow.executor
        if executor is not None and executor.status not in (ExecutorStatus.OFFLINE,
                                                            ExecutorStatus.DEREGISTERED):
            cause = "no result within the dispatch timeout"
        else:
            cause = f"executor {executor.address if executor else '(removed)'} went offline"
        workflow.transition(S.QUEUED, cause=cause, now=now, **requeue_fields(now))

    return _move_each(abandoned.select_related("executor"), requeue)


def _move_each(queryset, move, batch: int = 500) -> int:
    """Apply `move` to each row, locked (SKIP LOCKED where the database has it) in batches,
    one transaction per batch; rows that another worker moved meanwhile are left."""
    moved = 0
    skip_locked = connection.features.has_select_for_update_skip_locked
    while True:
        before = moved
        with transaction.atomic():
            rows = queryset.order_by("created_at")
            rows = rows.select_for_update(skip_locked=True, of=("self",)) if skip_locked else rows
            rows = list(rows[:batch])
            for workflow in rows:
                try:
                    move(workflow)
                    moved += 1
                except IllegalTransition:
                    pass
        if len(rows) < batch or moved == before:
            return moved


def job_payload(workflow: Workflow) -> dict:
    """What the executor needs to attest a claimed workflow."""
    eas = (Deployment.objects.filter(chain_id=workflow.chain_id, kind=Deployment.Kind.EAS)
           .order_by("id").values_list("address", flat=True).first())
    return {"workflow": workflow, "eas_address": eas,
            "encoded_data": "0x" + bytes(workflow.attestation_data).hex()}

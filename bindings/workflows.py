"""Workflow services: create binding requests (one or a batch), retry or fail after an
error, expire and requeue what nobody finishes. Executor jobs are in jobs.py, tracking the
chain in tracking.py.

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
from bindings.models import Workflow, WorkflowState, record_transitions
from core.errors import Conflict, DomainError, Invalid
from eas_primitives.abi import ZERO_ADDRESS
from executors.models import ExecutorStatus
from registry.authentication import KeyHolder
from registry.models import Chain

S = WorkflowState
DOCUMENT_SCHEMA = "bytes32 documentHash"
BATCH_LIMIT = 1000  # workflows per POST /workflows/batch (and per call of the issuer pages)
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
    item = {"chain_id": chain_id, "document_hash": document_hash, "schema_id": schema_uid,
            "data": data or {}}
    ((workflow, created),) = workflows_create_many(
        holder=holder, items=[item], keys=None if idempotency_key is None else [idempotency_key],
        fingerprint=fingerprint, now=now, name_items=False)
    return workflow, created


def workflows_create_many(*, holder: KeyHolder, items: list[dict], keys: list[str] | None,
                          fingerprint: str | list[str] = "", now=None,
                          name_items: bool = True) -> list[tuple[Workflow, bool]]:
    """Accept binding requests (dicts of chain_id, document_hash, schema_id, data), each
    checked as a single one is, and queue them all, or none: a refusal names the item by its
    index (`workflows.3`) when `name_items`. Returns (workflow, created) in request order.

    `keys` (one idempotency key per item, or None) and `fingerprint` (the request body's,
    kept on every item; or one per item): an item whose key was used before is a repeat and
    returns the workflow created then, unless that was made with another fingerprint (a
    conflict); the other items are created. POST /workflows/batch keys its items by the
    header's key and their index and fingerprints the whole body, so that its repeat is all
    or nothing; the issuer pages (issuance/) key each document by its chain, schema and hash.
    Bulk inserts: the workflows, then their creation and queueing recorded as
    transition_many records moves.
    """
    prints = [fingerprint] * len(items) if isinstance(fingerprint, str) else fingerprint
    for attempt in (1, 2):
        earlier = {} if keys is None else _by_keys(holder, keys, prints)
        fresh = [index for index in range(len(items))
                 if keys is None or keys[index] not in earlier]
        try:
            made = _create(holder, items, fresh, keys, prints, now, name_items)
            break
        except IntegrityError:
            if keys is None or attempt == 2:
                raise
            # A concurrent request with some of the same keys won the race: take its ones.
    return [(earlier[keys[index]], False) if index not in made else (made[index], True)
            for index in range(len(items))]


def _create(holder: KeyHolder, items: list[dict], fresh: list[int], keys: list[str] | None,
            prints: list[str], now, name_items: bool) -> dict[int, Workflow]:
    """The workflows of items[fresh], inserted queued (by index)."""
    now = now or timezone.now()
    known = _Known()
    rows = {}
    for index in fresh:
        try:
            rows[index] = _new_workflow(items[index], known, holder, now)
        except DomainError as exc:
            if not name_items:
                raise
            raise at_item(exc, f"workflows.{index}") from None
    for order, (index, row) in enumerate(rows.items()):
        row.idempotency_key = None if keys is None else keys[index]
        row.request_fingerprint = prints[index]
        # The queue is claimed oldest first: a microsecond apart, a batch keeps its order.
        row.created_at = now + timedelta(microseconds=order)
    if not rows:
        return rows
    created = list(rows.values())
    with transaction.atomic():
        # Inserted queued, with both moves recorded (an UPDATE of every row to queued
        # would write each row twice).
        Workflow.objects.insert_many(created)
        count = len(created)
        record_transitions([*created, *created], [""] * count + [S.RECEIVED] * count,
                           ["requested"] * count + ["accepted"] * count, now,
                           to_states=[S.RECEIVED] * count + [S.QUEUED] * count)
    return rows


class _Known:
    """The chains and schemas a batch names, each read once."""

    def __init__(self):
        self.chains: dict[int, Chain | None] = {}
        self.schemas: dict[tuple, Schema] = {}

    def chain(self, chain_id: int) -> Chain:
        if chain_id not in self.chains:
            self.chains[chain_id] = Chain.objects.filter(pk=chain_id).first()
        chain = self.chains[chain_id]
        if chain is None:
            raise Invalid({"chain_id": [f"No chain with chain id {chain_id} is registered."]},
                          code="does_not_exist")
        if not chain.is_active:
            raise Conflict(f"Chain {chain.chain_id} is inactive and takes no workflows.",
                           code="chain_inactive")
        return chain

    def schema(self, chain: Chain, schema_uid: str | None) -> Schema:
        if (chain.pk, schema_uid) not in self.schemas:
            self.schemas[chain.pk, schema_uid] = _schema_for(chain, schema_uid)
        return self.schemas[chain.pk, schema_uid]


def binding_target(chain_id: int, schema_uid: str | None) -> tuple[Chain, Schema]:
    """The chain and schema a workflow of `chain_id` and `schema_uid` (None: the chain's
    document schema) is bound on, checked as a binding request is (an unknown or inactive
    chain, an unknown schema or one without a document hash field are refused)."""
    known = _Known()
    chain = known.chain(chain_id)
    return chain, known.schema(chain, schema_uid)


def _new_workflow(item: dict, known: _Known, holder: KeyHolder, now) -> Workflow:
    chain = known.chain(item["chain_id"])
    schema = known.schema(chain, item.get("schema_id"))
    data = item.get("data") or {}
    encoded = _encoded(item["document_hash"], schema, data)
    return Workflow(
        id=uuid.uuid4(), chain=chain, document_hash=item["document_hash"],
        schema_uid=schema.uid, data=data, schema=schema.schema, revocable=schema.revocable,
        attestation_data=encoded, state=S.QUEUED, deadline=_claim_deadline(now),
        available_at=now, created_by=holder.prefix, created_at=now, updated_at=now,
    )


def at_item(exc: DomainError, where: str) -> DomainError:
    """The refusal `exc` of one item of a batch, naming the item (`where`: `results.3`):
    its field errors nested under it, its detail prefixed with it."""
    if isinstance(exc.detail, dict):  # field errors given as the detail (Invalid)
        return type(exc)({where: exc.detail}, exc.code)
    errors = {where: exc.errors} if exc.errors is not None else {where: [str(exc.detail)]}
    return type(exc)(f"{where}: {exc.detail}", exc.code, errors=errors)


def _by_keys(holder: KeyHolder, keys: list[str], prints: list[str]) -> dict[str, Workflow]:
    """The workflows earlier requests created under any of `keys`, by key (one query); a
    conflict when one was made with another fingerprint than its item's now."""
    found = {w.idempotency_key: w for w in Workflow.objects.filter(
        created_by=holder.prefix, idempotency_key__in=keys)}
    for key, fingerprint in zip(keys, prints, strict=True):
        if key in found and found[key].request_fingerprint != fingerprint:
            raise _key_reused()
    return found


def _key_reused() -> Conflict:
    return Conflict("This Idempotency-Key was used with another request body.",
                    code="idempotency_key_reused")


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
            "merkle_batch": None,
            "available_at": available_at, "deadline": _claim_deadline(available_at)}


def retry_or_fail(workflows: list[Workflow], *, cause: str, errors: dict, now) -> None:
    """After executors' errors or reverted transactions (`errors`: workflow id -> error):
    back to the queue after a back-off, or failed for good once a workflow's attempts are
    used up. Inside a transaction; all or nothing (transition_many)."""
    spent = [w for w in workflows if w.attempts >= settings.WORKFLOW_MAX_ATTEMPTS]
    again = [w for w in workflows if w.attempts < settings.WORKFLOW_MAX_ATTEMPTS]
    Workflow.objects.transition_many(spent, S.FAILED, cause=f"{cause}; no attempts left",
                                     now=now, each=lambda w: {"last_error": errors[w.pk][:2000]})

    def delay(workflow) -> timedelta:
        return _backoff(workflow.attempts)

    Workflow.objects.transition_many(
        again, S.QUEUED, now=now,
        cause=lambda w: f"{cause}; retry in {int(delay(w).total_seconds())} s",
        each=lambda w: {"last_error": errors[w.pk][:2000], **requeue_fields(now, delay(w))})


# Housekeeping (run by the tracking task)


def workflows_expire(now=None) -> int:
    """Queued workflows that nobody claimed before their deadline: expired."""
    now = now or timezone.now()
    return _move_each(
        Workflow.objects.filter(state=S.QUEUED, deadline__lte=now),
        lambda rows: Workflow.objects.transition_many(rows, S.EXPIRED, now=now,
                                                      cause="nobody claimed it in time"))


def workflows_requeue_abandoned(now=None) -> int:
    """Dispatched workflows whose executor went offline (or was deregistered), or that it
    has held past the dispatch timeout without a result: back to the queue, no back-off."""
    now = now or timezone.now()
    timeout = now - timedelta(seconds=settings.WORKFLOW_DISPATCH_TIMEOUT_SECONDS)
    gone_states = (ExecutorStatus.OFFLINE, ExecutorStatus.DEREGISTERED)
    gone = Q(executor__isnull=True) | Q(executor__status__in=gone_states)
    abandoned = Workflow.objects.filter(Q(state=S.DISPATCHED) & (gone | Q(dispatched_at__lte=timeout)))

    def cause(workflow) -> str:
        executor = workflow.executor
        if executor is not None and executor.status not in gone_states:
            return "no result within the dispatch timeout"
        return f"executor {executor.address if executor else '(removed)'} went offline"

    return _move_each(abandoned.select_related("executor"),
                      lambda rows: Workflow.objects.transition_many(
                          rows, S.QUEUED, cause=cause, now=now, **requeue_fields(now)))


def _move_each(queryset, move, batch: int = 500) -> int:
    """Apply `move` to the rows, locked (SKIP LOCKED where the database has it) in batches,
    one transaction per batch: rows that another worker holds are left to it."""
    moved = 0
    skip_locked = connection.features.has_select_for_update_skip_locked
    while True:
        with transaction.atomic():
            rows = queryset.order_by("created_at")
            rows = rows.select_for_update(skip_locked=True, of=("self",)) if skip_locked else rows
            rows = list(rows[:batch])
            move(rows)
        moved += len(rows)
        if len(rows) < batch:
            return moved

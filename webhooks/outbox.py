"""The outbox: events written in the transaction of the change that caused them, fanned out
after the commit.

`record_event` listens to core/events.py. For each event type a fact becomes, it asks
whether any subscription takes it (webhooks/routing.py, from memory but for document events)
and writes the event, one row whatever the number of subscribers, in the caller's
transaction: a rollback takes it with the change, a commit keeps both. After the commit a
fan-out is queued: the webhooks worker writes one delivery per subscription the event is
routed to, oldest event first, then queues the delivery runs of those subscriptions
(`fan_out`). A lost message or a killed worker only delays it until the sweep.
"""

import json
import uuid
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.utils import timezone

from bindings.models import WorkflowState
from core.db import insert_columns, run_hot
from verification.services import verify_document
from webhooks import queueing, routing
from webhooks.models import DOCUMENT_EVENT_TYPES, Delivery, DeliveryState, Event, EventType

FAN_OUT_BATCH = 200  # events per fan-out transaction


def record_event(fact: str, data: dict, occurred_at, subject: dict) -> None:
    """core.events listener: write the events `fact` becomes that someone takes."""
    candidates = routing.candidates(fact)
    if not candidates:
        return
    subject = {k: str(v) if k == "workflow_id" and v is not None else v
               for k, v in subject.items()}  # JSON
    for event_type in _types_of(fact, data):
        if not _taken(event_type, subject, candidates):
            continue
        if event_type == EventType.DOCUMENT_VERIFIED:
            data = _verified_by(data["attestationUid"], subject["document_hash"],
                                subject["chain_id"])
            if data is None:
                continue
        write_event(event_type, data, occurred_at, subject)


def _taken(event_type: str, subject: dict, candidates: list) -> bool:
    if event_type in DOCUMENT_EVENT_TYPES:  # a watch or a binding: the database knows
        return bool(routing.takers(event_type, subject, candidates))
    return any(r.takes(event_type, subject) for r in candidates)


record_event.wants = routing.wants  # core.events.wanted() asks it


def _types_of(fact: str, data: dict) -> list[str]:
    """The event types a fact becomes (a workflow's transition to confirmed or failed is
    also its shorthand event)."""
    if fact != "workflow.state_changed":
        return sorted(routing.FACTS.get(fact, ()))
    shorthand = {WorkflowState.CONFIRMED: [EventType.WORKFLOW_CONFIRMED],
                 WorkflowState.FAILED: [EventType.WORKFLOW_FAILED]}
    return [EventType.WORKFLOW_STATE_CHANGED, *shorthand.get(data["to"], [])]


def _verified_by(uid: str, document_hash: str, chain_id: int) -> dict | None:
    """The document.verified payload when the document now verifies through attestation
    `uid` (it reached its chain's confirmations and passes every rule of POST /v1/verify);
    None when it does not, or verified earlier through another attestation."""
    answer = verify_document(document_hash, chain_id=chain_id)
    if not answer.verified or answer.attestation_id != uid:
        return None
    return {"documentHash": document_hash, "chainId": answer.chain_id,
            "attestationUid": answer.attestation_id, "attester": answer.attester,
            "schemaId": answer.schema_id, "txHash": answer.tx_hash,
            "blockNumber": answer.block_number, "confirmations": answer.confirmations,
            "attestedAt": answer.timestamp.strftime("%Y-%m-%dT%H:%M:%SZ")}


def write_event(event_type: str, data: dict, occurred_at, subject: dict) -> None:
    """Write the event in the current transaction, and queue its fan-out after the commit."""
    if connection.vendor == "postgresql":
        # A prepared statement (core/db.py): planning cost a transition more than running.
        run_hot(_WRITE_SQL, [event_type, occurred_at, json.dumps(data), json.dumps(subject)])
    else:
        Event.objects.create(type=event_type, occurred_at=occurred_at, data=data,
                             subject=subject)
    transaction.on_commit(queueing.queue_fan_out, robust=True)


_WRITE_SQL = """
INSERT INTO webhooks_event (type, occurred_at, data, subject, fanned_out)
VALUES (%s, %s, %s, %s, false)
"""


@dataclass
class FanOut:
    events: int = 0
    deliveries: int = 0
    subscriptions: set = field(default_factory=set)


def fan_out(batch: int = FAN_OUT_BATCH) -> FanOut:
    """Give the events not fanned out yet their deliveries, oldest first, `batch` events per
    transaction; after each, queue the runs of the subscriptions that got some. Runs in the
    webhooks worker (or `manage.py run_webhooks`), never in a change's transaction."""
    done = FanOut()
    while True:
        with transaction.atomic():
            # Locked, not skipped: a second fan-out waits, so deliveries are written in event
            # order (a subscription's run sends them in that order).
            events = list(Event.objects.select_for_update().filter(fanned_out=False)
                          .order_by("id")[:batch])
            if not events:
                return done
            routes, rows = routing.routes(fresh=True), []
            for event in events:
                rows += [(event.pk, r.id)
                         for r in routing.takers(event.type, event.subject, routes)]
            _write_deliveries(rows)
            Event.objects.filter(pk__in=[e.pk for e in events]).update(fanned_out=True)
        touched = {subscription_id for _, subscription_id in rows}
        for subscription_id in touched:
            queueing.queue_run(subscription_id)
        done.events += len(events)
        done.deliveries += len(rows)
        done.subscriptions |= touched
        if len(events) < batch:
            return done


def _write_deliveries(rows: list[tuple[int, object]]) -> None:
    """One pending delivery per (event id, subscription id): one INSERT ... UNNEST on
    PostgreSQL (core/db.py), thousands of rows at the cost of a few."""
    now, count = timezone.now(), len(rows)
    insert_columns(Delivery, {
        "id": [uuid.uuid4() for _ in range(count)],
        "event_id": [event_id for event_id, _ in rows],
        "subscription_id": [subscription_id for _, subscription_id in rows],
        "state": [DeliveryState.PENDING] * count, "attempts": [0] * count,
        "next_attempt_at": [now] * count, "pending_since": [now] * count,
        "created_at": [now] * count, "last_error": [""] * count,
    })

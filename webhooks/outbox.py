"""The outbox: events written in the transaction of the change that caused them.

`record_event` listens to core/events.py. For each event type a fact becomes, it finds the
subscriptions that take it (webhooks/routing.py) and writes the event with one delivery per
subscription, in the caller's transaction: a rollback takes them with the change, a commit
keeps both. After the commit a delivery run is queued for each subscription concerned; a
lost message or a killed worker only delays it until the sweep (webhooks/delivery.py).
"""

import json
import uuid

from django.db import connection, transaction
from django.utils import timezone

from bindings.models import Workflow, WorkflowState
from core.db import run_hot
from verification.services import verify_document
from webhooks import routing
from webhooks.models import (
    DOCUMENT_EVENT_TYPES,
    Delivery,
    Event,
    EventType,
    Subscription,
    Watch,
)
from webhooks.tasks import QueueRun


def record_event(fact: str, data: dict, occurred_at, subject: dict) -> None:
    """core.events listener: route and write the events `fact` becomes."""
    types = routing.FACTS.get(fact)
    if not types:
        return
    candidates = [r for r in routing.routes() if r.types & types]
    if not candidates:
        return
    for event_type in _types_of(fact, data):
        takers = [r for r in candidates if r.takes(event_type, subject)]
        if event_type in DOCUMENT_EVENT_TYPES:
            takers = _interested(takers, subject.get("document_hash"))
        if not takers:
            continue
        if event_type == EventType.DOCUMENT_VERIFIED:
            data = _verified_by(data["attestationUid"], subject["document_hash"],
                                subject["chain_id"])
            if data is None:
                continue
        write_event(event_type, data, occurred_at, [r.id for r in takers])


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


def _interested(routes: list, document_hash: str | None) -> list:
    """The routes whose owner watches `document_hash`, bound it, or filters on it."""
    if not document_hash:
        return []
    owners = {r.owner for r in routes if r.document_hash != document_hash}
    known = set(Watch.objects.filter(owner__in=owners, document_hash=document_hash)
                .values_list("owner", flat=True))
    if owners - known:
        known |= set(Workflow.objects.filter(created_by__in=owners - known,
                                             document_hash=document_hash)
                     .values_list("created_by", flat=True).distinct())
    return [r for r in routes if r.document_hash == document_hash or r.owner in known]


def write_event(event_type: str, data: dict, occurred_at, subscription_ids: list) -> None:
    """Write the event and its deliveries to the subscriptions (those still enabled) in the
    current transaction, and queue their delivery runs after the commit."""
    now = timezone.now()
    if connection.vendor == "postgresql":
        written = _write_postgresql(event_type, data, occurred_at, subscription_ids, now)
    else:
        written = _write_portable(event_type, data, occurred_at, subscription_ids, now)
    for subscription_id in written:
        transaction.on_commit(QueueRun(subscription_id), robust=True)


# One statement (a transition pays one round trip): the event, and a delivery per
# subscription that still exists and is enabled (the routes may be a moment old).
_WRITE_SQL = """
WITH event AS (
    INSERT INTO webhooks_event (type, occurred_at, data) VALUES (%s, %s, %s) RETURNING id
)
INSERT INTO webhooks_delivery (id, event_id, subscription_id, state, attempts, next_attempt_at,
                               pending_since, created_at, last_error)
SELECT gen_random_uuid(), event.id, s.id, 'pending', 0, %s, %s, %s, ''
FROM event, webhooks_subscription s WHERE s.id = ANY(%s) AND s.enabled
RETURNING subscription_id
"""


def _write_postgresql(event_type, data, occurred_at, subscription_ids, now) -> list:
    # A prepared statement (core/db.py): planning this one cost each transition more than
    # running it.
    rows = run_hot(_WRITE_SQL, [event_type, occurred_at, json.dumps(data), now, now, now,
                                [uuid.UUID(str(i)) for i in subscription_ids]], fetch="all")
    return [row[0] for row in rows]


def _write_portable(event_type, data, occurred_at, subscription_ids, now) -> list:
    ids = list(Subscription.objects.filter(pk__in=subscription_ids, enabled=True)
               .values_list("pk", flat=True))
    if not ids:
        return []
    with transaction.atomic():
        event = Event.objects.create(type=event_type, occurred_at=occurred_at, data=data)
        Delivery.objects.bulk_create(
            Delivery(event=event, subscription_id=i, next_attempt_at=now, pending_since=now,
                     created_at=now) for i in ids)
    return ids

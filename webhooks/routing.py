"""Which subscriptions an event goes to.

The enabled subscriptions are read by a process when they changed, asked at most once per
WEBHOOKS_MEMO_SECONDS (a workflow transition must not pay a query to learn that nobody
listens, nor a read of a thousand subscriptions every few seconds: their count and latest
`updated_at` tell whether to read them again; whatever changes one through an UPDATE sets
`updated_at`); saving one through this process forgets the memo at once. Who may receive
what:

- workflow events: the key that created the workflow, and admin keys;
- executor, RPC endpoint and issuer events: admin keys only (the admin API's data);
- chain events: every key;
- document events: the keys that watch the document hash or bound it (the database is
  asked, for the few subscriptions that want them).

Filters (chain, workflow, document hash) narrow each subscription further. The change's
transaction only asks whether anyone takes an event (webhooks/outbox.py); the fan-out, after
the commit, asks who.
"""

import time
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Max

from bindings.models import Workflow
from webhooks.models import (
    ADMIN_EVENT_TYPES,
    DOCUMENT_EVENT_TYPES,
    WORKFLOW_EVENT_TYPES,
    EventType,
    Subscription,
    Watch,
)

# What the apps emit (core/events.py) -> the event types it becomes here. The indexer's
# facts become document events once webhooks/outbox.py has checked them.
FACTS = {
    "workflow.state_changed": {EventType.WORKFLOW_STATE_CHANGED, EventType.WORKFLOW_CONFIRMED,
                               EventType.WORKFLOW_FAILED},
    "attestation.final": {EventType.DOCUMENT_VERIFIED},
    "attestation.revoked": {EventType.DOCUMENT_REVOKED},
    "executor.status_changed": {EventType.EXECUTOR_STATUS_CHANGED},
    "rpc_endpoint.status_changed": {EventType.RPC_ENDPOINT_STATUS_CHANGED},
    "chain.status_changed": {EventType.CHAIN_STATUS_CHANGED},
    "chain.stalled": {EventType.CHAIN_STALLED},
    "chain.resumed": {EventType.CHAIN_RESUMED},
    "issuer.identity_lapsed": {EventType.ISSUER_IDENTITY_LAPSED},
}


@dataclass(frozen=True)
class Route:
    id: object
    owner: str
    owner_is_admin: bool
    types: frozenset
    chain_id: int | None
    workflow_id: object
    document_hash: str

    def takes(self, event_type: str, subject: dict) -> bool:
        """Whether this subscription receives `event_type` about `subject`, as far as can be
        told without the database (document events still need a watch or a binding)."""
        if event_type not in self.types:
            return False
        if event_type in ADMIN_EVENT_TYPES and not self.owner_is_admin:
            return False
        if (event_type in WORKFLOW_EVENT_TYPES and not self.owner_is_admin
                and subject.get("owner") != self.owner):
            return False
        if self.chain_id is not None and subject.get("chain_id") != self.chain_id:
            return False
        if self.workflow_id is not None and str(subject.get("workflow_id")) != str(self.workflow_id):
            return False
        return not self.document_hash or subject.get("document_hash") == self.document_hash


@dataclass
class _Memo:
    at: float
    stamp: tuple  # what _stamp() said when the routes were read
    routes: list[Route]
    by_fact: dict  # fact -> the routes that may take what it becomes, filled as asked


_memo: _Memo | None = None


def forget() -> None:
    global _memo
    _memo = None


def _stamp() -> tuple:
    enabled = Subscription.objects.filter(enabled=True)
    return tuple(enabled.aggregate(count=Count("id"), last=Max("updated_at")).values())


def _read(fresh: bool = False) -> _Memo:
    global _memo
    now, memo, seconds = time.monotonic(), _memo, settings.WEBHOOKS_MEMO_SECONDS
    if not fresh and memo is not None and now - memo.at < seconds:
        return memo
    stamp = _stamp() if seconds else ()  # 0: read them for every event
    if not fresh and memo is not None and stamp and stamp == memo.stamp:
        memo.at = now  # unchanged
        return memo
    rows = Subscription.objects.filter(enabled=True).values_list(
        "id", "owner", "owner_is_admin", "event_types", "chain_id", "workflow_id",
        "document_hash")
    _memo = _Memo(now, stamp, [Route(i, o, a, frozenset(t), c, w, d)
                               for i, o, a, t, c, w, d in rows], {})
    return _memo


def routes(*, fresh: bool = False) -> list[Route]:
    """The enabled subscriptions, as read at most WEBHOOKS_MEMO_SECONDS ago (`fresh`: now)."""
    return _read(fresh).routes


def candidates(fact: str) -> list[Route]:
    """The enabled subscriptions that may take an event type `fact` becomes (worked out once
    per memo: a transition does not loop over every subscription)."""
    memo = _read()
    found = memo.by_fact.get(fact)
    if found is None:
        types = FACTS.get(fact, frozenset())
        found = memo.by_fact[fact] = [r for r in memo.routes if r.types & types]
    return found


def wants(fact: str) -> bool:
    """Whether any enabled subscription may receive what `fact` becomes."""
    return bool(candidates(fact))


def takers(event_type: str, subject: dict, candidates: list[Route]) -> list[Route]:
    """The routes among `candidates` that receive `event_type` about `subject`."""
    found = [r for r in candidates if r.takes(event_type, subject)]
    if event_type in DOCUMENT_EVENT_TYPES:
        found = _interested(found, subject.get("document_hash"))
    return found


def _interested(found: list[Route], document_hash: str | None) -> list[Route]:
    """The routes whose owner watches `document_hash`, bound it, or filters on it."""
    if not document_hash or not found:
        return []
    owners = {r.owner for r in found if r.document_hash != document_hash}
    known = set(Watch.objects.filter(owner__in=owners, document_hash=document_hash)
                .values_list("owner", flat=True))
    if owners - known:
        known |= set(Workflow.objects.filter(created_by__in=owners - known,
                                             document_hash=document_hash)
                     .values_list("created_by", flat=True).distinct())
    return [r for r in found if r.document_hash == document_hash or r.owner in known]

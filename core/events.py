"""Domain events: what an app tells whoever listens, from inside the transaction of the change
that caused it (a workflow's transition, an executor's status, a revocation indexed, ...).

The apps below `webhooks` call `emit()`; the webhooks app listens (its outbox writes the
event in the caller's transaction, so a rollback takes the event with the change). This
module is the whole coupling: the ground floor, importing no app, so that no lower layer
imports the webhooks app. Without a listener, `emit()` costs a loop over an empty list.
"""

from collections.abc import Callable
from datetime import datetime

# listener(event_type, data, occurred_at, subject): `data` is the event's public payload
# (camelCase keys, JSON values); `subject` says whom it concerns, for routing: owner (the
# prefix of the key that created the thing), chain_id, workflow_id, document_hash.
Listener = Callable[[str, dict, datetime, dict], None]

_listeners: list[Listener] = []


def listen(listener: Listener) -> None:
    """Register `listener` (once: AppConfig.ready may run again in tests)."""
    if listener not in _listeners:
        _listeners.append(listener)


def emit(event_type: str, data: dict, *, occurred_at: datetime, **subject) -> None:
    """Tell the listeners. Call inside the transaction that makes the change."""
    for listener in _listeners:
        listener(event_type, data, occurred_at, subject)


def wanted(event_type: str) -> bool:
    """Whether some listener may want `event_type`: lets a caller skip building payloads
    (or running queries) for events nobody subscribes to."""
    return any(getattr(listener, "wants", lambda _: True)(event_type) for listener in _listeners)

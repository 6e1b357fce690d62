"""Delivering a subscription's events: signed, in order, at least once.

A run claims the subscription (a conditional UPDATE of `claimed_until`: one worker at a time
per subscription), then sends its pending deliveries oldest event first, each POST outside
any transaction (webhooks/sending.py: within WEBHOOKS_TIMEOUT_SECONDS, whatever the
receiver does) and its outcome recorded after, every attempt. A failure stops the run (the
next event waits for this one: per-subscription order) and schedules a retry with
exponential back-off and jitter; after WEBHOOKS_RETRY_HOURS of failures the delivery is
given up and the subscription disabled, with the reason on it. The claim lasts
WEBHOOKS_CLAIM_SECONDS (longer than an attempt can) from each attempt: a worker killed
mid-delivery leaves the delivery pending, and the sweep hands it to another run once the
claim has run out (the receiver may then see its webhook-id twice: at least once).

A run given a budget stops starting attempts once it is spent: the task queues the
subscription's next run behind the others' (webhooks/tasks.py), so that one subscription
with many events, or a slow receiver, holds a worker for about one deadline at a time.
A secret that cannot be decrypted (SECRET_KEY changed without WEBHOOKS_SECRET_KEY) stops
the run without an attempt, logged as an error: nothing is sent, retried nor disabled until
the key is back (/readyz says so too).
"""

import logging
import random
import time
import uuid
from datetime import timedelta

from cryptography.fernet import InvalidToken
from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from webhooks import routing
from webhooks.models import Delivery, DeliveryAttempt, DeliveryState, Subscription
from webhooks.sending import Outcome, Sender, send

logger = logging.getLogger(__name__)


def backoff(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failure: doubling from WEBHOOKS_RETRY_BASE_SECONDS up
    to WEBHOOKS_RETRY_MAX_DELAY_SECONDS, then a random half of it taken off (jitter, so that
    the subscribers of one outage do not all come back at once)."""
    ceiling = min(settings.WEBHOOKS_RETRY_BASE_SECONDS * 2 ** max(0, attempts - 1),
                  settings.WEBHOOKS_RETRY_MAX_DELAY_SECONDS)
    return timedelta(seconds=random.uniform(ceiling / 2, ceiling))


# The runs --------------------------------------------------------------------------------


def head_due(now):
    """Subscriptions whose oldest pending delivery is due, enabled and not claimed."""
    head = (Delivery.objects.filter(subscription=OuterRef("pk"), state=DeliveryState.PENDING)
            .order_by("event_id").values("next_attempt_at")[:1])
    return (Subscription.objects.filter(enabled=True)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .annotate(head_at=Subquery(head)).filter(head_at__lte=now))


def is_due(subscription_id) -> bool:
    return head_due(timezone.now()).filter(pk=subscription_id).exists()


def subscription_deliver(subscription_id, *, budget: float | None = None) -> int:
    """One delivery run (the task's): returns how many deliveries it delivered. With a
    `budget` (seconds), no attempt starts after it is spent."""
    delivered = 0
    stop_at = None if budget is None else time.monotonic() + budget
    with Sender() as sender:
        while True:
            token = _claim(subscription_id)
            if token is None:
                return delivered
            try:
                delivered += _drain(subscription_id, token, sender, stop_at)
            except InvalidToken:
                logger.error("Webhook subscription %s: its signing secret cannot be decrypted "
                             "(SECRET_KEY changed without WEBHOOKS_SECRET_KEY?); nothing is "
                             "sent until the key it was sealed under is set again.",
                             subscription_id)
                return delivered
            finally:
                Subscription.objects.filter(pk=subscription_id, claim_token=token).update(
                    claimed_until=None, claim_token=None)
            # An event committed while we held the claim may have seen its run turned away.
            if _spent(stop_at) or not is_due(subscription_id):
                return delivered


def _spent(stop_at: float | None) -> bool:
    return stop_at is not None and time.monotonic() >= stop_at


def _claim(subscription_id) -> uuid.UUID | None:
    now, token = timezone.now(), uuid.uuid4()
    taken = (Subscription.objects.filter(pk=subscription_id, enabled=True)
             .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
             .update(claimed_until=now + timedelta(seconds=settings.WEBHOOKS_CLAIM_SECONDS),
                     claim_token=token))
    return token if taken else None


def _drain(subscription_id, token, sender: Sender | None, stop_at: float | None = None) -> int:
    delivered = 0
    while not _spent(stop_at):
        now = timezone.now()
        head = (Delivery.objects.filter(subscription_id=subscription_id,
                                        state=DeliveryState.PENDING)
                .select_related("event", "subscription").order_by("event_id").first())
        if head is None or head.next_attempt_at > now or not head.subscription.enabled:
            return delivered
        renewed = Subscription.objects.filter(pk=subscription_id, claim_token=token).update(
            claimed_until=now + timedelta(seconds=settings.WEBHOOKS_CLAIM_SECONDS))
        if not renewed:  # our claim ran out and another run took the subscription
            return delivered
        outcome = send(head, sender=sender)  # InvalidToken: the run stops, unrecorded
        record_outcome(head, outcome)
        if not outcome.ok:
            return delivered
        delivered += 1
    return delivered


def record_outcome(delivery: Delivery, outcome: Outcome, now=None) -> None:
    """Log the attempt and move the delivery on: delivered, retried later, or given up (and
    the subscription disabled)."""
    now = now or timezone.now()
    changes = {"attempts": delivery.attempts + 1, "last_attempt_at": now,
               "last_status_code": outcome.status_code, "last_error": outcome.error}
    if outcome.ok:
        changes.update(state=DeliveryState.DELIVERED, delivered_at=now)
    elif now - delivery.pending_since >= timedelta(hours=settings.WEBHOOKS_RETRY_HOURS):
        changes.update(state=DeliveryState.FAILED)
    else:
        changes.update(next_attempt_at=now + backoff(changes["attempts"]))
    with transaction.atomic():
        DeliveryAttempt.objects.create(
            delivery=delivery, attempted_at=now, status_code=outcome.status_code,
            latency_ms=outcome.latency_ms, ok=outcome.ok, error=outcome.error,
            response_excerpt=outcome.excerpt)
        # Only from pending: a redelivery meanwhile must not be undone.
        Delivery.objects.filter(pk=delivery.pk, state=DeliveryState.PENDING).update(**changes)
        if changes.get("state") == DeliveryState.FAILED:
            _disable(delivery, outcome, now)
    for name, value in changes.items():
        setattr(delivery, name, value)


def _disable(delivery: Delivery, outcome: Outcome, now) -> None:
    reason = (f"Disabled at {now:%Y-%m-%d %H:%M:%S}Z: deliveries failed for "
              f"{settings.WEBHOOKS_RETRY_HOURS} hours (last: {outcome.error or 'no answer'}). "
              "Fix the receiver, then set enabled to true: pending events are sent again.")
    Subscription.objects.filter(pk=delivery.subscription_id, enabled=True).update(
        enabled=False, disabled_at=now, disabled_reason=reason, updated_at=now)
    routing.forget()
    logger.warning("Webhook subscription %s disabled: %s", delivery.subscription_id, reason)

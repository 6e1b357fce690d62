"""Delivering a subscription's events: signed, in order, at least once.

A run claims the subscription (a conditional UPDATE of `claimed_until`: one worker at a time
per subscription), then sends its pending deliveries oldest event first, each POST outside
any transaction and its outcome recorded after. A failure stops the run (the next event
waits for this one: per-subscription order) and schedules a retry with exponential back-off
and jitter; after WEBHOOKS_RETRY_HOURS of failures the delivery is given up and the
subscription disabled, with the reason on it. The claim lasts WEBHOOKS_CLAIM_SECONDS from
each attempt: a worker killed mid-delivery leaves the delivery pending, and the sweep hands
it to another run once the claim has run out (the receiver may then see its webhook-id
twice: at least once).

Signing is Standard Webhooks' (the `standardwebhooks` package): `webhook-id` (the
delivery's id, the same at every attempt), `webhook-timestamp` (the attempt's), and
`webhook-signature`, one `v1,...` per secret in force (two during a rotation's overlap).
"""

import json
import logging
import random
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone
from standardwebhooks import Webhook

from registry.rpc_transport import RpcRefusal, rpc_session
from webhooks import routing
from webhooks.models import Delivery, DeliveryAttempt, DeliveryState, Subscription
from webhooks.secrets import unseal

logger = logging.getLogger(__name__)
PRIVATE_SETTING = "WEBHOOKS_ALLOW_PRIVATE"
EXCERPT_CHARS = 1000
MAX_ANSWER_BYTES = 64 * 1024  # read no more of a receiver's answer
USER_AGENT = "chain-registry-webhooks/1"


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status_code: int | None = None
    latency_ms: int = 0
    error: str = ""
    excerpt: str = ""


def scheme_refusal(url: str) -> str | None:
    """Why a subscription's URL is refused by its scheme, or None."""
    scheme = urlsplit(url).scheme.lower()
    if scheme == "https" or (scheme == "http" and settings.WEBHOOKS_ALLOW_PRIVATE):
        return None
    return "Only https URLs are allowed (http too when WEBHOOKS_ALLOW_PRIVATE is true)."


def signing_secrets(subscription: Subscription, now) -> list[str]:
    found = [unseal(subscription.secret_encrypted)]
    expires = subscription.previous_secret_expires_at
    if subscription.previous_secret_encrypted and expires is not None and expires > now:
        found.append(unseal(subscription.previous_secret_encrypted))
    return found


def signed_request(delivery: Delivery, now: datetime) -> tuple[bytes, dict]:
    """The body and headers of one attempt."""
    body = json.dumps(delivery.event.payload(), separators=(",", ":"), ensure_ascii=False)
    at = now.astimezone(UTC)
    signatures = " ".join(Webhook(secret).sign(delivery.webhook_id, at, body)
                          for secret in signing_secrets(delivery.subscription, now))
    return body.encode(), {
        "content-type": "application/json", "user-agent": USER_AGENT,
        "webhook-id": delivery.webhook_id, "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signatures,
    }


def send(delivery: Delivery, *, session: requests.Session | None = None) -> Outcome:
    """POST the delivery once (network only; nothing is written)."""
    url = delivery.subscription.url
    refusal = scheme_refusal(url)
    if refusal is not None:
        return Outcome(False, error="scheme refused")
    body, headers = signed_request(delivery, timezone.now())
    session = session or webhook_session()
    started = time.monotonic()
    try:
        response = session.post(url, data=body, headers=headers,
                                 timeout=settings.WEBHOOKS_TIMEOUT_SECONDS)
    except RpcRefusal as exc:
        return Outcome(False, latency_ms=_ms(started), error=str(exc)[:200])
    except requests.Timeout:
        return Outcome(False, latency_ms=_ms(started),
                       error=f"timed out after {settings.WEBHOOKS_TIMEOUT_SECONDS} s")
    except requests.RequestException as exc:
        # requests wraps a refused peer in a ConnectionError: keep our own words for it.
        refusal = _refusal_inside(exc)
        return Outcome(False, latency_ms=_ms(started),
                       error=str(refusal)[:200] if refusal else "connection failed")
    excerpt = response.content[:EXCERPT_CHARS * 4].decode("utf-8", "replace")[:EXCERPT_CHARS]
    return Outcome(200 <= response.status_code < 300, response.status_code, _ms(started),
                   "" if response.ok else f"HTTP {response.status_code}", excerpt)


def _refusal_inside(exc: BaseException) -> RpcRefusal | None:
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, RpcRefusal):
            return exc
        exc = exc.__cause__ or exc.__context__ or next(
            (a for a in getattr(exc, "args", ()) if isinstance(a, BaseException)), None)
    return None


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def webhook_session() -> requests.Session:
    """requests with the RPC endpoints' address rules under WEBHOOKS_ALLOW_PRIVATE: no
    redirects, no proxies, peers checked at connection, answers cut at 64 KiB."""
    return rpc_session(private_setting=PRIVATE_SETTING, max_bytes=MAX_ANSWER_BYTES,
                       truncate=True)


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


def subscription_deliver(subscription_id, *, session: requests.Session | None = None) -> int:
    """One delivery run (the task's): returns how many deliveries it delivered."""
    delivered = 0
    session = session or webhook_session()
    while True:
        token = _claim(subscription_id)
        if token is None:
            return delivered
        try:
            delivered += _drain(subscription_id, token, session)
        finally:
            Subscription.objects.filter(pk=subscription_id, claim_token=token).update(
                claimed_until=None, claim_token=None)
        # An event committed while we held the claim may have seen its own run turned away.
        if not head_due(timezone.now()).filter(pk=subscription_id).exists():
            return delivered


def _claim(subscription_id) -> uuid.UUID | None:
    now, token = timezone.now(), uuid.uuid4()
    taken = (Subscription.objects.filter(pk=subscription_id, enabled=True)
             .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
             .update(claimed_until=now + timedelta(seconds=settings.WEBHOOKS_CLAIM_SECONDS),
                     claim_token=token))
    return token if taken else None


def _drain(subscription_id, token, session) -> int:
    delivered = 0
    while True:
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
        outcome = send(head, session=session)
        record_outcome(head, outcome)
        if not outcome.ok:
            return delivered
        delivered += 1


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
        enabled=False, disabled_at=now, disabled_reason=reason)
    routing.forget()
    logger.warning("Webhook subscription %s disabled: %s", delivery.subscription_id, reason)

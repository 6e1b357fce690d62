"""Webhook workflows: subscribing (at most WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY per key),
rotating a secret, enabling again, redelivering (the periodic sweep: webhooks/sweep.py)."""

from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from core.errors import Conflict, Invalid
from registry.authentication import KeyHolder
from registry.models import ApiKey, KeyScope
from registry.rpc_transport import host_refusal
from webhooks import queueing, routing
from webhooks.models import ADMIN_EVENT_TYPES, Delivery, DeliveryState, Subscription
from webhooks.secrets import new_secret, seal
from webhooks.sending import PRIVATE_SETTING, scheme_refusal

DEFAULT_OVERLAP_SECONDS = 24 * 3600


def url_refusal(url: str) -> str | None:
    """Why a subscription may not have this URL (on save: no DNS lookup; every delivery
    checks the addresses it connects to)."""
    refusal = scheme_refusal(url)
    if refusal is not None:
        return refusal
    host = urlsplit(url).hostname or ""
    reason = host_refusal(host, PRIVATE_SETTING)
    return f"This host is refused: {reason}." if reason else None


def check_subscription(*, holder: KeyHolder, url: str, event_types: list[str]) -> None:
    errors = {}
    refusal = url_refusal(url)
    if refusal:
        errors["url"] = [refusal]
    admin_only = sorted(set(event_types) & ADMIN_EVENT_TYPES)
    if admin_only and holder.scope != KeyScope.ADMIN:
        errors["event_types"] = [f"{', '.join(admin_only)}: for admin keys only."]
    if errors:
        raise Invalid(errors)


# The PostgreSQL advisory locks of subscription creation: (this class, a hash of the key).
_CREATE_LOCK_CLASS = 0x5EB


def subscription_create(*, holder: KeyHolder, **fields) -> tuple[Subscription, str]:
    """A new subscription of `holder`'s and its secret (shown this once); a 409 when the key
    has WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY already (each subscription is a delivery per
    event: the fan-out is bounded per key)."""
    check_subscription(holder=holder, url=fields["url"], event_types=fields["event_types"])
    secret = new_secret()
    limit = settings.WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY
    with transaction.atomic():
        if connection.vendor == "postgresql":  # two creations at once count one after the other
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                               [_CREATE_LOCK_CLASS, holder.prefix])
        if Subscription.objects.filter(owner=holder.prefix).count() >= limit:
            raise Conflict(f"This key has {limit} subscriptions, the most allowed "
                           "(WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY): delete one first.",
                           code="subscription_limit")
        subscription = Subscription.objects.create(
            owner=holder.prefix, owner_is_admin=holder.scope == KeyScope.ADMIN,
            secret_encrypted=seal(secret), **fields)
    routing.forget()
    return subscription, secret


def _key_revoked(owner: str) -> bool:
    return ApiKey.objects.filter(prefix=owner.removeprefix("crk_"),
                                 revoked_at__isnull=False).exists()


def subscription_update(subscription: Subscription, *, holder: KeyHolder, **changes) -> None:
    """Apply `changes`; enabling a disabled subscription clears why it was disabled and sends
    its pending deliveries again from now (with a fresh retry period)."""
    check_subscription(holder=holder, url=changes.get("url", subscription.url),
                       event_types=changes.get("event_types", subscription.event_types))
    now = timezone.now()
    enabling = changes.get("enabled") is True and not subscription.enabled
    if enabling and _key_revoked(subscription.owner):
        raise Conflict(f"Its key {subscription.owner} was revoked: this subscription stays "
                       "disabled.", code="owner_key_revoked")
    with transaction.atomic():
        for name, value in changes.items():
            setattr(subscription, name, value)
        if enabling:
            subscription.disabled_at, subscription.disabled_reason = None, ""
            subscription.deliveries.filter(state=DeliveryState.PENDING).update(
                next_attempt_at=now, pending_since=now)
            transaction.on_commit(lambda: queueing.queue_run(subscription.pk), robust=True)
        subscription.save()
    routing.forget()


def subscriptions_end_for_keys(*, prefixes: list[str], now) -> None:
    """A revoked (or deleted) key's subscriptions are disabled, saying why, in the revoking
    transaction (registry/holdings.py): the next event is not delivered to them, and they are
    not enabled again while their key is revoked."""
    for prefix in prefixes:
        Subscription.objects.filter(owner=prefix, enabled=True).update(
            enabled=False, disabled_at=now, updated_at=now,
            disabled_reason=f"Its key {prefix} was revoked: a revoked key's subscriptions "
            "receive nothing.")
    routing.forget()  # this process; the others read the subscriptions again (routing.py)
    transaction.on_commit(routing.forget)


def subscription_rotate_secret(subscription: Subscription, *,
                               overlap_seconds: int = DEFAULT_OVERLAP_SECONDS) -> str:
    """A new secret (returned, shown once); the current one keeps signing beside it for
    `overlap_seconds` (0: not at all), so that receivers can switch without a gap."""
    secret = new_secret()
    now = timezone.now()
    with transaction.atomic():
        locked = Subscription.objects.select_for_update().get(pk=subscription.pk)
        locked.previous_secret_encrypted = locked.secret_encrypted if overlap_seconds else ""
        locked.previous_secret_expires_at = (now + timedelta(seconds=overlap_seconds)
                                             if overlap_seconds else None)
        locked.secret_encrypted = seal(secret)
        locked.save(update_fields=["secret_encrypted", "previous_secret_encrypted",
                                   "previous_secret_expires_at", "updated_at"])
    subscription.refresh_from_db()
    return secret


def delivery_redeliver(delivery: Delivery) -> Delivery:
    """Send a delivery again (delivered or given up): back to pending, due now, with the same
    webhook-id. It is its subscription's oldest event again, so it goes first."""
    if not delivery.subscription.enabled:
        raise Conflict("This subscription is disabled: enable it first.",
                       code="subscription_disabled")
    now = timezone.now()
    with transaction.atomic():
        Delivery.objects.filter(pk=delivery.pk).update(
            state=DeliveryState.PENDING, next_attempt_at=now, pending_since=now,
            delivered_at=None)
        transaction.on_commit(lambda: queueing.queue_run(delivery.subscription_id),
                              robust=True)
    delivery.refresh_from_db()
    return delivery

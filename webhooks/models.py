"""Webhook subscriptions, document watches, and the outbox: events and their deliveries.

An `Event` is one row written in the transaction of the change that caused it, whatever the
number of subscribers; after the commit the webhooks worker fans it out: one `Delivery` per
subscription it is routed to (webhooks/outbox.py). A delivery's id is the `webhook-id` its
receiver deduplicates on, the same at every attempt. A subscription's deliveries go out one
at a time in event order, by the worker that holds the subscription's claim
(`claimed_until`): a worker killed mid-delivery loses the claim when it runs out, and the
sweep hands the delivery to another (webhooks/delivery.py).
"""

import uuid
from datetime import UTC, datetime

from django.db import models
from django.utils import timezone


def iso_z(at: datetime) -> str:
    """The API's time format: ISO 8601 UTC with Z, to the second."""
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class EventType(models.TextChoices):
    WORKFLOW_STATE_CHANGED = "workflow.state_changed"
    WORKFLOW_CONFIRMED = "workflow.confirmed"
    WORKFLOW_FAILED = "workflow.failed"
    DOCUMENT_VERIFIED = "document.verified"
    DOCUMENT_REVOKED = "document.revoked"
    EXECUTOR_STATUS_CHANGED = "executor.status_changed"
    RPC_ENDPOINT_STATUS_CHANGED = "rpc_endpoint.status_changed"
    CHAIN_STATUS_CHANGED = "chain.status_changed"
    CHAIN_STALLED = "chain.stalled"
    CHAIN_RESUMED = "chain.resumed"
    ISSUER_IDENTITY_LAPSED = "issuer.identity_lapsed"


# Administrators' data (the executor registry, RPC endpoints and issuers are the admin API's).
ADMIN_EVENT_TYPES = frozenset({EventType.EXECUTOR_STATUS_CHANGED,
                               EventType.RPC_ENDPOINT_STATUS_CHANGED,
                               EventType.ISSUER_IDENTITY_LAPSED})
WORKFLOW_EVENT_TYPES = frozenset({EventType.WORKFLOW_STATE_CHANGED, EventType.WORKFLOW_CONFIRMED,
                                  EventType.WORKFLOW_FAILED})
DOCUMENT_EVENT_TYPES = frozenset({EventType.DOCUMENT_VERIFIED, EventType.DOCUMENT_REVOKED})


class Subscription(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.CharField(max_length=100, help_text="Prefix of the key that created it.")
    owner_is_admin = models.BooleanField(
        default=False, help_text="Created with an admin key: may receive every event.")
    url = models.URLField(max_length=2000)
    event_types = models.JSONField(default=list, help_text="The event types it receives.")
    chain_id = models.BigIntegerField(null=True, blank=True,
                                      help_text="Only events of this chain.")
    workflow_id = models.UUIDField(null=True, blank=True, help_text="Only this workflow's events.")
    document_hash = models.CharField(max_length=66, blank=True,
                                     help_text="Only events of this document hash.")
    description = models.CharField(max_length=200, blank=True)
    # Fernet tokens (webhooks/secrets.py); the clear secret is shown once, at creation or
    # rotation. The previous secret still signs until it expires (rotation with overlap).
    secret_encrypted = models.TextField(editable=False)
    previous_secret_encrypted = models.TextField(blank=True, editable=False)
    previous_secret_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    enabled = models.BooleanField(default=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=500, blank=True,
                                       help_text="Why the service disabled it.")
    # Whoever holds the claim delivers this subscription's events, in order.
    claimed_until = models.DateTimeField(null=True, blank=True, editable=False)
    claim_token = models.UUIDField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    # Moved by every change, an UPDATE's too: a process reads the subscriptions again when
    # their count or latest updated_at moved (webhooks/routing.py).
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "id"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="webhook_owner_idx")]

    def __str__(self):
        return f"{self.url} ({', '.join(self.event_types)})"


class Watch(models.Model):
    """A document hash a key wants document.verified / document.revoked events about."""

    owner = models.CharField(max_length=100, help_text="Prefix of the key that watches.")
    document_hash = models.CharField(max_length=66)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "watches"
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["owner", "document_hash"],
                                               name="unique_watch_per_owner")]
        indexes = [models.Index(fields=["document_hash"], name="watch_document_idx")]

    def __str__(self):
        return f"{self.owner} watches {self.document_hash}"


class Event(models.Model):
    """Something that happened, as its subscribers receive it. The id orders a
    subscription's deliveries (the order the events were recorded in)."""

    type = models.CharField(max_length=40, choices=EventType.choices)
    occurred_at = models.DateTimeField()
    data = models.JSONField()
    # Whom it concerns (core/events.py: owner, chain_id, workflow_id, document_hash): the
    # fan-out routes it with this.
    subject = models.JSONField(default=dict)
    fanned_out = models.BooleanField(default=False, help_text="Its deliveries are written.")

    class Meta:
        ordering = ["-id"]
        indexes = [
            # The fan-out's queue: the events still without their deliveries, oldest first.
            models.Index(fields=["id"], name="event_fan_out_idx",
                         condition=models.Q(fanned_out=False)),
        ]

    def __str__(self):
        return f"{self.type} #{self.pk}"

    def payload(self) -> dict:
        """The body sent: Standard Webhooks' recommended envelope."""
        return {"type": self.type, "timestamp": iso_z(self.occurred_at), "data": self.data}


class DeliveryState(models.TextChoices):
    PENDING = "pending"  # to send, or to retry at next_attempt_at
    DELIVERED = "delivered"  # the receiver answered 2xx
    FAILED = "failed"  # given up after WEBHOOKS_RETRY_HOURS of failures


class Delivery(models.Model):
    """One event for one subscription. Its id is the `webhook-id` header."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE,
                                     related_name="deliveries", db_index=False)
    state = models.CharField(max_length=16, choices=DeliveryState.choices,
                             default=DeliveryState.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    pending_since = models.DateTimeField(
        default=timezone.now, help_text="Retries end WEBHOOKS_RETRY_HOURS after this.")
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-event_id"]
        verbose_name_plural = "deliveries"
        constraints = [models.UniqueConstraint(fields=["subscription", "event"],
                                               name="unique_delivery_per_event")]
        indexes = [
            # A subscription's queue: its oldest pending delivery first.
            models.Index(fields=["subscription", "event"], name="delivery_queue_idx",
                         condition=models.Q(state="pending")),
        ]

    def __str__(self):
        return f"{self.event} to {self.subscription_id} ({self.state})"

    @property
    def webhook_id(self) -> str:
        return f"msg_{self.id.hex}"


class DeliveryAttempt(models.Model):
    """One POST to the subscriber: what it answered, how fast."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempts_made")
    attempted_at = models.DateTimeField(default=timezone.now)
    status_code = models.PositiveIntegerField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(default=0)
    ok = models.BooleanField(default=False)
    error = models.CharField(max_length=200, blank=True,
                             help_text="Our words for a failure without an answer.")
    response_excerpt = models.TextField(blank=True, help_text="The answer's first characters.")

    class Meta:
        ordering = ["-attempted_at", "-id"]

    def __str__(self):
        return f"attempt at {self.attempted_at:%Y-%m-%d %H:%M:%S}: {self.status_code or self.error}"

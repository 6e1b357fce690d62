import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from core.masking import mask_url
from core.validators import validate_address
from registry.models import Chain


class ExecutorStatus(models.TextChoices):
    HEALTHY = "healthy"  # lease valid
    STALE = "stale"  # lease expired, within grace
    OFFLINE = "offline"  # past grace
    DRAINING = "draining"  # says so itself; takes no new work
    DEREGISTERED = "deregistered"  # removed by an administrator


# Statuses whose executor holds a lease: past it, they read as stale (see current_status).
LIVE_STATUSES = (ExecutorStatus.HEALTHY, ExecutorStatus.DRAINING)


def lease_seconds() -> int:
    return settings.EXECUTOR_LEASE_SECONDS


def heartbeat_interval_seconds() -> int:
    # Three heartbeats per lease: one lost packet does not make an executor stale.
    return max(1, lease_seconds() // 3)


class ExecutorQuerySet(models.QuerySet):
    def trusted(self):
        return self.filter(trust_revoked_at__isnull=True)

    def showing(self, status: str, now=None):
        """Executors whose current_status() is `status`: the same rule, as a query."""
        now = now or timezone.now()
        if status == ExecutorStatus.STALE:
            lapsed = models.Q(status__in=LIVE_STATUSES, lease_expires_at__lte=now)
            return self.filter(models.Q(status=status) | lapsed)
        if status in LIVE_STATUSES:
            return self.filter(status=status, lease_expires_at__gt=now)
        return self.filter(status=status)


class Executor(models.Model):
    """A document-binding executor of one chain, kept alive by heartbeats (a lease).

    `status` is stored because it is indexed and every change of it is recorded; what can be
    derived is: a healthy executor whose lease has run out reads as stale before the sweep.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # No index of its own: unique (chain, address) leads with chain. Nor are status and
    # lease_expires_at indexed (see Meta): a heartbeat or a sweep that changes no indexed
    # column is a heap-only (HOT) update, which writes no index entry at all.
    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="executors",
                              db_index=False)
    address = models.CharField(max_length=42, validators=[validate_address],
                               help_text="0x + 40 lowercase hex digits")
    name = models.CharField(max_length=100, blank=True)
    endpoint_url = models.CharField(max_length=500, blank=True)
    version = models.CharField(max_length=64, blank=True)
    capabilities = models.JSONField(default=list, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    registered_by = models.CharField(max_length=100, help_text="Prefix of the key that registered it.")

    status = models.CharField(max_length=16, choices=ExecutorStatus.choices, default=ExecutorStatus.HEALTHY)
    status_changed_at = models.DateTimeField(default=timezone.now)
    registered_at = models.DateTimeField(default=timezone.now)
    last_heartbeat_at = models.DateTimeField(null=True, blank=True)
    lease_expires_at = models.DateTimeField()
    pending_jobs = models.PositiveIntegerField(null=True, blank=True)
    head_block = models.PositiveBigIntegerField(null=True, blank=True)
    trust_revoked_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when an administrator revokes its trust."
    )

    objects = ExecutorQuerySet.as_manager()

    class Meta:
        ordering = ["chain_id", "registered_at"]
        constraints = [
            models.UniqueConstraint(fields=["chain", "address"], name="unique_executor_address"),
        ]
        # No index on status or lease_expires_at: every heartbeat renews the lease and a
        # sweep may move every row at once, and both are heap-only updates (HOT: no index
        # entry written, far less WAL) only when no indexed column changes and the page has
        # room (fillfactor 50 on PostgreSQL, migration 0002). What reads by status (sweeps,
        # per-chain counts, the admin's filter) scans the table: ~10 ms per 100,000 rows.
        indexes = []

    def __str__(self):
        return f"{self.name or self.address} on {self.chain_id}"

    @property
    def masked_endpoint_url(self) -> str:
        return mask_url(self.endpoint_url) if self.endpoint_url else ""

    @property
    def is_trusted(self) -> bool:
        return self.trust_revoked_at is None

    def current_status(self, now=None) -> str:
        """The status as of now: a healthy or draining executor past its lease is stale,
        even before the sweep records it."""
        now = now or timezone.now()
        lapsed = self.lease_expires_at <= now
        if self.status in LIVE_STATUSES and lapsed:
            return ExecutorStatus.STALE
        return self.status

    def transition(self, to_status: str, *, cause: str, now) -> bool:
        """Move to `to_status`, recording the change; the caller saves the executor."""
        if to_status == self.status:
            return False
        ExecutorStatusChange.objects.create(
            executor=self, from_status=self.status, to_status=to_status, cause=cause, created_at=now
        )
        self.status = to_status
        self.status_changed_at = now
        return True

    def renew_lease(self, now) -> None:
        self.last_heartbeat_at = now
        self.lease_expires_at = now + timedelta(seconds=lease_seconds())


class ExecutorStatusChange(models.Model):
    """One transition of an executor's status, with its cause."""

    # Indexed by executor_change_recent_idx (executor first), not twice: a sweep can write
    # a hundred thousand of these at once.
    executor = models.ForeignKey(Executor, on_delete=models.CASCADE, related_name="status_changes",
                                 db_index=False)
    from_status = models.CharField(max_length=16, choices=ExecutorStatus.choices, blank=True)
    to_status = models.CharField(max_length=16, choices=ExecutorStatus.choices)
    cause = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["executor", "-created_at"], name="executor_change_recent_idx")]

    def __str__(self):
        return f"{self.from_status or '-'} -> {self.to_status} ({self.cause})"


class TrustedAttester(models.Model):
    """An address whose attestations count on a chain, besides the chain's executors."""

    chain = models.ForeignKey(Chain, on_delete=models.CASCADE, related_name="trusted_attesters")
    address = models.CharField(max_length=42, validators=[validate_address])
    note = models.CharField(max_length=200, blank=True)
    added_by = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["chain_id", "address"]
        constraints = [
            models.UniqueConstraint(fields=["chain", "address"], name="unique_trusted_attester"),
        ]

    def __str__(self):
        return f"{self.address} on {self.chain_id}"

    def clean(self):
        self.address = self.address.lower()  # after the field's validator: stored lowercase


class SelfPreservation(models.Model):
    """A chain whose lease sweep is holding back: too many executors would go offline at
    once, which more likely means the registry lost its network than that they all died.
    The row exists while the hold lasts."""

    chain = models.OneToOneField(Chain, on_delete=models.CASCADE, primary_key=True,
                                 related_name="self_preservation")
    since = models.DateTimeField(default=timezone.now)
    would_go_offline = models.PositiveIntegerField()
    executors = models.PositiveIntegerField(help_text="Executors not offline when it was checked.")
    checked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["chain_id"]
        verbose_name = "self-preservation hold"

    def __str__(self):
        return f"chain {self.chain_id}: holding {self.would_go_offline} of {self.executors}"

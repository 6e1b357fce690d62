from datetime import timedelta

from django.db import models
from django.db.models import OuterRef, Q, Subquery
from django.db.models.functions import Now
from django.utils import timezone

from core.masking import mask_url
from registry.models.chains import Chain


class ProbeStatus(models.TextChoices):
    UNKNOWN = "unknown"
    HEALTHY = "healthy"
    DEGRADED = "degraded"
    DOWN = "down"


class OverrideStatus(models.TextChoices):
    HEALTHY = "healthy"
    DEGRADED = "degraded"
    DOWN = "down"
    MAINTENANCE = "maintenance"


class RpcEndpointQuerySet(models.QuerySet):
    def with_health(self):
        """The override in force and the uptime figures, for showing endpoints."""
        return self.with_override().annotate(**uptime_annotations())

    def with_override(self):
        """Annotate the provider-health override in force, if any (one query, no N+1).

        The newest report that names the endpoint, or its provider, decides; a report
        with no status clears, and one whose `until` has passed no longer counts, so an
        earlier report still in force (a provider outage under a finished maintenance
        window of one endpoint) applies again.
        """
        latest = ProviderHealth.objects.filter(
            Q(rpc_endpoint=OuterRef("pk")) | Q(provider=OuterRef("provider"), provider__gt=""),
            Q(until__isnull=True) | Q(until__gt=Now()),
        ).order_by("-created_at", "-id")
        return self.annotate(
            override_status=Subquery(latest.values("status")[:1]),
            override_reason=Subquery(latest.values("reason")[:1]),
            override_until=Subquery(latest.values("until")[:1]),
            override_reported_at=Subquery(latest.values("created_at")[:1]),
        )


def uptime_annotations(now=None) -> dict:
    """Share of successful probes over the last hour and day (None without probes)."""
    now = now or timezone.now()
    figures = {}
    for name, hours in (("uptime_1h", 1), ("uptime_24h", 24)):
        window = RpcProbe.objects.filter(endpoint=OuterRef("pk"),
                                         checked_at__gte=now - timedelta(hours=hours))
        figures[name] = Subquery(
            window.values("endpoint").annotate(
                share=models.Avg(models.Case(models.When(ok=True, then=1.0), default=0.0,
                                             output_field=models.FloatField()))
            ).values("share")[:1],
            output_field=models.FloatField(),
        )
    return figures


class RpcEndpoint(models.Model):
    """An RPC endpoint of a chain, with what the probes measured of it."""

    chain = models.ForeignKey(Chain, on_delete=models.CASCADE, related_name="rpc_endpoints")
    url = models.CharField(max_length=1000, help_text="http(s) or ws(s) URL; shown masked.")
    provider = models.CharField(max_length=64, blank=True, db_index=True)
    priority = models.PositiveIntegerField(default=0, help_text="Lower is tried first.")
    monitoring_enabled = models.BooleanField(default=True)
    probe_interval_seconds = models.PositiveIntegerField(default=30)
    probe_timeout_ms = models.PositiveIntegerField(default=2000)

    # What the probes measured (filled by the RPC monitoring task).
    status = models.CharField(max_length=16, choices=ProbeStatus.choices, default=ProbeStatus.UNKNOWN)
    latency_ms = models.FloatField(null=True, blank=True)
    head_block = models.PositiveBigIntegerField(null=True, blank=True)
    lag_blocks = models.PositiveBigIntegerField(null=True, blank=True)
    consecutive_failures = models.PositiveIntegerField(default=0)
    consecutive_successes = models.PositiveIntegerField(default=0)
    observed_chain_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The chain id the endpoint last answered."
    )
    syncing = models.BooleanField(default=False, help_text="eth_syncing said it is catching up.")
    last_checked_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = RpcEndpointQuerySet.as_manager()

    class Meta:
        ordering = ["chain_id", "priority", "id"]
        verbose_name = "RPC endpoint"
        constraints = [
            models.UniqueConstraint(fields=["chain", "url"], name="unique_rpc_url_per_chain"),
        ]

    def __str__(self):
        return self.masked_url

    @property
    def masked_url(self) -> str:
        return mask_url(self.url)

    def active_override(self, now=None):
        """The override status in force, from `with_override()` annotations, or None."""
        status = getattr(self, "override_status", None)
        if status is None:
            return None
        until = self.override_until
        if until is not None and until <= (now or timezone.now()):
            return None
        return status

    @property
    def effective_status(self) -> str:
        return self.active_override() or self.status

    def is_probe_due(self, now) -> bool:
        if self.last_checked_at is None:
            return True
        return (now - self.last_checked_at).total_seconds() >= self.probe_interval_seconds

    @property
    def answers_for_its_chain(self) -> bool:
        """False while it last answered another chain's id: out of rotation until right."""
        return self.observed_chain_id is None or self.observed_chain_id == self.chain_id


class RpcProbe(models.Model):
    """One probe of an endpoint: the history behind its status and uptime figures.

    Kept for RPC_PROBE_RETENTION_HOURS; the probe task deletes older rows.
    """

    endpoint = models.ForeignKey(RpcEndpoint, on_delete=models.CASCADE, related_name="probes")
    checked_at = models.DateTimeField(default=timezone.now)
    ok = models.BooleanField()
    latency_ms = models.FloatField(null=True, blank=True)
    head_block = models.PositiveBigIntegerField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-checked_at", "-id"]
        verbose_name = "RPC probe"
        indexes = [
            models.Index(fields=["endpoint", "-checked_at"], name="rpc_probe_recent_idx"),
            models.Index(fields=["checked_at"], name="rpc_probe_retention_idx"),
        ]

    def __str__(self):
        return f"{self.endpoint_id} {'ok' if self.ok else 'failed'} at {self.checked_at:%H:%M:%S}"


class ProviderHealth(models.Model):
    """An administrator's statement about a provider's (or one endpoint's) health.

    Rows are history: never updated. The newest one in force overrides probe results.
    """

    provider = models.CharField(max_length=64, blank=True, db_index=True)
    rpc_endpoint = models.ForeignKey(
        RpcEndpoint, on_delete=models.CASCADE, null=True, blank=True, related_name="health_reports"
    )
    status = models.CharField(
        max_length=16, choices=OverrideStatus.choices, null=True, blank=True,
        help_text="Empty clears an earlier override.",
    )
    reason = models.TextField(blank=True)
    until = models.DateTimeField(null=True, blank=True)
    reported_by = models.CharField(max_length=100, blank=True, help_text="Key prefix or user.")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "provider health report"
        constraints = [
            models.CheckConstraint(
                condition=(Q(provider="") & Q(rpc_endpoint__isnull=False))
                | (~Q(provider="") & Q(rpc_endpoint__isnull=True)),
                name="health_names_provider_xor_endpoint",
            ),
        ]

    def __str__(self):
        target = self.provider or f"endpoint {self.rpc_endpoint_id}"
        return f"{target}: {self.status or 'cleared'}"

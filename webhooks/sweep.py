"""The periodic sweep of webhook deliveries (task `webhooks.sweep`, `manage.py
sweep_webhooks`): queue the runs a lost message or a killed worker left due, count the events
still waiting for their fan-out, and forget old settled events."""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from webhooks.delivery import head_due
from webhooks.models import Delivery, DeliveryState, Event


@dataclass
class SweepReport:
    queued: int = 0
    purged_events: int = 0
    waiting_events: int = 0

    def as_dict(self) -> dict:
        return {"queued": self.queued, "purgedEvents": self.purged_events,
                "waitingEvents": self.waiting_events}


def deliveries_sweep(*, queue, now=None) -> SweepReport:
    """Queue a run (`queue(subscription_id)`) for each subscription whose oldest pending
    delivery is due and that nobody holds (a lost message, a killed worker, a retry that
    came due), count the events still waiting for their fan-out, and forget events older
    than WEBHOOKS_RETENTION_DAYS that are settled."""
    now = now or timezone.now()
    report = SweepReport()
    for subscription_id in head_due(now).values_list("pk", flat=True):
        queue(subscription_id)
        report.queued += 1
    report.waiting_events = Event.objects.filter(fanned_out=False).count()
    cutoff = now - timedelta(days=settings.WEBHOOKS_RETENTION_DAYS)
    pending = Delivery.objects.filter(event=OuterRef("pk"), state=DeliveryState.PENDING)
    report.purged_events = (Event.objects.filter(occurred_at__lt=cutoff, fanned_out=True)
                            .exclude(Exists(pending)).delete()[1].get("webhooks.Event", 0))
    return report

"""The webhooks worker's tasks (queue `webhooks`: its own worker, so that no receiver holds up
lease expiry, tracking or the sweeps on `default`), and the periodic sweep (on `default`)."""

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from webhooks import queueing
from webhooks.delivery import is_due, subscription_deliver
from webhooks.outbox import fan_out
from webhooks.sweep import deliveries_sweep


@shared_task(name="webhooks.fan_out")
def fan_out_webhooks() -> dict:
    """Write the deliveries of the events committed since the last fan-out and queue their
    subscriptions' runs (queued after each commit that wrote events, and by the sweep)."""
    cache.delete(queueing.FAN_OUT_MARK)  # events from now on queue another fan-out
    done = fan_out()
    return {"events": done.events, "deliveries": done.deliveries}


@shared_task(name="webhooks.deliver")
def deliver_webhooks(subscription_id: str) -> int:
    """Deliver a subscription's due events, in order, for about one attempt's deadline; what
    is still due then waits for its next run, queued behind the other subscriptions' runs.
    Safe to run twice at once: one run holds the subscription."""
    cache.delete(queueing.run_mark(subscription_id))  # events from now on queue another run
    delivered = subscription_deliver(subscription_id, budget=settings.WEBHOOKS_TIMEOUT_SECONDS)
    if is_due(subscription_id):
        queueing.queue_run(subscription_id)
    return delivered


@shared_task(name="webhooks.sweep")
def sweep_webhooks() -> dict:
    """Periodic (Celery beat): queue the runs that are due and nobody holds, a fan-out when
    events wait for one; forget old settled events."""
    report = deliveries_sweep(queue=queueing.queue_run)
    if report.waiting_events:
        queueing.queue_fan_out()
    return report.as_dict()

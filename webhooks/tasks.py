from celery import shared_task
from django.core.cache import cache

from webhooks.delivery import subscription_deliver
from webhooks.outbox import queued_mark
from webhooks.services import deliveries_sweep


@shared_task(name="webhooks.deliver")
def deliver_webhooks(subscription_id: str) -> int:
    """Deliver a subscription's due events, in order (queued after a commit that wrote some,
    and by the sweep). Safe to run twice at once: one run holds the subscription."""
    cache.delete(queued_mark(subscription_id))  # events from now on queue another run
    return subscription_deliver(subscription_id)


@shared_task(name="webhooks.sweep")
def sweep_webhooks() -> dict:
    """Periodic (Celery beat): queue the runs that are due and nobody holds; forget old
    settled events."""
    return deliveries_sweep(queue=lambda pk: deliver_webhooks.delay(str(pk))).as_dict()

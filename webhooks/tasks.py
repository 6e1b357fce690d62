from celery import shared_task
from django.core.cache import cache

from webhooks.delivery import subscription_deliver
from webhooks.sweep import deliveries_sweep

# A queued delivery run of a subscription is remembered this long, so that a burst of events
# queues one run (the run forgets it as it starts, then reads every due delivery).
QUEUED_MARK_SECONDS = 30


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


class QueueRun:
    """After a commit (the outbox's events, a subscription enabled again, a redelivery):
    queue a delivery run of the subscription, unless one is queued."""

    def __init__(self, subscription_id):
        self.subscription_id = str(subscription_id)

    def __call__(self):
        if cache.add(queued_mark(self.subscription_id), 1, QUEUED_MARK_SECONDS):
            deliver_webhooks.delay(self.subscription_id)


def queued_mark(subscription_id) -> str:
    return f"webhooks:queued:{subscription_id}"

"""Queueing the webhooks worker's tasks (queue `webhooks`, CELERY_TASK_ROUTES): a fan-out
after a commit that wrote events, a delivery run of a subscription after its deliveries were
written or made due.

A queued task is remembered for QUEUED_MARK_SECONDS (a cache entry), so that a burst queues
one; the task forgets it as it starts, then reads everything there is. A lost message only
delays the work until the sweep (webhooks/services.py).

Without a broker (the embedded default) nothing is queued: `manage.py run_webhooks`, beside
the server (scripts/run.sh), fans out and delivers in a process of its own, so that no
request nor periodic task ever waits on a receiver.
"""

from celery import current_app
from django.conf import settings
from django.core.cache import cache

QUEUED_MARK_SECONDS = 30
FAN_OUT_MARK = "webhooks:fan-out-queued"


def run_mark(subscription_id) -> str:
    return f"webhooks:queued:{subscription_id}"


def queue_run(subscription_id) -> None:
    """Queue a delivery run of the subscription, unless one is queued."""
    _queue("webhooks.deliver", run_mark(subscription_id), [str(subscription_id)])


def queue_fan_out() -> None:
    """Queue a fan-out of the events written, unless one is queued."""
    _queue("webhooks.fan_out", FAN_OUT_MARK, [])


def _queue(task: str, mark: str, args: list) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # no broker: manage.py run_webhooks does it
    if cache.add(mark, 1, QUEUED_MARK_SECONDS):
        current_app.send_task(task, args=args)

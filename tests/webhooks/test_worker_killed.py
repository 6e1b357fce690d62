"""A real Celery worker (a subprocess on the real Redis broker and the pytest database)
killed with SIGKILL in the middle of a delivery: the receiver got the request, the worker
never recorded the answer. Its claim runs out, the sweep hands the subscription to another
worker, and the receiver gets the event again with the same webhook-id."""

import os
import signal
import threading
import time

import pytest
from celery import Celery
from django.db import connection

from tests.bindings.conftest import bind
from tests.webhooks.conftest import subscribe
from webhooks.models import Delivery, Subscription
from webhooks.outbox import fan_out
from webhooks.sweep import deliveries_sweep

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="the worker process needs the test database on a server"),
]

CLAIM_SECONDS = 3  # the worker's WEBHOOKS_CLAIM_SECONDS: how long a dead worker's claim holds


def send_delivery(broker_url: str, queue: str, subscription_id: str) -> None:
    app = Celery(broker=broker_url)
    app.send_task("webhooks.deliver", args=[subscription_id], queue=queue)
    app.close()


def wait_for(condition, seconds: float, what: str, log) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {seconds} s; the worker's log:\n{log()}")
        time.sleep(0.1)


def test_a_worker_sigkilled_mid_delivery_is_redelivered_with_the_same_id(
        api, receiver, document_schema, start_worker, broker_url, queue, monkeypatch):
    monkeypatch.setenv("WEBHOOKS_CLAIM_SECONDS", str(CLAIM_SECONDS))
    monkeypatch.setenv("WEBHOOKS_TIMEOUT_SECONDS", "2")
    monkeypatch.setenv("WEBHOOKS_ALLOW_PRIVATE", "true")
    subscription_id, secret = subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)
    fan_out()
    receiver.hold = release = threading.Event()

    worker = start_worker()
    send_delivery(broker_url, queue, subscription_id)
    wait_for(receiver.arrived.is_set, 30, "the receiver got no request", start_worker.log)
    os.killpg(worker.pid, signal.SIGKILL)  # mid-delivery: the answer is never recorded
    worker.wait(timeout=10)
    release.set()

    deliveries = list(Delivery.objects.filter(subscription_id=subscription_id)
                      .order_by("event_id"))  # creation, then the queue: two events
    assert [d.delivered_at for d in deliveries] == [None] * len(deliveries)
    assert len(receiver.received) == 1  # the first; the next waits for it (per-subscription order)
    # While the dead worker's claim holds, nobody takes the subscription...
    assert deliveries_sweep(queue=lambda pk: None).queued == 0
    # ...then the sweep hands it to a live worker, which sends the event again.
    receiver.hold = None
    time.sleep(CLAIM_SECONDS + 0.5)
    queued = []
    assert deliveries_sweep(queue=queued.append).queued == 1
    start_worker()
    send_delivery(broker_url, queue, str(queued[0]))
    wait_for(lambda: not Delivery.objects.filter(subscription_id=subscription_id,
                                                 delivered_at__isnull=True).exists(), 30,
             "the deliveries were not made again", start_worker.log)

    first, again, *rest = receiver.received
    assert first.webhook_id == again.webhook_id  # one id: the receiver can deduplicate
    assert first.verified(secret) == again.verified(secret)
    assert [r.webhook_id for r in rest] == [d.webhook_id for d in deliveries[1:]]
    assert Subscription.objects.get(pk=subscription_id).enabled

"""docker-compose.yml's `webhooks` worker (its command: queue `webhooks`, threads) on the real
Redis broker and the pytest database: a commit that writes events queues their fan-out
there, the fan-out queues the deliveries there, and two subscriptions whose receivers
dribble their answers do not hold up a third subscription's healthy receiver by more than
one attempt's deadline. Their attempts end at the deadline and are recorded."""

import time

import pytest
from celery import Celery
from django.db import connection

from config.celery import app as project_app
from registry.models import KeyScope
from tests.bindings.conftest import bind
from tests.celery.compose_workers import ComposeWorkers, broker  # noqa: F401
from tests.conftest import make_key
from tests.webhooks.conftest import client_for, subscribe
from tests.webhooks.dribbler import Dribbler
from webhooks.models import DeliveryAttempt

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'",
                       reason="the worker process needs the test database on a server"),
]
DEADLINE = 3  # the worker's WEBHOOKS_TIMEOUT_SECONDS


@pytest.fixture
def webhooks_worker(broker, tmp_path):  # noqa: F811
    workers = ComposeWorkers(tmp_path, broker)
    workers.start("webhooks", WEBHOOKS_TIMEOUT_SECONDS=str(DEADLINE),
                  WEBHOOKS_ALLOW_PRIVATE="true")
    try:
        workers.wait_ready()
        yield workers
    finally:
        workers.stop()


@pytest.fixture
def queueing_on(broker, settings):  # noqa: F811
    """This process queues as a service with a broker does: through a Celery app configured
    from the settings (the routes), on the test broker."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    client = Celery("test-webhooks")  # the current app while the test runs
    client.config_from_object("django.conf:settings", namespace="CELERY")
    client.conf.broker_url = client.conf.broker_write_url = broker
    yield client
    client.close()
    project_app.set_current()


def wait_for(condition, what: str, seconds: float, log) -> float:
    """Seconds until `condition` held."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < seconds, f"{what} within {seconds} s:\n{log()[-4000:]}"
        time.sleep(0.05)
        connection.close()  # a fresh read each time
    return time.monotonic() - started


def test_slow_receivers_delay_a_healthy_one_by_less_than_one_deadline(
        api, receiver, document_schema, webhooks_worker, queueing_on):
    slow = [Dribbler(mode=mode, every=0.5) for mode in ("headers", "body")]
    try:
        slow_ids = [subscribe(api, s.url, ["workflow.state_changed"])[0] for s in slow]
        subscribe(client_for(make_key(KeyScope.ADMIN)), receiver.url, ["workflow.state_changed"])

        bind(api)  # committed: two events, whose fan-out is queued on `webhooks`
        healthy_in = wait_for(lambda: len(receiver.received) == 2, "the healthy receiver's events",
                              30, lambda: webhooks_worker.log("webhooks"))
        slow_in = wait_for(lambda: DeliveryAttempt.objects.filter(
            delivery__subscription_id__in=slow_ids).count() == 2, "the slow attempts recorded",
            30, lambda: webhooks_worker.log("webhooks"))
    finally:
        for server in slow:
            server.close()

    assert all(s.requests == 1 for s in slow)  # both were being answered meanwhile
    assert healthy_in < DEADLINE, healthy_in
    attempts = DeliveryAttempt.objects.filter(delivery__subscription_id__in=slow_ids)
    assert {a.error for a in attempts} == {f"timed out after {DEADLINE} s"}
    assert all(DEADLINE * 1000 <= a.latency_ms < (DEADLINE + 1) * 1000 for a in attempts)
    assert healthy_in + slow_in < 2 * DEADLINE + 3  # the deadline, not the dribble (~20 s)
    log = webhooks_worker.log("webhooks")
    assert "Task webhooks.fan_out[" in log and "Task webhooks.deliver[" in log

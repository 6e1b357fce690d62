"""A receiver that dribbles its answer a byte at a time gets one attempt's deadline
(WEBHOOKS_TIMEOUT_SECONDS, connection to the last byte), and the attempt is recorded as a
failure with its reason; the claim outlasts the deadline (the settings refuse otherwise)."""

import subprocess
import sys
import time

import pytest
from django.conf import settings as django_settings

from tests.bindings.conftest import bind
from tests.webhooks.conftest import subscribe
from tests.webhooks.dribbler import Dribbler
from webhooks.delivery import subscription_deliver
from webhooks.models import Delivery, DeliveryAttempt
from webhooks.outbox import fan_out

pytestmark = pytest.mark.django_db
DEADLINE = 1  # seconds, for the test; 10 by default


@pytest.fixture
def dribbler(request):
    server = Dribbler(mode=request.param, every=0.25)
    yield server
    server.close()


@pytest.mark.parametrize("dribbler", ["headers", "body"], indirect=True)
def test_an_attempt_ends_at_its_deadline_however_slowly_the_receiver_answers(
        api, dribbler, document_schema, settings):
    settings.WEBHOOKS_TIMEOUT_SECONDS = DEADLINE
    subscription_id, _ = subscribe(api, dribbler.url, ["workflow.state_changed"])
    bind(api)  # two events: received, queued
    fan_out()

    started = time.monotonic()
    assert subscription_deliver(subscription_id) == 0  # the first failed: the run stops
    took = time.monotonic() - started

    assert DEADLINE <= took < DEADLINE + 1, took  # not a read timeout per byte
    assert dribbler.requests == 1
    (attempt,) = DeliveryAttempt.objects.all()
    assert (attempt.ok, attempt.status_code, attempt.error) == (False, None,
                                                                 f"timed out after {DEADLINE} s")
    assert DEADLINE * 1000 <= attempt.latency_ms < (DEADLINE + 1) * 1000
    first, second = Delivery.objects.order_by("event_id")
    assert (first.state, first.attempts, first.last_error) == (
        "pending", 1, f"timed out after {DEADLINE} s")
    assert first.next_attempt_at > attempt.attempted_at  # retried later, with back-off
    assert second.attempts == 0  # in order: the next waits


def test_a_run_with_a_budget_starts_no_attempt_after_it(api, receiver, document_schema):
    subscription_id, _ = subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)
    bind(api, document="0x" + "d1" * 32)  # four events
    fan_out()

    assert subscription_deliver(subscription_id, budget=0) == 0  # spent before it began
    assert subscription_deliver(subscription_id, budget=60) == 4


def _settings_in_a_process(**env) -> subprocess.CompletedProcess:
    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.WEBHOOKS_CLAIM_SECONDS)")
    return subprocess.run([sys.executable, "-c", code], cwd=django_settings.BASE_DIR,
                          env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings",
                               **env}, capture_output=True, text=True, timeout=60)


def test_the_claim_is_derived_from_the_deadline_and_never_shorter():
    derived = _settings_in_a_process(WEBHOOKS_TIMEOUT_SECONDS="4")
    assert derived.returncode == 0, derived.stderr
    assert derived.stdout.split()[-1] == "12"  # three deadlines

    refused = _settings_in_a_process(WEBHOOKS_TIMEOUT_SECONDS="10", WEBHOOKS_CLAIM_SECONDS="10")
    assert refused.returncode != 0
    assert "WEBHOOKS_CLAIM_SECONDS must be at least WEBHOOKS_TIMEOUT_SECONDS" in refused.stderr

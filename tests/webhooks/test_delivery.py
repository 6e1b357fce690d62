"""Delivery you can trust: at least once with a stable webhook-id, in order per subscription,
retried with back-off, given up (and the subscription disabled) after a day of failures,
redelivered after a worker dies mid-delivery."""

from datetime import timedelta
from uuid import UUID

import pytest
from django.db import transaction
from django.utils import timezone
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from bindings.models import Workflow, WorkflowState
from tests.bindings.conftest import bind
from tests.webhooks.conftest import client_for, deliver, deliver_all, subscribe
from webhooks import delivery as delivery_module
from webhooks.delivery import backoff
from webhooks.models import Delivery, DeliveryAttempt, Event, Subscription
from webhooks.outbox import fan_out
from webhooks.sending import NOT_KEPT
from webhooks.sweep import deliveries_sweep

pytestmark = pytest.mark.django_db


def documents(n: int) -> list[str]:
    return ["0x" + f"{i + 1:064x}" for i in range(n)]


def make_due(subscription_id) -> None:
    """Let the back-off pass."""
    Delivery.objects.filter(subscription_id=subscription_id, state="pending").update(
        next_attempt_at=timezone.now())


def test_a_receiver_down_then_back_gets_every_event_once_per_id_in_order(
        api, receiver, document_schema):
    subscription_id, secret = subscribe(api, receiver.url, ["workflow.state_changed"])
    receiver.stop()
    created = [bind(api, document=d).json()["workflowId"] for d in documents(3)]

    for _ in range(3):  # down: each run fails on the oldest event, and stops there
        assert deliver(subscription_id) == 0
        make_due(subscription_id)
    first = Delivery.objects.filter(subscription_id=subscription_id).order_by("event_id").first()
    assert first.attempts == 3 and first.last_error == "connection failed"
    assert Delivery.objects.filter(subscription_id=subscription_id, attempts=0).count() == 5

    receiver.start()
    receiver.status = 503  # up, but failing: still nothing past the first event
    assert deliver(subscription_id) == 0
    assert len(receiver.received) == 1 and receiver.received[0].webhook_id
    receiver.status = 200
    make_due(subscription_id)
    assert deliver(subscription_id) == 6

    payloads = [r.verified(secret) for r in receiver.received[1:]]
    assert [(p["data"]["workflowId"], p["data"]["to"]) for p in payloads] == [
        (w, state) for w in created for state in ("received", "queued")]
    ids = [r.webhook_id for r in receiver.received]
    assert ids[0] == ids[1]  # the retry of the 503 had the same id
    assert len(set(ids)) == 6
    attempts = DeliveryAttempt.objects.filter(delivery__subscription_id=subscription_id)
    assert attempts.count() == 3 + 1 + 6
    assert attempts.filter(status_code=503).count() == 1


def test_the_retries_back_off_exponentially_with_jitter_up_to_the_ceiling(settings):
    settings.WEBHOOKS_RETRY_BASE_SECONDS = 10
    settings.WEBHOOKS_RETRY_MAX_DELAY_SECONDS = 3600
    for attempts, ceiling in [(1, 10), (2, 20), (5, 160), (20, 3600)]:
        waits = {backoff(attempts).total_seconds() for _ in range(20)}
        assert all(ceiling / 2 <= w <= ceiling for w in waits)
        assert len(waits) > 1  # jitter


def test_after_a_day_of_failures_the_delivery_is_given_up_and_the_subscription_disabled(
        api, receiver, document_schema):
    subscription_id, _ = subscribe(api, receiver.url, ["workflow.state_changed"])
    receiver.status = 500
    bind(api)
    Delivery.objects.update(pending_since=timezone.now() - timedelta(hours=23))
    deliver(subscription_id)
    assert Subscription.objects.get(pk=subscription_id).enabled  # 23 h: still retrying

    Delivery.objects.update(pending_since=timezone.now() - timedelta(hours=24, seconds=1))
    make_due(subscription_id)
    deliver(subscription_id)
    states = list(Delivery.objects.order_by("event_id").values_list("state", flat=True))
    assert states == ["failed", "pending"]

    shown = api.get(f"/v1/webhooks/{subscription_id}").json()
    assert shown["enabled"] is False and shown["disabledAt"]
    assert "failed for 24 hours (last: HTTP 500)" in shown["disabledReason"]
    bind(api, document=documents(1)[0])  # a disabled subscription gets no new events
    assert Delivery.objects.count() == 2

    # Enabled again by its owner: the pending event goes out, with a fresh day of retries.
    receiver.status = 200
    assert api.patch(f"/v1/webhooks/{subscription_id}", {"enabled": True},
                     format="json").json()["disabledReason"] == ""
    assert deliver(subscription_id) == 1


def test_a_worker_killed_mid_delivery_leaves_it_to_be_redelivered_after_its_claim(
        api, receiver, document_schema, settings, monkeypatch):
    subscription_id, secret = subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)
    fan_out()
    real_send = delivery_module.send

    class Killed(BaseException):
        """What a SIGKILL looks like from inside: nothing after it runs."""

    def send_then_die(delivery, **kwargs):
        real_send(delivery, **kwargs)  # the receiver got it...
        raise Killed  # ...and the worker died before recording it

    monkeypatch.setattr(delivery_module, "send", send_then_die)
    with pytest.raises(Killed):
        delivery_module._drain(subscription_id, _claimed(subscription_id), None)
    monkeypatch.setattr(delivery_module, "send", real_send)

    # The claim still holds: the sweep leaves the subscription alone, a run is turned away.
    assert deliveries_sweep(queue=lambda pk: None).queued == 0
    assert deliver(subscription_id) == 0
    # Once the claim has run out, the sweep hands it to a run, which sends it again.
    Subscription.objects.filter(pk=subscription_id).update(
        claimed_until=timezone.now() - timedelta(seconds=1))
    queued = []
    assert deliveries_sweep(queue=queued.append).queued == 1
    assert deliver(queued[0]) == 2

    ids = [r.webhook_id for r in receiver.received]
    assert ids[0] == ids[1] and len(set(ids)) == 2  # the same webhook-id: deduplicable
    assert all(r.verified(secret) for r in receiver.received)


def _claimed(subscription_id):
    token = delivery_module._claim(subscription_id)
    assert token is not None
    return token


def test_a_rotated_secret_signs_beside_the_old_one_until_the_overlap_ends(
        api, receiver, document_schema):
    subscription_id, old = subscribe(api, receiver.url, ["workflow.state_changed"])
    rotated = api.post(f"/v1/webhooks/{subscription_id}/rotate-secret",
                       {"overlapSeconds": 3600}, format="json")
    assert rotated.status_code == 200
    new = rotated.json()["secret"]
    assert new != old and new.startswith("whsec_")
    bind(api)
    deliver_all()
    first = receiver.received[0]
    assert len(first.headers["webhook-signature"].split(" ")) == 2
    assert first.verified(old) and first.verified(new)

    api.post(f"/v1/webhooks/{subscription_id}/rotate-secret", {"overlapSeconds": 0},
             format="json")
    with transaction.atomic():
        Workflow.objects.get().transition(WorkflowState.EXPIRED, cause="too late")
    deliver_all()
    last = receiver.received[-1]
    with pytest.raises(WebhookVerificationError):
        Webhook(new).verify(last.body, last.headers)


def test_a_change_writes_one_event_row_and_the_fan_out_its_deliveries(
        api, admin_key, receiver, document_schema, settings):
    # Many subscriptions: the change's transaction still writes one row, and no delivery.
    settings.WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY = 30
    ids = [subscribe(client_for(admin_key), receiver.url, ["workflow.state_changed"])[0]
           for _ in range(30)]
    bind(api)  # received, queued: two events
    assert Event.objects.filter(fanned_out=False).count() == 2
    assert not Delivery.objects.exists()

    done = fan_out()
    assert (done.events, done.deliveries, done.subscriptions) == (2, 60, set(map(UUID, ids)))
    assert not Event.objects.filter(fanned_out=False).exists()
    assert fan_out().events == 0  # nothing twice
    assert deliver(ids[0]) == 2
    assert [p["data"]["to"] for p in receiver.payloads()] == ["received", "queued"]


def test_the_fan_out_skips_a_subscription_disabled_after_the_event(
        api, receiver, document_schema):
    subscription_id, _ = subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)
    Subscription.objects.filter(pk=subscription_id).update(enabled=False)
    assert fan_out().deliveries == 0
    assert not Delivery.objects.exists()


def test_a_redelivery_sends_the_event_again_with_the_same_id(api, receiver, document_schema):
    subscription_id, _ = subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)
    deliver_all()
    listed = api.get(f"/v1/webhooks/{subscription_id}/deliveries").json()["results"]
    assert [d["state"] for d in listed] == ["delivered", "delivered"]
    oldest = listed[-1]
    detail = api.get(f"/v1/webhooks/{subscription_id}/deliveries/{oldest['id']}").json()
    assert detail["recentAttempts"][0]["statusCode"] == 200
    # 127.0.0.1 is private: the answer's text is not shown to the subscriber.
    assert detail["recentAttempts"][0]["responseExcerpt"] == NOT_KEPT
    assert detail["payload"]["type"] == "workflow.state_changed"

    again = api.post(f"/v1/webhooks/{subscription_id}/deliveries/{oldest['id']}/redeliver")
    assert again.status_code == 202 and again.json()["state"] == "pending"
    deliver_all()
    assert receiver.received[-1].webhook_id == oldest["webhookId"] == receiver.received[0].webhook_id


def test_the_sweep_command_delivers_what_is_due_in_its_own_process(
        api, receiver, document_schema, capsys):
    import json

    from django.core.management import call_command

    subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)  # its commit's run never happened (the tests' transaction is not committed)
    call_command("sweep_webhooks", "--json")
    assert json.loads(capsys.readouterr().out) == {"fannedOut": 2, "queued": 1,
                                                   "purgedEvents": 0, "waitingEvents": 0,
                                                   "delivered": 2}
    assert len(receiver.received) == 2


def test_settled_events_are_forgotten_after_the_retention(api, receiver, document_schema,
                                                          settings):
    subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)
    deliver_all()
    Event.objects.update(occurred_at=timezone.now() - timedelta(days=31))
    assert deliveries_sweep(queue=lambda pk: None).purged_events == 2
    assert not Delivery.objects.exists() and not DeliveryAttempt.objects.exists()


def test_a_private_receiver_s_answer_is_not_kept_a_public_one_s_is(
        api, receiver, document_schema, monkeypatch):
    subscription_id, _ = subscribe(api, receiver.url, ["workflow.state_changed"])
    receiver.status = 503
    bind(api)
    deliver(subscription_id)
    (attempt,) = DeliveryAttempt.objects.all()
    assert (attempt.status_code, attempt.response_excerpt) == (503, NOT_KEPT)

    # No public receiver can be reached from the tests: 127.0.0.1 taken for one.
    monkeypatch.setattr("webhooks.sending.is_public", lambda address: address == "127.0.0.1")
    make_due(subscription_id)
    deliver(subscription_id)
    assert DeliveryAttempt.objects.first().response_excerpt == "not now"

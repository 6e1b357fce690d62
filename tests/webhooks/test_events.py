"""Each event type reaches a real receiver on 127.0.0.1, signed: Standard Webhooks' own
`Webhook.verify` accepts it. The changes are made through the API (or the service functions
the periodic tasks run); the events are written in their transactions."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from bindings.models import Workflow, WorkflowState
from executors.sweep import executor_leases_expire
from registry.models import KeyScope
from registry.probes import ProbeResult, apply_results
from tests.bindings.conftest import bind
from tests.conftest import make_key
from tests.factories import RpcEndpointFactory
from tests.proofs import address_of, register
from tests.webhooks.conftest import client_for, deliver_all, subscribe
from webhooks.models import Delivery, Event

pytestmark = pytest.mark.django_db
WORKFLOW_EVENTS = ["workflow.state_changed", "workflow.confirmed", "workflow.failed"]


def claim(executor_client, executor):
    response = executor_client.post("/v1/chain-registry/anvil/jobs/claim",
                                    {"executorId": str(executor.pk)}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["workflowId"]


def report(executor_client, executor, workflow_id, **result):
    response = executor_client.post(f"/v1/chain-registry/anvil/jobs/{workflow_id}/result",
                                    {"executorId": str(executor.pk), **result}, format="json")
    assert response.status_code == 200, response.content


def test_a_workflow_s_transitions_and_its_confirmation_are_delivered_signed_in_order(
        api, api_key, receiver, document_schema, my_executor, executor_client):
    _, secret = subscribe(api, receiver.url, WORKFLOW_EVENTS)
    workflow_id = bind(api).json()["workflowId"]
    assert claim(executor_client, my_executor) == workflow_id
    report(executor_client, my_executor, workflow_id, txHash="0x" + "ab" * 32)
    workflow = Workflow.objects.get(pk=workflow_id)
    with transaction.atomic():
        workflow.transition(WorkflowState.CONFIRMED, cause="mined and indexed",
                            confirmed_at=timezone.now(), attestation_uid="0x" + "cc" * 32)

    assert deliver_all() == 6
    payloads = [r.verified(secret) for r in receiver.received]
    assert [(p["type"], p["data"]["from"], p["data"]["to"]) for p in payloads] == [
        ("workflow.state_changed", None, "received"),
        ("workflow.state_changed", "received", "queued"),
        ("workflow.state_changed", "queued", "dispatched"),
        ("workflow.state_changed", "dispatched", "submitted"),
        ("workflow.state_changed", "submitted", "confirmed"),
        ("workflow.confirmed", "submitted", "confirmed"),
    ]
    confirmed = payloads[-1]["data"]
    assert confirmed["workflowId"] == workflow_id
    assert confirmed["documentHash"] == workflow.document_hash
    assert confirmed["attestationUid"] == "0x" + "cc" * 32
    assert confirmed["cause"] == "mined and indexed"
    assert payloads[2]["data"]["cause"].startswith("claimed by")
    assert len({r.webhook_id for r in receiver.received}) == 6
    assert set(Delivery.objects.values_list("state", flat=True)) == {"delivered"}


def test_a_failed_workflow_is_delivered_as_workflow_failed(
        api, receiver, settings, document_schema, my_executor, executor_client):
    settings.WORKFLOW_MAX_ATTEMPTS = 1
    _, secret = subscribe(api, receiver.url, ["workflow.failed"])
    workflow_id = bind(api).json()["workflowId"]
    claim(executor_client, my_executor)
    report(executor_client, my_executor, workflow_id, error="out of gas")

    deliver_all()
    (payload,) = [r.verified(secret) for r in receiver.received]
    assert payload["type"] == "workflow.failed"
    assert payload["data"]["to"] == "failed" and payload["data"]["lastError"] == "out of gas"


def test_another_key_s_workflows_are_not_delivered_to_a_key_but_to_an_admin(
        api, admin_key, receiver, document_schema):
    other = client_for(make_key(KeyScope.API))
    subscribe(other, receiver.url, ["workflow.state_changed"])
    _, admin_secret = subscribe(client_for(admin_key), receiver.url, ["workflow.state_changed"])
    bind(api)

    assert deliver_all() == 2  # received, queued: to the admin's subscription only
    assert all(r.verified(admin_secret) for r in receiver.received)


def test_a_subscription_filtered_on_a_workflow_gets_only_its_events(
        api, receiver, document_schema):
    first = bind(api).json()["workflowId"]
    subscribe(api, receiver.url, ["workflow.state_changed"], workflowId=first)
    bind(api, document="0x" + "d1" * 32)
    with transaction.atomic():
        Workflow.objects.get(pk=first).transition(WorkflowState.EXPIRED, cause="too late")

    deliver_all()
    assert [(p["data"]["workflowId"], p["data"]["to"]) for p in receiver.payloads()] == [
        (first, "expired")]


def test_executor_status_changes_are_delivered_to_admin_subscriptions(
        admin, admin_key, receiver, chain, executor_client):
    _, secret = subscribe(client_for(admin_key), receiver.url, ["executor.status_changed"])
    registered = register(executor_client, "anvil", {"address": address_of(70)})
    executor_id = registered.json()["executorId"]
    executor_leases_expire(now=timezone.now() + timedelta(seconds=45))
    assert admin.post(f"/v1/admin/executors/{executor_id}/deregister").status_code == 200

    deliver_all()
    payloads = [r.verified(secret) for r in receiver.received]
    assert [(p["data"]["from"], p["data"]["to"], p["data"]["cause"]) for p in payloads] == [
        (None, "healthy", "registered"), ("healthy", "stale", "lease expired"),
        ("stale", "deregistered", "deregistered")]
    assert {p["data"]["executorId"] for p in payloads} == {executor_id}
    assert {p["type"] for p in payloads} == {"executor.status_changed"}


def test_an_executor_low_on_funds_or_blocked_by_fees_is_delivered_with_its_balance(
        admin_key, receiver, chain, executor_client):
    _, secret = subscribe(client_for(admin_key), receiver.url, ["executor.status_changed"])
    registered = register(executor_client, "anvil", {"address": address_of(71)}).json()
    for status, balance in [("low_funds", "900000000000000"), ("blocked_by_fees", "800"),
                            ("ok", "5000000000000000000")]:
        response = executor_client.post("/v1/chain-registry/anvil/heartbeat", {
            "executorId": registered["executorId"], "status": status, "balanceWei": balance},
            format="json")
        assert response.status_code == 200, response.content

    deliver_all()
    payloads = [r.verified(secret)["data"] for r in receiver.received]
    assert [(p["from"], p["to"], p["cause"], p["balanceWei"]) for p in payloads] == [
        (None, "healthy", "registered", None),
        ("healthy", "low_funds", "heartbeat: low_funds", "900000000000000"),
        ("low_funds", "blocked_by_fees", "heartbeat: blocked_by_fees", "800"),
        ("blocked_by_fees", "healthy", "heartbeat: ok", "5000000000000000000")]


def test_an_api_key_cannot_subscribe_to_administrators_events(api, receiver):
    response = api.post("/v1/webhooks", {"url": receiver.url,
                                         "eventTypes": ["rpc_endpoint.status_changed"]},
                        format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "eventTypes"


def test_an_rpc_endpoint_going_down_is_delivered(admin_key, receiver, chain):
    endpoint = RpcEndpointFactory(chain=chain, url="https://rpc.example.org/v2/" + "k" * 32)
    _, secret = subscribe(client_for(admin_key), receiver.url, ["rpc_endpoint.status_changed"])
    for _ in range(3):
        apply_results([ProbeResult(endpoint.pk, ok=False, error="connection failed")])

    deliver_all()
    (payload,) = [r.verified(secret) for r in receiver.received]
    assert payload["type"] == "rpc_endpoint.status_changed"
    assert payload["data"]["rpcId"] == endpoint.pk
    assert (payload["data"]["from"], payload["data"]["to"]) == ("unknown", "down")
    assert payload["data"]["lastError"] == "connection failed"
    assert "k" * 32 not in payload["data"]["url"]  # masked


def test_a_chain_status_change_is_delivered_to_any_key(api, admin, receiver, chain):
    _, secret = subscribe(api, receiver.url, ["chain.status_changed"], chainId=31337)
    assert admin.patch("/v1/admin/chains/31337/status", {"status": "inactive"},
                       format="json").status_code == 200
    assert admin.patch("/v1/admin/chains/31337", {"name": "Renamed"},
                       format="json").status_code == 200  # not a status change

    deliver_all()
    (payload,) = [r.verified(secret) for r in receiver.received]
    assert payload["data"] == {"chainId": 31337, "shortName": "anvil", "from": "active",
                               "to": "inactive"}


def test_nothing_is_written_when_nobody_subscribes(api, document_schema):
    bind(api)
    assert not Event.objects.exists()


def test_an_event_is_rolled_back_with_its_change(api, receiver, document_schema):
    subscribe(api, receiver.url, ["workflow.state_changed"])
    workflow_id = bind(api).json()["workflowId"]
    before = Event.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        Workflow.objects.get(pk=workflow_id).transition(WorkflowState.EXPIRED, cause="x")
        raise RuntimeError("the change fails")
    assert Event.objects.count() == before

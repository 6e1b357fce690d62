"""A service at work, as /metrics shows it."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from attestations.models import ChainHead
from bindings.models import Workflow, WorkflowState
from tests.factories import ChainFactory, ExecutorFactory, IndexCursorFactory, RpcEndpointFactory
from verification.metrics import count_verify
from webhooks.models import Delivery, Event, Subscription


@pytest.fixture
def scrape(anon):
    """GET /metrics, parsed: {family name: family}."""

    def scrape() -> dict:
        response = anon.get("/metrics")
        assert response.status_code == 200, response.content
        return {family.name: family for family in
                text_string_to_metric_families(response.content.decode())}

    return scrape


def submitted_workflow(chain, age: timedelta) -> Workflow:
    """A workflow that reached `submitted` `age` ago (its last transition)."""
    now = timezone.now()
    workflow = Workflow.objects.create(
        chain=chain, document_hash="0x" + uuid.uuid4().hex * 2, schema_uid="0x" + "22" * 32,
        created_by="crk_000000000000", deadline=now + timedelta(hours=1),
        state=WorkflowState.SUBMITTED, tx_hash="0x" + "ab" * 32)
    Workflow.objects.filter(pk=workflow.pk).update(updated_at=now - age)
    return workflow


def pending_delivery(attempts: int = 0) -> Delivery:
    """A delivery in the outbox, tried `attempts` times (each failed)."""
    subscription = Subscription.objects.create(owner="crk_000000000000",
                                               url="https://example.com/hook",
                                               event_types=["chain.status_changed"],
                                               secret_encrypted="not used here")
    event = Event.objects.create(type="chain.status_changed", occurred_at=timezone.now(),
                                 data={})
    return Delivery.objects.create(event=event, subscription=subscription, attempts=attempts)


@pytest.fixture
def busy_service(api, scrape):
    """A chain with an executor, an RPC endpoint, an indexer's cursor and head, a submitted
    workflow; a webhook retried; a verification counted; requests answered: every family of
    /metrics has series (the read replicas' only with a replica configured)."""
    chain = ChainFactory()
    ChainFactory(status="inactive")
    ExecutorFactory(chain=chain)
    RpcEndpointFactory(chain=chain, status="healthy", lag_blocks=0, latency_ms=20.0)
    IndexCursorFactory(chain=chain, head_block=120, next_block=101,
                       last_success_at=timezone.now())
    ChainHead.objects.create(chain=chain, head_block=120, head_at=timezone.now(),
                             finality_rule="confirmations", final_block=109)
    submitted_workflow(chain, timedelta(minutes=1))
    pending_delivery(attempts=1)
    count_verify("verified")
    assert api.get("/chains").status_code == 200
    return chain

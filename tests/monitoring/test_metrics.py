"""The gauges the alert rules and the dashboard need, read at each scrape (ops/metrics.py):
chains' activity and expected confirmation time, the indexer's last success, the oldest
submitted workflow, the webhook outbox, and /readyz's checks."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from ops import health
from ops.follower import STATUS_KEY
from ops.schedules import PERIODIC_TASKS
from tests.factories import ChainFactory, IndexCursorFactory
from tests.monitoring.conftest import pending_delivery, submitted_workflow

pytestmark = pytest.mark.django_db


def value(families: dict, name: str, **labels) -> float | None:
    family = families.get(name)
    for sample in family.samples if family else ():
        if sample.name == name and sample.labels == labels:
            return sample.value
    return None


def test_each_chain_is_active_or_not(scrape):
    active, inactive = ChainFactory(), ChainFactory(status="inactive")
    found = scrape()
    assert value(found, "registry_chain_active", chain_id=str(active.chain_id)) == 1
    assert value(found, "registry_chain_active", chain_id=str(inactive.chain_id)) == 0


def test_a_chains_confirmation_time_uses_the_block_time_the_follower_learned(scrape):
    from django.core.cache import cache

    learned, unknown = ChainFactory(confirmations=12), ChainFactory(confirmations=3)
    cache.set(STATUS_KEY, {"at": time.time(), "chains": {
        str(learned.chain_id): {"mode": "polling", "blockTime": 12.0, "head": 5}}})
    try:
        found = scrape()
    finally:
        cache.delete(STATUS_KEY)
    assert value(found, "registry_chain_confirmation_seconds",
                 chain_id=str(learned.chain_id)) == 13 * 12.0
    # Not followed (yet): the follower's default block time, 2 s.
    assert value(found, "registry_chain_confirmation_seconds",
                 chain_id=str(unknown.chain_id)) == 4 * 2.0


def test_the_indexers_last_success_is_a_timestamp_per_deployment(scrape):
    succeeded = timezone.now() - timedelta(minutes=20)
    cursor = IndexCursorFactory(last_success_at=succeeded)
    never = IndexCursorFactory(last_success_at=None)
    found = scrape()
    assert value(found, "attestations_index_last_success_timestamp_seconds",
                 chain_id=str(cursor.chain_id), deployment_id=str(cursor.deployment_id)
                 ) == pytest.approx(succeeded.timestamp())
    assert value(found, "attestations_index_last_success_timestamp_seconds",
                 chain_id=str(never.chain_id), deployment_id=str(never.deployment_id)) is None


def test_the_oldest_submitted_workflow_of_each_chain_has_its_age(scrape):
    slow, quick, idle = ChainFactory(), ChainFactory(), ChainFactory()
    submitted_workflow(slow, timedelta(minutes=30))
    submitted_workflow(slow, timedelta(minutes=2))
    submitted_workflow(quick, timedelta(seconds=20))
    found = scrape()
    assert value(found, "workflows_submitted_oldest_age_seconds",
                 chain_id=str(slow.chain_id)) == pytest.approx(30 * 60, abs=5)
    assert value(found, "workflows_submitted_oldest_age_seconds",
                 chain_id=str(quick.chain_id)) == pytest.approx(20, abs=5)
    assert value(found, "workflows_submitted_oldest_age_seconds",
                 chain_id=str(idle.chain_id)) is None


def test_the_webhook_outbox_counts_pending_deliveries_and_those_failing(scrape):
    assert value(scrape(), "webhook_deliveries_pending") == 0
    pending_delivery(attempts=0)
    pending_delivery(attempts=2)
    delivered = pending_delivery(attempts=1)
    delivered.state = "delivered"
    delivered.save()
    found = scrape()
    assert value(found, "webhook_deliveries_pending") == 2
    assert value(found, "webhook_deliveries_retrying") == 1


def test_the_oldest_event_waiting_for_its_fan_out_is_timed(scrape):
    from webhooks.models import Event

    assert value(scrape(), "webhook_fan_out_oldest_age_seconds") == 0
    Event.objects.create(type="chain.status_changed", data={}, fanned_out=True,
                         occurred_at=timezone.now() - timedelta(hours=1))  # fanned out: not counted
    Event.objects.create(type="chain.status_changed", data={},
                         occurred_at=timezone.now() - timedelta(minutes=10))
    assert value(scrape(), "webhook_fan_out_oldest_age_seconds") == pytest.approx(600, abs=5)


def test_readyz_checks_are_published_as_they_pass_or_fail(scrape):
    found = scrape()
    assert {sample.labels["check"]: sample.value for sample in found["readyz_check_ok"].samples
            } == {name: 1 for name in health.CHECKS}

    late = "Expire executor leases"
    PeriodicTask.objects.filter(name=late).update(last_run_at=timezone.now() - timedelta(
        seconds=PERIODIC_TASKS[late]["every"] * (health.LATE_INTERVALS + 1)))
    found = scrape()
    assert value(found, "readyz_check_ok", check="schedules") == 0
    assert value(found, "readyz_check_ok", check="database") == 1


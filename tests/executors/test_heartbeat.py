"""Executor heartbeats: POST /v1/chain-registry/{chain}/heartbeat (SPEC 4)."""

import threading
import uuid
from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from djangorestframework_camel_case.util import camelize

from executors.models import Executor, ExecutorStatusChange
from executors.serializers import HeartbeatResponseSerializer
from executors.sweep import executor_leases_expire
from registry.models import Chain, KeyScope
from tests.conftest import assert_problem, make_key
from tests.executors.conftest import key_prefix, with_api_key
from tests.factories import ChainFactory, ExecutorFactory

pytestmark = pytest.mark.django_db

URL = "/v1/chain-registry/{}/heartbeat"
GWEI = 10**9


@pytest.fixture
def mine(chain, executor_key):
    """A healthy executor of the `executor` client's key, whose lease is about to run out."""
    beat = timezone.now() - timedelta(seconds=25)
    return ExecutorFactory(chain=chain, registered_by=key_prefix(executor_key),
                           last_heartbeat_at=beat)


def beat(executor, **overrides) -> dict:
    body = {"executorId": str(executor.pk), "status": "ok"}
    body.update(overrides)
    return {k: v for k, v in body.items() if v is not ...}


def seconds_from_now(value) -> float:
    value = parse_datetime(value) if isinstance(value, str) else value
    return (value - timezone.now()).total_seconds()


def causes(executor) -> list[tuple[str, str, str]]:
    """The executor's recorded transitions, oldest first."""
    changes = executor.status_changes.order_by("created_at", "id")
    return [(c.from_status, c.to_status, c.cause) for c in changes]


# --- renewing the lease -------------------------------------------------------------------


def test_a_heartbeat_renews_the_lease_from_the_server_clock(executor, mine):
    response = executor.post(URL.format(31337), beat(mine, pendingJobs=3, headBlock=1234),
                             format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body == {"status": "healthy", "leaseExpiresAt": body["leaseExpiresAt"],
                    "heartbeatIntervalSeconds": 10, "maxFeePerGasCap": None,
                    "replaceAfterBlocks": 3, "lowFundsBatches": 10}
    assert body["leaseExpiresAt"].endswith("Z")
    assert 28 <= seconds_from_now(body["leaseExpiresAt"]) <= 31
    mine.refresh_from_db()
    assert 29 <= seconds_from_now(mine.lease_expires_at) <= 31
    assert abs(seconds_from_now(mine.last_heartbeat_at)) < 2
    assert (mine.pending_jobs, mine.head_block) == (3, 1234)


@pytest.mark.parametrize("ref", ["31337", "anvil"])
@pytest.mark.parametrize("admin", [False, True], ids=["own key", "admin key"])
def test_an_ordinary_heartbeat_is_one_update_and_nothing_else(executor, mine, admin_key, ref,
                                                               admin):
    # The renewal matches chain, status and key inside its UPDATE (Executor.heartbeat).
    client = with_api_key(admin_key) if admin else executor
    client.post(URL.format(ref), beat(mine), format="json")  # reads the key into the cache

    with CaptureQueriesContext(connection) as queries:
        response = client.post(URL.format(ref), beat(mine, pendingJobs=2), format="json")

    assert response.status_code == 200, response.content
    sql = [q["sql"] for q in queries]
    assert len(sql) == 1 and sql[0].startswith("UPDATE"), sql
    mine.refresh_from_db()
    assert mine.pending_jobs == 2


def test_the_lease_follows_the_lease_setting(executor, mine, settings):
    settings.EXECUTOR_LEASE_SECONDS = 90

    response = executor.post(URL.format(31337), beat(mine), format="json")

    assert response.status_code == 200, response.content
    assert 88 <= seconds_from_now(response.json()["leaseExpiresAt"]) <= 91
    assert response.json()["heartbeatIntervalSeconds"] == 30


@pytest.mark.parametrize("field, value", [
    ("leaseExpiresAt", "2099-01-01T00:00:00Z"),
    ("lastHeartbeatAt", "2099-01-01T00:00:00Z"),
    ("leaseSeconds", 3600),
])
def test_a_client_cannot_set_its_own_lease(executor, mine, field, value):
    lease = mine.lease_expires_at

    response = executor.post(URL.format(31337), beat(mine, **{field: value}), format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert [error["attr"] for error in problem["errors"]] == [field]
    mine.refresh_from_db()
    assert mine.lease_expires_at == lease


def test_the_chain_can_be_named_by_its_short_name(executor, mine):
    response = executor.post(URL.format("anvil"), beat(mine), format="json")

    assert response.status_code == 200, response.content


def test_pending_jobs_and_head_block_may_be_null_or_left_out(executor, mine):
    mine.pending_jobs, mine.head_block = 5, 99
    mine.save()

    response = executor.post(URL.format(31337), beat(mine, pendingJobs=None), format="json")

    assert response.status_code == 200, response.content
    mine.refresh_from_db()
    assert (mine.pending_jobs, mine.head_block) == (None, None)


def test_a_heartbeat_stores_the_balance_and_answers_the_chains_fee_policy_in_one_update(
        executor, mine, chain):
    Chain.objects.filter(pk=chain.pk).update(max_fee_per_gas_cap=30 * GWEI,
                                             replace_after_blocks=5, low_funds_batches=20)
    balance = str(150 * 10**18)  # past a bigint and JavaScript's numbers: a string, exact
    executor.post(URL.format(31337), beat(mine), format="json")  # the key into the cache

    with CaptureQueriesContext(connection) as queries:
        response = executor.post(URL.format(31337), beat(mine, balanceWei=balance),
                                 format="json")

    assert response.status_code == 200, response.content
    assert [q["sql"].split()[0] for q in queries] == ["UPDATE"]
    body = response.json()
    assert (body["maxFeePerGasCap"], body["replaceAfterBlocks"], body["lowFundsBatches"]) == (
        str(30 * GWEI), 5, 20)
    mine.refresh_from_db()
    assert mine.balance_wei == balance
    # Left out, it is not known any more (as pendingJobs and headBlock).
    executor.post(URL.format(31337), beat(mine), format="json")
    mine.refresh_from_db()
    assert mine.balance_wei is None


def test_a_change_of_the_cap_reaches_the_executor_with_its_next_heartbeat(executor, mine,
                                                                          admin):
    before = executor.post(URL.format(31337), beat(mine), format="json").json()
    changed = admin.patch("/v1/admin/chains/31337", {"maxFeePerGasCap": "25000000000"},
                          format="json")
    after = executor.post(URL.format(31337), beat(mine), format="json").json()

    assert changed.status_code == 200, changed.content
    assert before["maxFeePerGasCap"] is None and after["maxFeePerGasCap"] == "25000000000"


@pytest.mark.parametrize("balance", [150 * 10**18, "-1", "1.5", "0x10", "01", "", "1" * 79])
def test_a_balance_is_a_string_of_decimal_digits(executor, mine, balance):
    response = executor.post(URL.format(31337), beat(mine, balanceWei=balance), format="json")

    body = assert_problem(response, 400)
    assert body["errors"][0]["attr"] == "balanceWei"


# --- status -------------------------------------------------------------------------------


@pytest.mark.parametrize("reported", ["low_funds", "blocked_by_fees", "signer_error"])
def test_an_executor_that_holds_says_so_and_is_recorded_until_it_is_ok_again(
        executor, admin, mine, reported):
    held = executor.post(URL.format(31337), beat(mine, status=reported, balanceWei="7"),
                         format="json")
    again = executor.post(URL.format(31337), beat(mine, status=reported, balanceWei="6"),
                          format="json")

    assert [held.json()["status"], again.json()["status"]] == [reported, reported]
    listed = admin.get(f"/v1/admin/executors?status={reported}").json()["results"]
    assert [(e["executorId"], e["status"], e["balanceWei"]) for e in listed] == [
        (str(mine.pk), reported, "6")]
    ok = executor.post(URL.format(31337), beat(mine, status="ok"), format="json")
    assert ok.json()["status"] == "healthy"
    assert causes(mine) == [("healthy", reported, f"heartbeat: {reported}"),
                            (reported, "healthy", "heartbeat: ok")]


def test_a_holding_executor_whose_lease_runs_out_reads_stale(executor, admin, mine):
    executor.post(URL.format(31337), beat(mine, status="blocked_by_fees"), format="json")
    Executor.objects.filter(pk=mine.pk).update(lease_expires_at=timezone.now())

    shown = admin.get(f"/v1/admin/executors/{mine.pk}").json()
    assert shown["status"] == "stale"
    assert executor_leases_expire().stale == 1
    assert Executor.objects.get(pk=mine.pk).status == "stale"




@pytest.mark.parametrize("reported", ["ok", "busy"])
def test_ok_or_busy_keeps_a_healthy_executor_healthy_and_records_nothing(executor, mine, reported):
    response = executor.post(URL.format(31337), beat(mine, status=reported), format="json")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "healthy"
    mine.refresh_from_db()
    assert mine.status == "healthy"
    assert causes(mine) == []


def test_draining_is_recorded_and_ok_makes_the_executor_healthy_again(executor, mine):
    draining = executor.post(URL.format(31337), beat(mine, status="draining"), format="json")
    again = executor.post(URL.format(31337), beat(mine, status="draining"), format="json")
    ok = executor.post(URL.format(31337), beat(mine, status="busy"), format="json")

    statuses = [r.json()["status"] for r in (draining, again, ok)]
    assert statuses == ["draining", "draining", "healthy"]
    assert causes(mine) == [("healthy", "draining", "heartbeat: draining"),
                            ("draining", "healthy", "heartbeat: busy")]
    mine.refresh_from_db()
    assert mine.status == "healthy"


@pytest.mark.parametrize("swept_to", ["stale", "offline"])
def test_a_heartbeat_brings_a_swept_executor_back_to_healthy(executor, mine, swept_to):
    # As the sweep leaves it: lease long gone, status moved.
    long_ago = timezone.now() - timedelta(minutes=5)
    Executor.objects.filter(pk=mine.pk).update(status=swept_to, lease_expires_at=long_ago,
                                               last_heartbeat_at=long_ago)

    response = executor.post(URL.format(31337), beat(mine), format="json")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "healthy"
    assert 28 <= seconds_from_now(response.json()["leaseExpiresAt"]) <= 31
    mine.refresh_from_db()
    assert mine.status == "healthy"
    assert abs(seconds_from_now(mine.status_changed_at)) < 2
    assert causes(mine) == [(swept_to, "healthy", "heartbeat: ok")]


def test_a_stale_executor_that_reports_draining_becomes_draining(executor, mine):
    Executor.objects.filter(pk=mine.pk).update(status="stale")

    response = executor.post(URL.format(31337), beat(mine, status="draining"), format="json")

    assert response.json()["status"] == "draining"
    assert causes(mine) == [("stale", "draining", "heartbeat: draining")]


def test_a_lapsed_lease_not_yet_swept_is_renewed_without_a_transition(executor, mine):
    Executor.objects.filter(pk=mine.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=5))

    response = executor.post(URL.format(31337), beat(mine), format="json")

    assert response.json()["status"] == "healthy"
    mine.refresh_from_db()
    assert mine.lease_expires_at > timezone.now()
    assert causes(mine) == []


# --- who may beat for which executor ------------------------------------------------------


def test_an_unknown_executor_is_404_so_that_the_client_registers_again(executor, chain):
    response = executor.post(URL.format(31337), {"executorId": str(uuid.uuid4()), "status": "ok"},
                             format="json")

    assert_problem(response, 404)


def test_an_executor_of_another_chain_is_404_on_this_chain(executor, mine):
    ChainFactory(chain_id=10, short_name="optimism")
    lease = mine.lease_expires_at

    response = executor.post(URL.format(10), beat(mine), format="json")

    assert_problem(response, 404)
    mine.refresh_from_db()
    assert mine.lease_expires_at == lease


def test_a_deregistered_executor_is_404_and_stays_deregistered(executor, mine):
    Executor.objects.filter(pk=mine.pk).update(status="deregistered")

    response = executor.post(URL.format(31337), beat(mine), format="json")

    assert_problem(response, 404)
    mine.refresh_from_db()
    assert mine.status == "deregistered"
    assert causes(mine) == []


def test_an_inactive_chain_still_takes_heartbeats(executor, mine, chain):
    # docs/decisions.md: liveness is a fact worth keeping while an administrator decides.
    chain.set_status("inactive")

    response = executor.post(URL.format(31337), beat(mine), format="json")

    assert response.status_code == 200, response.content
    mine.refresh_from_db()
    assert mine.lease_expires_at > timezone.now() + timedelta(seconds=28)


@pytest.mark.parametrize("ref", ["999999", "nowhere"])
def test_an_unknown_chain_is_404(executor, mine, ref):
    response = executor.post(URL.format(ref), beat(mine), format="json")

    assert_problem(response, 404)


@pytest.mark.parametrize("status", ["healthy", "stale", "draining"])
def test_another_keys_executor_is_403_and_left_unchanged(mine, status):
    Executor.objects.filter(pk=mine.pk).update(status=status)
    mine.refresh_from_db()
    other = with_api_key(make_key(KeyScope.EXECUTOR))

    response = other.post(URL.format(31337), beat(mine, status="draining"), format="json")

    assert_problem(response, 403)
    before = (mine.status, mine.lease_expires_at, mine.last_heartbeat_at)
    mine.refresh_from_db()
    assert (mine.status, mine.lease_expires_at, mine.last_heartbeat_at) == before
    assert causes(mine) == []


@pytest.mark.parametrize("status", ["healthy", "stale"])
def test_an_admin_key_may_beat_for_any_executor(mine, admin_key, status):
    Executor.objects.filter(pk=mine.pk).update(status=status)

    response = with_api_key(admin_key).post(URL.format(31337), beat(mine), format="json")

    assert response.status_code == 200, response.content
    owner = mine.registered_by
    mine.refresh_from_db()
    assert (mine.status, mine.registered_by) == ("healthy", owner)
    assert mine.lease_expires_at > timezone.now() + timedelta(seconds=28)


# --- bad input ----------------------------------------------------------------------------

BAD_BEATS = {
    "no executor id": ({"executorId": ...}, "executorId"),
    "executor id null": ({"executorId": None}, "executorId"),
    "executor id not a uuid": ({"executorId": "not-a-uuid"}, "executorId"),
    "executor id an integer": ({"executorId": 5}, "executorId"),
    "executor id a uuid with a wrong digit": (
        {"executorId": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5g6h"}, "executorId"),
    "executor id an object": ({"executorId": {"id": 1}}, "executorId"),
    "no status": ({"status": ...}, "status"),
    "an unknown status": ({"status": "sleeping"}, "status"),
    "a status the server decides": ({"status": "healthy"}, "status"),
    "status in upper case": ({"status": "OK"}, "status"),
    "status a number": ({"status": 1}, "status"),
    "negative pending jobs": ({"pendingJobs": -1}, "pendingJobs"),
    "fractional pending jobs": ({"pendingJobs": 1.5}, "pendingJobs"),
    "pending jobs a string": ({"pendingJobs": "3"}, "pendingJobs"),
    "pending jobs a boolean": ({"pendingJobs": True}, "pendingJobs"),
    "too many pending jobs": ({"pendingJobs": 1_000_001}, "pendingJobs"),
    "negative head block": ({"headBlock": -1}, "headBlock"),
    "head block a string": ({"headBlock": "0x10"}, "headBlock"),
    "head block past 63 bits": ({"headBlock": 2**63}, "headBlock"),
    "an unknown field": ({"uptime": 5}, "uptime"),
}


@pytest.mark.parametrize("case", BAD_BEATS)
def test_a_bad_heartbeat_is_400_naming_the_field_and_changes_nothing(executor, mine, case):
    overrides, attr = BAD_BEATS[case]
    before = (mine.status, mine.lease_expires_at, mine.last_heartbeat_at, mine.pending_jobs)

    response = executor.post(URL.format(31337), beat(mine, **overrides), format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert [error["attr"] for error in problem["errors"]] == [attr], problem
    mine.refresh_from_db()
    assert (mine.status, mine.lease_expires_at, mine.last_heartbeat_at, mine.pending_jobs) == before
    assert causes(mine) == []


@pytest.mark.parametrize("body", [[], "ok", None])
def test_a_heartbeat_body_that_is_not_an_object_is_400(executor, mine, body):
    response = executor.post(URL.format(31337), body, format="json")

    assert_problem(response, 400)


def test_an_executor_id_in_upper_case_or_without_hyphens_is_the_same_executor(executor, mine):
    upper = executor.post(URL.format(31337), beat(mine, executorId=str(mine.pk).upper()),
                          format="json")
    bare = executor.post(URL.format(31337), beat(mine, executorId=mine.pk.hex), format="json")

    assert (upper.status_code, bare.status_code) == (200, 200)


# --- concurrency --------------------------------------------------------------------------


def _run_together(count: int, work) -> list:
    """Run work(i) in `count` threads released at once; returns their results."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(i):
        try:
            barrier.wait()
            results[i] = work(i)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a heartbeat hung"
    return results


@pytest.mark.django_db(transaction=True)
def test_concurrent_heartbeats_of_a_stale_executor_record_one_transition():
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    raw_key = make_key(KeyScope.EXECUTOR)
    stale = ExecutorFactory(chain=chain, registered_by=key_prefix(raw_key), status="stale",
                            lease_expires_at=timezone.now() - timedelta(seconds=40))
    clients = [with_api_key(raw_key) for _ in range(10)]

    responses = _run_together(10, lambda i: clients[i].post(URL.format(31337), beat(stale),
                                                            format="json"))

    assert [r.status_code for r in responses] == [200] * 10
    assert {r.json()["status"] for r in responses} == {"healthy"}
    stale.refresh_from_db()
    assert stale.status == "healthy"
    assert causes(stale) == [("stale", "healthy", "heartbeat: ok")]


@pytest.mark.django_db(transaction=True)
def test_concurrent_heartbeats_that_flip_the_status_lose_no_transition():
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    raw_key = make_key(KeyScope.EXECUTOR)
    flapping = ExecutorFactory(chain=chain, registered_by=key_prefix(raw_key))
    clients = [with_api_key(raw_key) for _ in range(12)]
    reports = ["draining" if i % 2 else "ok" for i in range(12)]

    responses = _run_together(12, lambda i: clients[i].post(
        URL.format(31337), beat(flapping, status=reports[i]), format="json"))

    assert [r.status_code for r in responses] == [200] * 12
    flapping.refresh_from_db()
    history = causes(flapping)
    # In the order the API shows them (by time): an unbroken chain, each change starting
    # where the one before it ended, the last one ending at the stored status.
    statuses = ["healthy"] + [to for _, to, _ in history]
    assert [frm for frm, _, _ in history] == statuses[:-1]
    assert statuses[-1] == flapping.status
    assert all(frm != to for frm, to, _ in history)
    assert ExecutorStatusChange.objects.count() == len(history)


def test_a_response_has_the_response_serializers_shape(executor, mine):
    response = executor.post(URL.format(31337), beat(mine), format="json")

    body = response.json()
    shaped = HeartbeatResponseSerializer({
        "status": body["status"], "lease_expires_at": parse_datetime(body["leaseExpiresAt"]),
        "heartbeat_interval_seconds": body["heartbeatIntervalSeconds"],
        "max_fee_per_gas_cap": None, "replace_after_blocks": 3, "low_funds_batches": 10}).data
    assert camelize(shaped) == body


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_outside_a_transaction_leaves_commits_synchronous_for_what_follows():
    # The renewal's own commit does not wait for the disk (docs/decisions.md); the
    # connection's next transactions do.
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    raw_key = make_key(KeyScope.EXECUTOR)
    mine = ExecutorFactory(chain=chain, registered_by=key_prefix(raw_key))

    response = with_api_key(raw_key).post(URL.format("anvil"), beat(mine), format="json")

    assert response.status_code == 200, response.content
    mine.refresh_from_db()
    assert mine.lease_expires_at > timezone.now() + timedelta(seconds=28)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] == "on"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="ends a PostgreSQL backend")
def test_a_heartbeat_on_a_connection_the_database_dropped_reconnects_and_renews():
    # The renewal skips Django's per-request health check of the connection; when the
    # database has dropped it (a restart, a failover), it reconnects and runs again.
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    raw_key = make_key(KeyScope.EXECUTOR)
    mine = ExecutorFactory(chain=chain, registered_by=key_prefix(raw_key),
                           lease_expires_at=timezone.now() + timedelta(seconds=3))
    client = with_api_key(raw_key)
    assert client.post(URL.format(31337), beat(mine), format="json").status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    # A new request, as close_old_connections() marks it (the test client does not).
    connection.health_check_enabled, connection.health_check_done = True, False

    response = client.post(URL.format(31337), beat(mine), format="json")

    assert response.status_code == 200, response.content
    mine.refresh_from_db()
    assert mine.lease_expires_at > timezone.now() + timedelta(seconds=28)

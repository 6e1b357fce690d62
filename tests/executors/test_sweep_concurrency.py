"""The sweep under real concurrency on PostgreSQL: sweeps that run at once, and heartbeats that
race a sweep. Each thread has its own database connection and closes it when done.
"""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from executors import sweep
from executors.models import Executor, ExecutorStatus, ExecutorStatusChange, SelfPreservation
from executors.services import executor_register
from executors.sweep import SweepReport, executor_leases_expire
from registry.authentication import KeyHolder
from registry.models import KeyScope
from tests.factories import ChainFactory
from tests.proofs import ORIGIN, address_of, service_proof

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="needs PostgreSQL's row locks"),
]

LEASE, GRACE = 30, 60
HOLDER = KeyHolder(KeyScope.EXECUTOR, "test", "crk_test")
TIMEOUT = 20  # seconds: an upper bound for any wait, never a pause


@pytest.fixture(autouse=True)
def _lease_settings(settings):
    settings.EXECUTOR_LEASE_SECONDS = LEASE
    settings.EXECUTOR_GRACE_SECONDS = GRACE
    settings.EXECUTOR_SELF_PRESERVATION_SHARE = 1.0  # these tests are about locks, not holds


def in_thread(target, *args):
    """Run `target(*args)` in a thread with its own connection; join() returns its result."""
    outcome = {}

    def run():
        try:
            outcome["result"] = target(*args)
        except BaseException as exc:  # re-raised in the test's thread by join()
            outcome["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def join():
        thread.join(TIMEOUT)
        assert not thread.is_alive(), f"{target.__name__} did not finish"
        if "error" in outcome:
            raise outcome["error"]
        return outcome["result"]

    return join


def wait_until(condition, what: str):
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def backends_waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


def register(chain, address: str, lapsed_seconds: float) -> Executor:
    """Register through the service, as if `lapsed_seconds` ago its lease ran out."""
    at = timezone.now() - timedelta(seconds=LEASE + lapsed_seconds)
    return executor_register(chain=chain, holder=HOLDER, address=address, now=at,
                             proof=service_proof(chain, HOLDER, address, now=at),
                             origin=ORIGIN)[0]


def address(n: int) -> str:
    return address_of(1000 + n)  # a test account: the test signs its challenge


def assert_consistent_history(executor_id) -> list[tuple[str, str]]:
    """Every change starts where the previous one ended, and the last ends at the status."""
    changes = list(ExecutorStatusChange.objects.filter(executor_id=executor_id).order_by("id"))
    steps = [(c.from_status, c.to_status) for c in changes]
    assert steps and steps[0][0] == "", steps
    for before, after in zip(steps, steps[1:]):
        assert after[0] == before[1], steps
    assert Executor.objects.get(pk=executor_id).status == steps[-1][1], steps
    return steps


# Sweeps at once ---------------------------------------------------------------------------


def test_concurrent_sweeps_move_each_executor_exactly_once():
    chains = [ChainFactory() for _ in range(4)]
    expired = timezone.now() - timedelta(seconds=GRACE + 1)
    Executor.objects.bulk_create(
        Executor(chain=chains[n % 4], address=address(n), registered_by=HOLDER.prefix,
                 status=ExecutorStatus.HEALTHY, lease_expires_at=expired)
        for n in range(2000)
    )
    start = threading.Barrier(4)

    def sweep_when_all_are_ready():
        start.wait(TIMEOUT)
        return executor_leases_expire()

    reports: list[SweepReport] = [join() for join in
                                  [in_thread(sweep_when_all_are_ready) for _ in range(4)]]

    assert sum(r.stale for r in reports) == 2000
    assert sum(r.offline for r in reports) == 2000
    assert not Executor.objects.exclude(status=ExecutorStatus.OFFLINE).exists()
    per_executor = {}
    for executor_id, from_status, to_status in ExecutorStatusChange.objects.order_by("id") \
            .values_list("executor_id", "from_status", "to_status"):
        per_executor.setdefault(executor_id, []).append((from_status, to_status))
    assert len(per_executor) == 2000
    assert all(steps == [("healthy", "stale"), ("stale", "offline")]
               for steps in per_executor.values())


def test_a_sweep_skips_rows_locked_elsewhere_and_the_next_sweep_takes_them():
    chain = ChainFactory()
    executors = [register(chain, address(n), lapsed_seconds=1) for n in range(10)]
    held = [e.pk for e in executors[:4]]
    locked, release = threading.Event(), threading.Event()

    def hold_rows():
        with transaction.atomic():
            list(Executor.objects.select_for_update().filter(pk__in=held))
            locked.set()
            release.wait(TIMEOUT)

    holder = in_thread(hold_rows)
    assert locked.wait(TIMEOUT)
    first = executor_leases_expire()  # does not wait for the held rows
    release.set()
    holder()
    second = executor_leases_expire()

    assert (first.stale, second.stale) == (6, 4)
    assert ExecutorStatusChange.objects.filter(to_status=ExecutorStatus.STALE).count() == 10


def test_concurrent_sweeps_that_hold_back_keep_one_hold(settings):
    settings.EXECUTOR_SELF_PRESERVATION_SHARE = 0.15
    chain = ChainFactory()
    for n in range(10):
        register(chain, address(n), lapsed_seconds=GRACE + 1 if n < 5 else -3600)
    start = threading.Barrier(4)

    def sweep_when_all_are_ready():
        start.wait(TIMEOUT)
        return executor_leases_expire()

    reports = [join() for join in [in_thread(sweep_when_all_are_ready) for _ in range(4)]]

    assert sum(r.stale for r in reports) == 5
    assert all(r.offline == 0 for r in reports)
    assert SelfPreservation.objects.filter(chain=chain).count() == 1
    assert not Executor.objects.filter(status=ExecutorStatus.OFFLINE).exists()


def test_a_sweep_never_takes_more_than_the_share_offline_while_another_one_runs(
    settings, monkeypatch,
):
    """Sweep A has moved ten lapsed executors to stale but not committed yet; sweep B must
    not count the chain without them, approve its two, and then take all twelve offline."""
    settings.EXECUTOR_SELF_PRESERVATION_SHARE = 0.15
    chain = ChainFactory()
    for n in range(20):
        register(chain, address(n), lapsed_seconds=GRACE + 5 if n < 12 else -3600)
    executor_leases_expire(timezone.now() - timedelta(seconds=GRACE))  # all twelve go stale
    Executor.objects.filter(address__in=[address(n) for n in range(2, 12)]).update(
        status=ExecutorStatus.HEALTHY)  # ...and ten are healthy again, for this round's sweeps
    a_swept, go_a, b_counted, go_b = (threading.Event() for _ in range(4))
    holds_back = sweep._holds_back

    def holds_back_after_a_pause_in_b(*args):
        # Sweep B has counted: it waits here while sweep A commits.
        if threading.current_thread().name == "sweep-b":
            b_counted.set()
            assert go_b.wait(TIMEOUT)
        return holds_back(*args)

    monkeypatch.setattr(sweep, "_holds_back", holds_back_after_a_pause_in_b)

    def sweep_a_slow_to_commit():
        with transaction.atomic():  # as a sweep of many rows is, for seconds
            report = executor_leases_expire()
            a_swept.set()
            assert go_a.wait(TIMEOUT)
        return report

    def sweep_b():
        threading.current_thread().name = "sweep-b"
        return executor_leases_expire()

    join_a = in_thread(sweep_a_slow_to_commit)
    assert a_swept.wait(TIMEOUT)
    waiting_before = backends_waiting_for_a_lock()
    join_b = in_thread(sweep_b)
    wait_until(lambda: b_counted.is_set() or backends_waiting_for_a_lock() > waiting_before,
               "sweep B to count or to queue")
    go_a.set()
    report_a = join_a()
    go_b.set()
    report_b = join_b()

    assert (report_a.stale, report_b.stale) == (10, 0)
    assert Executor.objects.filter(status=ExecutorStatus.OFFLINE).count() == 0
    assert report_a.held_back == report_b.held_back == {chain.chain_id: 12}
    assert SelfPreservation.objects.get(chain=chain).would_go_offline == 12


# A heartbeat racing a sweep ---------------------------------------------------------------


@pytest.mark.parametrize(("status", "lapsed_seconds"), [
    (ExecutorStatus.HEALTHY, 1),  # would go stale
    (ExecutorStatus.STALE, GRACE + 1),  # would go offline
])
def test_a_heartbeat_holding_the_row_wins_over_the_sweep(status, lapsed_seconds):
    chain = ChainFactory()
    executor = register(chain, address(1), lapsed_seconds=lapsed_seconds)
    if status == ExecutorStatus.STALE:
        executor_leases_expire(timezone.now() - timedelta(seconds=GRACE))  # healthy -> stale
    locked, swept = threading.Event(), threading.Event()

    def heartbeat_slowly():
        # The heartbeat's locked path, paused after taking the row while the sweep runs.
        with transaction.atomic():
            Executor.objects.select_for_update().get(pk=executor.pk)
            locked.set()
            swept.wait(TIMEOUT)
            return Executor.heartbeat(chain_ref=str(chain.chain_id), holder=HOLDER, executor_id=executor.pk,
                                     reported="ok")

    heartbeat = in_thread(heartbeat_slowly)
    assert locked.wait(TIMEOUT)
    report = executor_leases_expire()
    swept.set()
    beat = heartbeat()

    assert (report.stale, report.offline) == (0, 0)  # skipped, not waited for
    assert beat.status == ExecutorStatus.HEALTHY
    assert executor_leases_expire() == SweepReport()  # the renewed lease holds
    steps = assert_consistent_history(executor.pk)
    if status == ExecutorStatus.HEALTHY:
        assert steps == [("", "healthy")]  # nothing happened to it: the lease was renewed
    else:
        assert steps == [("", "healthy"), ("healthy", "stale"), ("stale", "healthy")]


def test_a_heartbeat_waits_for_a_sweep_holding_the_row_and_records_its_return():
    chain = ChainFactory()
    executor = register(chain, address(1), lapsed_seconds=1)
    swept, heartbeat_waits = threading.Event(), threading.Event()

    def sweep_and_commit_late():
        with transaction.atomic():  # the sweep's row locks last until this commits
            report = executor_leases_expire()
            swept.set()
            heartbeat_waits.wait(TIMEOUT)
        return report

    sweeper = in_thread(sweep_and_commit_late)
    assert swept.wait(TIMEOUT)
    waiting_before = backends_waiting_for_a_lock()
    heartbeat = in_thread(lambda: Executor.heartbeat(chain_ref=str(chain.chain_id), holder=HOLDER,
                                                    executor_id=executor.pk, reported="ok"))
    wait_until(lambda: backends_waiting_for_a_lock() > waiting_before, "the heartbeat to wait")
    heartbeat_waits.set()
    report, beat = sweeper(), heartbeat()

    assert report.stale == 1
    assert beat.status == ExecutorStatus.HEALTHY
    assert Executor.objects.get(pk=executor.pk).lease_expires_at > timezone.now()
    assert assert_consistent_history(executor.pk) == [
        ("", "healthy"), ("healthy", "stale"), ("stale", "healthy"),
    ]
    assert ExecutorStatusChange.objects.filter(executor=executor).order_by("id").last().cause \
        == "heartbeat: ok"


def test_heartbeats_and_sweeps_running_together_keep_every_history_consistent():
    chain = ChainFactory()
    executors = [register(chain, address(n), lapsed_seconds=1).pk for n in range(40)]
    stop = threading.Event()

    def sweep_in_a_loop():
        sweeps = 0
        while not stop.is_set():
            # A clock past lease and grace: every executor cycles healthy -> stale -> offline.
            executor_leases_expire(timezone.now() + timedelta(seconds=LEASE + GRACE + 1))
            sweeps += 1
        return sweeps

    def heartbeat_in_a_loop(reported):
        beats = 0
        while not stop.is_set():
            for executor_id in executors:
                Executor.heartbeat(chain_ref=str(chain.chain_id), holder=HOLDER, executor_id=executor_id,
                                  reported=reported)
                beats += 1
        return beats

    workers = [in_thread(sweep_in_a_loop), in_thread(sweep_in_a_loop),
               in_thread(heartbeat_in_a_loop, "ok"), in_thread(heartbeat_in_a_loop, "draining")]
    wait_until(lambda: ExecutorStatusChange.objects.filter(to_status="offline").count() >= 100,
               "executors to cycle")
    stop.set()
    counts = [join() for join in workers]

    assert all(counts)
    for executor_id in executors:
        assert_consistent_history(executor_id)

"""The lease expiry sweep (SPEC section 4): healthy -> stale after the lease, stale -> offline
after the grace, every change recorded, and self-preservation when too many would go offline.

The behaviour tests run twice: through PostgreSQL's single statement and through the portable
ORM path that other databases use.
"""

import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from executors import sweep
from executors.models import Executor, ExecutorStatus, ExecutorStatusChange, SelfPreservation
from registry.authentication import KeyHolder
from registry.models import KeyScope
from tests.factories import ChainFactory, ExecutorFactory

pytestmark = pytest.mark.django_db

LEASE, GRACE = 30, 60
NOW = timezone.now().replace(microsecond=0)
SWEEP_LOGGER = "executors.sweep"


@pytest.fixture(autouse=True)
def _lease_settings(settings):
    settings.EXECUTOR_LEASE_SECONDS = LEASE
    settings.EXECUTOR_GRACE_SECONDS = GRACE
    settings.EXECUTOR_SELF_PRESERVATION_SHARE = 0.15
    settings.EXECUTOR_SELF_PRESERVATION_MIN_EXECUTORS = 3
    settings.EXECUTOR_SELF_PRESERVATION_MAX_SECONDS = 900


@pytest.fixture(params=["native", "portable"])
def path(request, monkeypatch):
    """Which statement moves the rows: the database's own (PostgreSQL's CTE) or the ORM's."""
    if request.param == "portable":
        monkeypatch.setattr(sweep, "_move_postgresql", sweep._move_portable)
    return request.param


def lapsed(chain, seconds_ago: float, status=ExecutorStatus.HEALTHY, **kwargs) -> Executor:
    """An executor of `chain` whose lease ran out `seconds_ago` before NOW (negative: still
    has that long to run)."""
    expired = NOW - timedelta(seconds=seconds_ago)
    return ExecutorFactory(chain=chain, status=status, lease_expires_at=expired,
                           last_heartbeat_at=expired - timedelta(seconds=LEASE), **kwargs)


def fresh(chain, count: int = 1) -> list[Executor]:
    return [lapsed(chain, -3600) for _ in range(count)]  # outlives every `now` used here


def status_of(executor) -> str:
    return Executor.objects.values_list("status", flat=True).get(pk=executor.pk)


def history(executor) -> list[tuple[str, str, str]]:
    changes = ExecutorStatusChange.objects.filter(executor=executor).order_by("id")
    return [(c.from_status, c.to_status, c.cause) for c in changes]


# Leases and grace ------------------------------------------------------------------------


@pytest.mark.parametrize(("status", "seconds_ago", "then", "moved"), [
    (ExecutorStatus.HEALTHY, -1, ExecutorStatus.STALE, (1, 0)),  # one second of lease left
    (ExecutorStatus.STALE, GRACE - 1, ExecutorStatus.OFFLINE, (0, 1)),  # of lease and grace
], ids=["healthy-goes-stale-once-its-lease-has-run-out",
        "stale-goes-offline-only-after-the-lease-and-the-grace"])
def test_an_executor_moves_on_only_once_its_time_has_run_out(path, status, seconds_ago, then,
                                                               moved):
    executor = lapsed(ChainFactory(), seconds_ago, status=status)

    report = sweep.executor_leases_expire(NOW)
    assert (report.stale, report.offline) == (0, 0)
    assert status_of(executor) == status

    report = sweep.executor_leases_expire(NOW + timedelta(seconds=1))
    assert (report.stale, report.offline) == moved
    assert status_of(executor) == then


def test_a_healthy_executor_lapsed_past_the_grace_goes_stale_then_offline_in_one_sweep(path):
    executor = lapsed(ChainFactory(), GRACE + 5)

    report = sweep.executor_leases_expire(NOW)

    assert (report.stale, report.offline) == (1, 1)
    assert history(executor) == [
        ("healthy", "stale", "lease expired"),
        ("stale", "offline", "grace expired"),
    ]


def test_a_draining_executor_goes_stale_too(path):
    executor = lapsed(ChainFactory(), 1, status=ExecutorStatus.DRAINING)

    assert sweep.executor_leases_expire(NOW).stale == 1
    assert status_of(executor) == ExecutorStatus.STALE
    assert history(executor) == [("draining", "stale", "lease expired")]


@pytest.mark.parametrize("status", [ExecutorStatus.OFFLINE, ExecutorStatus.DEREGISTERED])
def test_offline_and_deregistered_executors_are_left_alone(path, status):
    executor = lapsed(ChainFactory(), 10 * GRACE, status=status)

    report = sweep.executor_leases_expire(NOW)

    assert (report.stale, report.offline) == (0, 0)
    assert status_of(executor) == status
    assert history(executor) == []


def test_every_transition_is_recorded_with_its_cause_and_time(path):
    going_stale = lapsed(ChainFactory(), 1)
    going_offline = lapsed(ChainFactory(), GRACE, status=ExecutorStatus.STALE)
    untouched = fresh(ChainFactory())[0]

    sweep.executor_leases_expire(NOW)

    def recorded(executor):
        change = ExecutorStatusChange.objects.get(executor=executor)
        return change.from_status, change.to_status, change.cause, change.created_at

    assert recorded(going_stale) == ("healthy", "stale", "lease expired", NOW)
    assert recorded(going_offline) == ("stale", "offline", "grace expired", NOW)
    assert history(untouched) == []
    assert Executor.objects.get(pk=going_stale.pk).status_changed_at == NOW
    assert Executor.objects.get(pk=going_offline.pk).status_changed_at == NOW


def test_a_second_sweep_moves_nothing_again(path):
    chain = ChainFactory()
    lapsed(chain, 1)
    lapsed(chain, GRACE, status=ExecutorStatus.STALE)
    sweep.executor_leases_expire(NOW)

    report = sweep.executor_leases_expire(NOW)

    assert (report.stale, report.offline) == (0, 0)
    assert ExecutorStatusChange.objects.count() == 2


def test_both_paths_move_the_same_executors(monkeypatch):
    def scenario():
        chain = ChainFactory()
        kept = fresh(chain, 7)  # one of ten goes offline: under the share
        stale = [lapsed(chain, 1), lapsed(chain, 2, status=ExecutorStatus.DRAINING)]
        offline = [lapsed(chain, GRACE + 1, status=ExecutorStatus.STALE)]
        untouched = [lapsed(chain, GRACE, status=ExecutorStatus.OFFLINE)]
        return kept, stale, offline, untouched

    def outcome(groups):
        return [[(status_of(e), history(e)) for e in group] for group in groups]

    native = scenario()
    native_report = sweep.executor_leases_expire(NOW)
    monkeypatch.setattr(sweep, "_move_postgresql", sweep._move_portable)
    portable = scenario()
    portable_report = sweep.executor_leases_expire(NOW)

    assert native_report == portable_report == sweep.SweepReport(stale=2, offline=1)
    assert outcome(native) == outcome(portable)


def test_the_portable_path_moves_only_the_statuses_it_is_given():
    chain = ChainFactory()
    healthy, stale = lapsed(chain, 1), lapsed(chain, 1, status=ExecutorStatus.STALE)

    moved = sweep._move_portable((ExecutorStatus.HEALTHY,), ExecutorStatus.STALE, "lease expired",
                                 NOW, NOW, None)

    assert moved == 1
    assert (status_of(healthy), status_of(stale)) == ("stale", "stale")
    assert history(stale) == []


# The command and the task -----------------------------------------------------------------


def test_expire_executors_runs_one_sweep_and_says_what_it_moved():
    chain = ChainFactory()
    now = timezone.now()
    ExecutorFactory(chain=chain, lease_expires_at=now - timedelta(seconds=1))
    ExecutorFactory(chain=chain, status=ExecutorStatus.STALE,
                    lease_expires_at=now - timedelta(seconds=GRACE + 1))
    out = StringIO()

    call_command("expire_executors", stdout=out)

    assert out.getvalue() == "stale 1, offline 1\n"
    assert Executor.objects.filter(status=ExecutorStatus.OFFLINE).count() == 1


def test_expire_executors_says_which_chains_hold_back():
    chain = ChainFactory()
    now = timezone.now()
    for _ in range(5):
        ExecutorFactory(chain=chain)
        ExecutorFactory(chain=chain, status=ExecutorStatus.STALE,
                        lease_expires_at=now - timedelta(seconds=GRACE + 1))
    out = StringIO()

    call_command("expire_executors", stdout=out)

    assert out.getvalue().splitlines() == [
        "stale 0, offline 0",
        f"self-preservation: chain {chain.chain_id} holds back 5 executor(s)",
    ]


def test_the_beat_task_returns_the_sweep_report():
    from executors.tasks import expire_leases

    chain = ChainFactory()
    ExecutorFactory(chain=chain, lease_expires_at=timezone.now() - timedelta(seconds=1))

    result = expire_leases.apply()

    assert result.get() == {"stale": 1, "offline": 0, "heldBack": {}}


# Self-preservation ------------------------------------------------------------------------


def chain_with(live: int, due: int):
    """A chain of `live + due` executors, `due` of them stale past the grace."""
    chain = ChainFactory()
    fresh(chain, live)
    for _ in range(due):
        lapsed(chain, GRACE + 1, status=ExecutorStatus.STALE)
    return chain


def offline_count(chain) -> int:
    return Executor.objects.filter(chain=chain, status=ExecutorStatus.OFFLINE).count()


def test_a_chain_that_would_lose_half_its_executors_at_once_holds_back(path, caplog, anon):
    chain = chain_with(live=5, due=5)

    with caplog.at_level(logging.WARNING, logger=SWEEP_LOGGER):
        report = sweep.executor_leases_expire(NOW)

    assert report.offline == 0
    assert report.held_back == {chain.chain_id: 5}
    assert offline_count(chain) == 0
    assert Executor.objects.filter(chain=chain, status=ExecutorStatus.STALE).count() == 5
    hold = SelfPreservation.objects.get(chain=chain)
    assert (hold.since, hold.checked_at, hold.would_go_offline, hold.executors) == (NOW, NOW, 5, 10)
    [warning] = [r for r in caplog.records if r.name == SWEEP_LOGGER]
    assert warning.levelno == logging.WARNING
    assert "Self-preservation" in warning.getMessage()
    assert f"chain {chain.chain_id} would take 5 of 10" in warning.getMessage()

    response = anon.get("/readyz")
    assert response.status_code == 200
    assert response.json()["checks"]["executors"]["selfPreservation"] == [{
        "chainId": chain.chain_id, "since": NOW.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "wouldGoOffline": 5, "executors": 10,
    }]


def test_a_hold_warns_once_and_keeps_its_start(path, caplog):
    chain = chain_with(live=5, due=5)
    sweep.executor_leases_expire(NOW)
    caplog.clear()

    with caplog.at_level(logging.WARNING, logger=SWEEP_LOGGER):
        report = sweep.executor_leases_expire(NOW + timedelta(seconds=10))

    assert report.held_back == {chain.chain_id: 5}
    assert [r for r in caplog.records if r.name == SWEEP_LOGGER] == []
    hold = SelfPreservation.objects.get(chain=chain)
    assert (hold.since, hold.checked_at) == (NOW, NOW + timedelta(seconds=10))


def test_readyz_lists_no_hold_when_every_chain_sweeps(anon):
    assert anon.get("/readyz").json()["checks"]["executors"]["selfPreservation"] == []


def test_the_admin_lists_the_holds(client):
    chain = chain_with(live=5, due=5)
    sweep.executor_leases_expire(NOW)
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(user)

    response = client.get("/admin/executors/selfpreservation/")

    assert response.status_code == 200
    [hold] = response.context["cl"].result_list
    assert (hold.chain_id, hold.would_go_offline, hold.executors) == (chain.chain_id, 5, 10)
    assert str(chain) in response.content.decode()


@pytest.mark.parametrize("due", [1, 2])
def test_a_chain_of_fewer_than_three_executors_is_never_held_back(path, due):
    chain_with(live=2 - due, due=due)

    report = sweep.executor_leases_expire(NOW)

    assert report.offline == due
    assert report.held_back == {}
    assert not SelfPreservation.objects.exists()


def test_a_chain_of_three_is_held_back(path):
    chain = chain_with(live=2, due=1)  # a third: over the share

    assert sweep.executor_leases_expire(NOW).held_back == {chain.chain_id: 1}


@pytest.mark.parametrize(("live", "due"), [(9, 1), (17, 3)])  # 10 %, and exactly 15 %
def test_a_share_up_to_the_limit_goes_offline(path, live, due):
    chain = chain_with(live=live, due=due)

    report = sweep.executor_leases_expire(NOW)

    assert (report.offline, report.held_back) == (due, {})
    assert offline_count(chain) == due
    assert not SelfPreservation.objects.exists()


def test_the_share_is_configurable(path, settings):
    settings.EXECUTOR_SELF_PRESERVATION_SHARE = 0.5
    chain = chain_with(live=5, due=5)

    assert sweep.executor_leases_expire(NOW).offline == 5
    assert offline_count(chain) == 5


def test_offline_executors_do_not_count_towards_the_share(path):
    chain = chain_with(live=9, due=1)
    for _ in range(20):
        lapsed(chain, 10 * GRACE, status=ExecutorStatus.OFFLINE)

    assert sweep.executor_leases_expire(NOW).offline == 1  # 1 of 10, not of 30


def test_the_hold_is_released_once_the_executors_come_back(path):
    chain = chain_with(live=5, due=5)
    sweep.executor_leases_expire(NOW)
    stale = list(Executor.objects.filter(chain=chain, status=ExecutorStatus.STALE))
    holder = KeyHolder(KeyScope.ADMIN, "test", "test")
    later = NOW + timedelta(seconds=5)
    for executor in stale[:4]:
        Executor.heartbeat(chain_ref=str(chain.chain_id), holder=holder, executor_id=executor.pk, reported="ok",
                          now=later)

    report = sweep.executor_leases_expire(later)

    assert (report.offline, report.held_back) == (1, {})  # 1 of 10 is under the share
    assert status_of(stale[4]) == ExecutorStatus.OFFLINE
    assert not SelfPreservation.objects.exists()
    assert history(stale[0]) == [("stale", "healthy", "heartbeat: ok")]


def test_the_hold_ends_after_its_maximum_and_says_so(path, settings, caplog):
    settings.EXECUTOR_SELF_PRESERVATION_MAX_SECONDS = 300
    chain = chain_with(live=5, due=5)
    sweep.executor_leases_expire(NOW)

    report = sweep.executor_leases_expire(NOW + timedelta(seconds=299))
    assert report.held_back == {chain.chain_id: 5}
    assert offline_count(chain) == 0
    caplog.clear()

    with caplog.at_level(logging.WARNING, logger=SWEEP_LOGGER):
        report = sweep.executor_leases_expire(NOW + timedelta(seconds=300))

    assert (report.offline, report.held_back) == (5, {})
    assert offline_count(chain) == 5
    assert not SelfPreservation.objects.exists()
    [warning] = [r for r in caplog.records if r.name == SWEEP_LOGGER]
    assert "ended" in warning.getMessage()
    assert "taking 5 of 10 executors offline" in warning.getMessage()


def test_chains_are_held_back_independently(path):
    held = chain_with(live=5, due=5)
    below_share = chain_with(live=9, due=1)
    small = chain_with(live=0, due=2)

    report = sweep.executor_leases_expire(NOW)

    assert report.held_back == {held.chain_id: 5}
    assert report.offline == 3
    assert (offline_count(held), offline_count(below_share), offline_count(small)) == (0, 1, 2)
    assert list(SelfPreservation.objects.values_list("chain_id", flat=True)) == [held.chain_id]


def test_a_hold_on_one_chain_does_not_stop_another_going_stale(path):
    chain_with(live=5, due=5)
    other = ChainFactory()
    executor = lapsed(other, 1)

    report = sweep.executor_leases_expire(NOW)

    assert report.stale == 1
    assert status_of(executor) == ExecutorStatus.STALE

"""RPC probes against real anvil nodes: the health model, its history, overrides, the
probe_rpcs command and the Celery task.

Only the slow endpoint is a stub (tests.anvil.StubRpc): anvil cannot be made to answer late.
"""

import io
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from registry.chain_client import chain_client, ordered_endpoints
from registry.models import RpcEndpoint, RpcProbe
from registry.probes import LOCK_NAME, probe_rpcs
from registry.tasks import probe_chain, probe_rpc_endpoints
from tests.anvil import StubRpc, closed_url, free_port
from tests.factories import ChainFactory, RpcEndpointFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def chain():
    return ChainFactory(chain_id=31337, short_name="anvil", name="Anvil")


def probe(**kwargs) -> dict:
    return probe_rpcs(due_only=False, **kwargs)


def shown(admin, endpoint) -> dict:
    response = admin.get(f"/v1/admin/rpc/{endpoint.pk}")
    assert response.status_code == 200, response.content
    return response.json()


def health(endpoint) -> tuple:
    endpoint.refresh_from_db()
    return endpoint.status, endpoint.consecutive_failures, endpoint.consecutive_successes



def run_command(*args) -> str:
    out = io.StringIO()
    call_command("probe_rpcs", *args, stdout=out)
    return out.getvalue()


# --- One endpoint, one probe ----------------------------------------------------------------


def test_a_live_node_is_healthy_after_one_probe(admin, chain, anvil_factory):
    node = anvil_factory()
    node.mine(7)
    endpoint = RpcEndpointFactory(chain=chain, url=node.url)

    assert probe() == {"probed": 1, "healthy": 1}

    body = shown(admin, endpoint)
    assert (body["status"], body["probeStatus"]) == ("healthy", "healthy")
    assert body["headBlock"] == node.block_number() == 7
    assert body["lagBlocks"] == 0
    assert body["latencyMs"] > 0
    assert body["observedChainId"] == 31337
    assert body["syncing"] is False  # anvil answers eth_syncing with false
    assert (body["consecutiveFailures"], body["consecutiveSuccesses"]) == (0, 1)
    assert body["lastCheckedAt"].endswith("Z")
    assert body["lastError"] == ""
    row = RpcProbe.objects.get()
    assert (row.endpoint_id, row.ok, row.head_block, row.error) == (endpoint.pk, True, 7, "")
    assert row.latency_ms > 0


def test_a_websocket_endpoint_is_probed_too(chain, anvil_factory):
    node = anvil_factory()  # anvil serves ws on its http port
    endpoint = RpcEndpointFactory(chain=chain, url=f"ws://127.0.0.1:{node.port}")

    probe()

    endpoint.refresh_from_db()
    assert (endpoint.status, endpoint.head_block, endpoint.observed_chain_id) == (
        "healthy", 0, 31337
    )


def test_the_latency_is_a_moving_average(chain, anvil_factory):
    endpoint = RpcEndpointFactory(chain=chain, url=anvil_factory().url, latency_ms=100.0)

    probe()

    endpoint.refresh_from_db()
    # 0.3 × a local sample (a few ms) + 0.7 × 100.
    assert 70 < endpoint.latency_ms < 80


# --- Wrong chain ------------------------------------------------------------------------------


def test_a_node_of_another_chain_is_down_at_once_and_out_of_rotation(admin, chain, anvil_factory):
    good = anvil_factory()
    good.mine(3)
    wrong = anvil_factory(chain_id=31338)
    impostor = RpcEndpointFactory(chain=chain, url=wrong.url, priority=0)
    RpcEndpointFactory(chain=chain, url=good.url, priority=1)

    probe()

    body = shown(admin, impostor)
    assert (body["status"], body["observedChainId"], body["consecutiveFailures"]) == (
        "down", 31338, 1
    )
    assert "31338" in body["lastError"] and "31337" in body["lastError"]
    assert RpcProbe.objects.get(endpoint=impostor).ok is False
    assert impostor.pk not in [e.pk for e in ordered_endpoints(chain)]
    assert chain_client(chain).eth.block_number == 3  # the good node, though of lower priority

    # The same port, now the right chain: back after two successful probes, not one.
    wrong.stop()
    wrong.chain_id = 31337
    wrong.start()
    probe()
    assert health(impostor) == ("down", 0, 1)
    probe()
    assert health(impostor) == ("healthy", 0, 2)


def test_a_wrong_chain_endpoint_stays_out_of_rotation_while_it_is_silent(chain, anvil_factory):
    wrong = anvil_factory(chain_id=31338)
    endpoint = RpcEndpointFactory(chain=chain, url=wrong.url)
    probe()
    wrong.stop()

    probe()

    endpoint.refresh_from_db()
    assert (endpoint.status, endpoint.observed_chain_id) == ("down", 31338)
    assert ordered_endpoints(chain) == []


# --- Failures and hysteresis ------------------------------------------------------------------


def test_a_closed_port_goes_down_after_three_failures(admin, chain):
    endpoint = RpcEndpointFactory(chain=chain, url=closed_url())

    seen = []
    for _ in range(4):
        probe()
        body = shown(admin, endpoint)
        seen.append((body["status"], body["consecutiveFailures"]))

    assert seen == [("unknown", 1), ("unknown", 2), ("down", 3), ("down", 4)]
    assert body["lastError"].startswith("connection failed")
    assert body["headBlock"] is None and body["latencyMs"] is None
    assert RpcProbe.objects.filter(endpoint=endpoint, ok=False).count() == 4


def test_a_node_stopped_and_restarted_goes_down_and_comes_back_with_hysteresis(admin, chain,
                                                                               anvil_factory):
    node = anvil_factory()
    endpoint = RpcEndpointFactory(chain=chain, url=node.url)

    def probe_and_show():
        run_command()  # the command, and what the API then shows
        body = shown(admin, endpoint)
        return body["status"], body["consecutiveFailures"], body["consecutiveSuccesses"]

    assert probe_and_show() == ("healthy", 0, 1)
    node.stop()
    assert [probe_and_show() for _ in range(3)] == [
        ("degraded", 1, 0), ("degraded", 2, 0), ("down", 3, 0),
    ]
    node.start()
    assert [probe_and_show() for _ in range(2)] == [("down", 0, 1), ("healthy", 0, 2)]
    history = RpcProbe.objects.filter(endpoint=endpoint).order_by("id")
    assert list(history.values_list("ok", flat=True)) == [True, False, False, False, True, True]


def test_one_failure_then_a_success_makes_a_degraded_node_healthy_again(chain, anvil_factory):
    node = anvil_factory()
    endpoint = RpcEndpointFactory(chain=chain, url=node.url)
    probe()
    node.stop()
    probe()
    assert health(endpoint) == ("degraded", 1, 0)

    node.start()
    probe()

    assert health(endpoint) == ("healthy", 0, 1)


# --- Lag and syncing --------------------------------------------------------------------------


def test_a_node_behind_the_best_one_of_its_chain_lags_and_is_degraded(admin, chain, anvil_factory):
    ahead, behind = anvil_factory(), anvil_factory()
    leader = RpcEndpointFactory(chain=chain, url=ahead.url)
    laggard = RpcEndpointFactory(chain=chain, url=behind.url)
    ahead.mine(20)

    probe()

    assert (shown(admin, leader)["status"], shown(admin, leader)["lagBlocks"]) == ("healthy", 0)
    body = shown(admin, laggard)
    assert (body["status"], body["lagBlocks"], body["headBlock"]) == ("degraded", 20, 0)

    behind.mine(17)  # within RPC_MAX_LAG_BLOCKS (5) of the leader: healthy again
    probe()

    body = shown(admin, laggard)
    assert (body["status"], body["lagBlocks"], body["headBlock"]) == ("healthy", 3, 17)


def test_the_lag_is_measured_within_one_chain(chain, anvil_factory):
    other = ChainFactory(chain_id=31338)
    mine, theirs = anvil_factory(), anvil_factory(chain_id=31338)
    theirs.mine(50)
    endpoint = RpcEndpointFactory(chain=chain, url=mine.url)
    RpcEndpointFactory(chain=other, url=theirs.url)

    probe()

    endpoint.refresh_from_db()
    assert (endpoint.status, endpoint.lag_blocks) == ("healthy", 0)


def test_an_odd_answer_fails_its_endpoint_and_not_the_whole_cycle(chain, anvil_factory):
    node = anvil_factory()
    live = RpcEndpointFactory(chain=chain, url=node.url)
    deep = b'{"jsonrpc": "2.0", "id": 1, "result": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with StubRpc(body=deep) as odd:
        broken = RpcEndpointFactory(chain=chain, url=odd.url)
        probe()

    assert health(live)[0] == "healthy"
    broken.refresh_from_db()
    assert (broken.consecutive_failures, broken.last_error) == (1, "invalid response")


def test_an_answer_that_is_not_json_rpc_is_a_failure(chain):
    with StubRpc(body=b"<html>captive portal</html>") as portal:
        endpoint = RpcEndpointFactory(chain=chain, url=portal.url)
        probe()

    endpoint.refresh_from_db()
    assert endpoint.consecutive_failures == 1
    assert endpoint.last_error == "invalid response"


# --- Timeouts and concurrency -----------------------------------------------------------------


def test_a_slow_endpoint_times_out_with_the_timeout_named(admin, chain):
    with StubRpc(delay=1.5) as slow:
        endpoint = RpcEndpointFactory(chain=chain, url=slow.url, probe_timeout_ms=300)
        started = time.perf_counter()
        probe()
        elapsed = time.perf_counter() - started

    body = shown(admin, endpoint)
    assert body["lastError"] == "timed out after 300 ms"
    assert (body["status"], body["consecutiveFailures"]) == ("unknown", 1)
    assert elapsed < 1.0  # no retry, no waiting for the late answer


def test_a_cycle_over_many_slow_endpoints_takes_about_one_timeout(chain, anvil_factory):
    node = anvil_factory()
    timeout_ms = 500
    with StubRpc(delay=2.0) as slow:
        # Distinct URLs (unique per chain) on the same servers: a query string varies them.
        slow_ones = [RpcEndpointFactory(chain=chain, url=f"{slow.url}/?n={n}",
                                        probe_timeout_ms=timeout_ms) for n in range(20)]
        live_ones = [RpcEndpointFactory(chain=chain, url=f"{node.url}/?n={n}",
                                        probe_timeout_ms=timeout_ms) for n in range(5)]
        for _ in range(5):
            RpcEndpointFactory(chain=chain, url=closed_url(), probe_timeout_ms=timeout_ms)

        started = time.perf_counter()
        summary = probe()
        elapsed = time.perf_counter() - started

    # Concurrent, not one after another: in turn, the slow ones alone would take 10 s. The
    # bound is loose so that a busy machine does not fail it; bench/probes.py measures.
    one_after_another = len(slow_ones) * timeout_ms / 1000
    assert elapsed < one_after_another / 4, f"{elapsed:.2f} s for one cycle"
    assert summary == {"probed": 30, "unknown": 25, "healthy": 5}
    live = RpcEndpoint.objects.filter(pk__in=[e.pk for e in live_ones])
    assert set(live.values_list("status", flat=True)) == {"healthy"}
    assert set(RpcEndpoint.objects.filter(pk__in=[e.pk for e in slow_ones])
               .values_list("last_error", flat=True)) == {f"timed out after {timeout_ms} ms"}


# --- What is probed, and when ---------------------------------------------------------------


def test_only_due_endpoints_are_probed_and_never_unmonitored_ones(chain):
    now = timezone.now()
    never = RpcEndpointFactory(chain=chain, url=closed_url())
    recent = RpcEndpointFactory(chain=chain, url=closed_url(), probe_interval_seconds=30,
                                last_checked_at=now - timedelta(seconds=10))
    overdue = RpcEndpointFactory(chain=chain, url=closed_url(), probe_interval_seconds=30,
                                 last_checked_at=now - timedelta(seconds=31))
    unmonitored = RpcEndpointFactory(chain=chain, url=closed_url(), monitoring_enabled=False)

    assert probe_rpcs(due_only=True, now=now)["probed"] == 2

    assert set(RpcProbe.objects.values_list("endpoint_id", flat=True)) == {never.pk, overdue.pk}
    recent.refresh_from_db()
    assert recent.consecutive_failures == 0

    # Twenty seconds later, the recent one is due; the unmonitored one never is.
    assert probe_rpcs(due_only=True, now=now + timedelta(seconds=21))["probed"] == 1
    assert probe()["probed"] == 4 - 1
    unmonitored.refresh_from_db()
    assert (unmonitored.last_checked_at, unmonitored.probes.count()) == (None, 0)


def test_a_cycle_can_be_limited_to_one_chain(chain):
    ours = RpcEndpointFactory(chain=chain, url=closed_url())
    theirs = RpcEndpointFactory(url=closed_url())

    assert probe(chain=chain)["probed"] == 1

    assert list(RpcProbe.objects.values_list("endpoint_id", flat=True)) == [ours.pk]
    theirs.refresh_from_db()
    assert theirs.last_checked_at is None


def test_a_cycle_is_skipped_while_another_one_runs(chain):
    RpcEndpointFactory(chain=chain, url=closed_url())
    cache.add(LOCK_NAME, True)

    assert probe() == {"skipped": "another probe cycle is running"}
    assert RpcProbe.objects.count() == 0


# --- History and uptime -----------------------------------------------------------------------


def test_probe_rows_older_than_the_retention_period_are_deleted(chain, settings):
    settings.RPC_PROBE_RETENTION_HOURS = 48
    endpoint = RpcEndpointFactory(chain=chain, url=closed_url())
    now = timezone.now()
    old = RpcProbe.objects.create(endpoint=endpoint, ok=True, checked_at=now - timedelta(hours=49))
    kept = RpcProbe.objects.create(endpoint=endpoint, ok=True, checked_at=now - timedelta(hours=47))

    probe()

    assert not RpcProbe.objects.filter(pk=old.pk).exists()
    assert RpcProbe.objects.filter(pk=kept.pk).exists()
    assert RpcProbe.objects.count() == 2


def test_uptime_over_an_hour_and_a_day_is_shown_in_the_api(admin, chain):
    endpoint = RpcEndpointFactory(chain=chain, url=closed_url())
    silent = RpcEndpointFactory(chain=chain, url=closed_url())
    now = timezone.now()
    for minutes, ok in [(5, True), (15, True), (25, True), (35, False),  # last hour: 3 of 4
                        (300, False), (400, False), (500, False), (600, False),  # day: 3 of 8
                        (60 * 30, True)]:  # older than a day: not counted
        RpcProbe.objects.create(endpoint=endpoint, ok=ok,
                                checked_at=now - timedelta(minutes=minutes))

    assert shown(admin, endpoint)["uptime"] == {"1h": 0.75, "24h": 0.375}
    assert shown(admin, silent)["uptime"] == {"1h": None, "24h": None}
    listed = {r["id"]: r["uptime"] for r in admin.get("/v1/admin/rpc").json()["results"]}
    assert listed[endpoint.pk] == {"1h": 0.75, "24h": 0.375}


def test_uptime_follows_real_probes(admin, chain, anvil_factory):
    node = anvil_factory()
    endpoint = RpcEndpointFactory(chain=chain, url=node.url)
    probe()
    probe()
    node.stop()
    probe()
    probe()

    assert shown(admin, endpoint)["uptime"] == {"1h": 0.5, "24h": 0.5}


def test_uptime_is_shown_in_the_django_admin(chain):
    endpoint = RpcEndpointFactory(chain=chain, url=closed_url())
    RpcProbe.objects.create(endpoint=endpoint, ok=True)
    RpcProbe.objects.create(endpoint=endpoint, ok=False)
    site = Client()
    site.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "pw"))

    changelist = site.get(reverse("admin:registry_rpcendpoint_changelist"))
    change = site.get(reverse("admin:registry_rpcendpoint_change", args=[endpoint.pk]))

    assert changelist.status_code == change.status_code == 200
    assert "50.0 %" in changelist.content.decode()
    assert "50.0 %" in change.content.decode()


# --- Provider health overrides ----------------------------------------------------------------


def test_an_override_wins_over_probes_and_takes_the_endpoint_out_of_rotation(admin, chain,
                                                                            anvil_factory):
    first, second = anvil_factory(), anvil_factory()
    second.mine(5)  # tells the answers apart
    preferred = RpcEndpointFactory(chain=chain, url=first.url, priority=0)
    RpcEndpointFactory(chain=chain, url=second.url, priority=1)
    probe()
    assert chain_client(chain).eth.block_number == 0

    response = admin.post("/v1/admin/rpc/health",
                          {"rpcId": preferred.pk, "status": "maintenance", "reason": "upgrade"},
                          format="json")
    assert response.status_code == 201, response.content
    probe()  # the probe still measures it, and it is healthy, but the override wins

    body = shown(admin, preferred)
    assert (body["status"], body["probeStatus"]) == ("maintenance", "healthy")
    assert body["override"]["status"] == "maintenance"
    assert body["override"]["reason"] == "upgrade"
    assert preferred.pk not in [e.pk for e in ordered_endpoints(chain)]
    assert chain_client(chain).eth.block_number == 5

    admin.post("/v1/admin/rpc/health", {"rpcId": preferred.pk, "status": None}, format="json")

    body = shown(admin, preferred)
    assert (body["status"], body["override"]) == ("healthy", None)
    assert chain_client(chain).eth.block_number == 0


def test_a_provider_marked_down_leaves_rotation_though_its_probes_pass(admin, chain, anvil_factory):
    node = anvil_factory()
    endpoint = RpcEndpointFactory(chain=chain, url=node.url, provider="acme")
    probe()

    admin.post("/v1/admin/rpc/health", {"provider": "acme", "status": "down"}, format="json")
    probe()

    body = shown(admin, endpoint)
    assert (body["status"], body["probeStatus"]) == ("down", "healthy")
    assert ordered_endpoints(chain) == []


def test_an_override_to_healthy_ranks_a_probed_down_endpoint_first(admin, chain, anvil_factory):
    node = anvil_factory()
    rescued = RpcEndpointFactory(chain=chain, url=closed_url(), priority=0)
    RpcEndpointFactory(chain=chain, url=node.url, priority=1)
    for _ in range(3):
        probe()
    assert health(rescued)[0] == "down"

    admin.post("/v1/admin/rpc/health", {"rpcId": rescued.pk, "status": "healthy"}, format="json")

    assert shown(admin, rescued)["status"] == "healthy"
    assert ordered_endpoints(chain)[0].pk == rescued.pk


# --- Masking ----------------------------------------------------------------------------------


SECRET = "hunter2Secret"


def test_credentials_in_urls_are_masked_in_the_error_and_the_command_output(admin, chain):
    port = free_port()
    endpoint = RpcEndpointFactory(
        chain=chain, url=f"http://user:{SECRET}@127.0.0.1:{port}/?apikey={SECRET}"
    )

    output = run_command()

    body = shown(admin, endpoint)
    assert body["lastError"].startswith("connection failed")
    assert SECRET not in body["lastError"]
    assert SECRET not in endpoint.probes.get().error
    assert SECRET not in output
    assert f"http://***@127.0.0.1:{port}/?apikey=***" in output


# --- The command and the task -----------------------------------------------------------------


def test_the_command_probes_and_prints_a_line_per_endpoint(chain, anvil_factory):
    node = anvil_factory()
    node.mine(4)
    live = RpcEndpointFactory(chain=chain, url=node.url)
    dead = RpcEndpointFactory(chain=chain, url=closed_url())
    RpcEndpointFactory(chain=chain, url=closed_url(), monitoring_enabled=False)

    lines = run_command().splitlines()
    assert len(lines) == 3, lines  # two endpoints and the summary
    live_line = next(line for line in lines if live.url in line)
    dead_line = next(line for line in lines if dead.url in line)
    assert " healthy " in live_line and "head 4" in live_line
    assert " unknown " in dead_line and "connection failed" in dead_line
    assert lines[-1] == "probed 2, healthy 1, unknown 1"


@pytest.mark.parametrize("ref", ["31337", "anvil"])
def test_the_command_takes_a_chain_by_id_or_short_name(chain, ref):
    ours = RpcEndpointFactory(chain=chain, url=closed_url())
    theirs = RpcEndpointFactory(url=closed_url())

    output = run_command("--chain", ref)

    assert ours.url in output and theirs.url not in output
    assert list(RpcProbe.objects.values_list("endpoint_id", flat=True)) == [ours.pk]


def test_the_command_refuses_an_unknown_chain(chain):
    with pytest.raises(CommandError, match="No chain 'nope'"):
        call_command("probe_rpcs", "--chain", "nope")


def test_the_command_says_when_another_cycle_is_running(chain):
    cache.add(LOCK_NAME, True)

    with pytest.raises(CommandError, match="another probe cycle is running"):
        run_command()


def test_the_celery_task_probes_the_due_endpoints(chain, anvil_factory):
    endpoint = RpcEndpointFactory(chain=chain, url=anvil_factory().url)
    RpcEndpointFactory(chain=chain, url=closed_url(), last_checked_at=timezone.now())

    result = probe_rpc_endpoints.apply()

    # One probe task per chain with endpoints due (run at once without a broker).
    assert result.successful(), result.traceback
    assert result.get() == [chain.chain_id]
    assert health(endpoint) == ("healthy", 0, 1)
    assert probe_chain.apply(args=[chain.chain_id]).get() == {"probed": 0}  # none due now

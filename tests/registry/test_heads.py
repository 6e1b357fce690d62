"""Following a chain's head (registry/heads.py) on real anvil nodes, over a websocket and
by polling, and against hostile servers on 127.0.0.1 (websocket and HTTP): whatever they
send, the follower goes on, and reports heads again once the endpoint answers right.

The follower runs in the test's own thread (it reads the test's rows, in the test's
transaction) until the heads it reported satisfy the test, or a timer stops it."""

import threading
import time

import pytest
from web3 import HTTPProvider, Web3

from registry import heads
from registry.heads import HeadFollower, block_time
from tests.factories import ChainFactory, RpcEndpointFactory
from tests.hostile_rpc import SECRET_TEXT, HostileRpc
from tests.hostile_ws import HostileWs

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """Back-offs and time-outs of a test's length."""
    monkeypatch.setattr(heads, "BACKOFF_FIRST", 0.2)
    monkeypatch.setattr(heads, "BACKOFF_MAX", 1.0)
    monkeypatch.setattr(heads, "TIMEOUT_SECONDS", 1.0)
    monkeypatch.setattr(heads, "MIN_STALL_SECONDS", 1.0)


def follow(chain, until, timeout: float = 10) -> tuple[HeadFollower, list[int]]:
    """Run a follower of `chain` here until `until(heads)` (or `timeout` seconds)."""
    reported = []

    def on_head(number):
        reported.append(number)
        if until(reported):
            follower.stop.set()

    follower = HeadFollower(chain.chain_id, on_head)
    timer = threading.Timer(timeout, follower.stop.set)
    timer.start()
    try:
        follower.run()
    finally:
        timer.cancel()
    return follower, reported


class Miner:
    """Mines a block on `node` every `every` seconds, in a thread, while in its block."""

    def __init__(self, node, every: float):
        self.node, self.every, self.stop = node, every, threading.Event()
        self.mined: dict[int, float] = {}  # block -> when it was mined

    def run(self):
        while not self.stop.wait(self.every):
            self.node.mine()
            self.mined[self.node.block_number()] = time.monotonic()

    def __enter__(self):
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=5)


def consecutive(numbers: list[int]) -> bool:
    return all(b == a + 1 for a, b in zip(numbers, numbers[1:]))


@pytest.mark.chain
def test_a_websocket_endpoint_reports_each_block_as_it_is_mined(anvil_factory):
    node = anvil_factory()
    chain = ChainFactory()
    RpcEndpointFactory(chain=chain, url=f"ws://127.0.0.1:{node.port}")
    reported_at = {}

    with Miner(node, every=0.4) as miner:
        follower, reported = follow(chain, lambda seen: (
            reported_at.setdefault(seen[-1], time.monotonic()) and len(seen) >= 5))

    assert follower.mode == "websocket"
    assert len(reported) >= 5 and consecutive(reported), reported
    # Pushed by the node: seen well within a block of being mined.
    late = [reported_at[n] - miner.mined[n] for n in reported if n in miner.mined]
    assert late and max(late) < 0.3, late


@pytest.mark.chain
def test_without_a_websocket_the_head_is_polled_at_the_block_time_learned(anvil_factory):
    node = anvil_factory()
    node.rpc("anvil_mine", [hex(25), hex(1)])  # recent blocks a second apart
    node.rpc("evm_setIntervalMining", [1])
    chain = ChainFactory()
    RpcEndpointFactory(chain=chain, url=node.url)

    follower, reported = follow(chain, lambda seen: len(seen) >= 4, timeout=12)

    assert follower.mode == "polling" and follower.block_time == 1.0
    assert len(reported) >= 4 and consecutive(reported), reported


@pytest.mark.chain
@pytest.mark.parametrize("interval, learned", [(12, 12.0), (3600, heads.MAX_BLOCK_TIME)])
def test_the_block_time_is_the_median_gap_of_recent_blocks_within_bounds(
        anvil_factory, interval, learned):
    node = anvil_factory()
    node.rpc("anvil_mine", [hex(30), hex(interval)])
    assert block_time(Web3(HTTPProvider(node.url))) == learned


@pytest.mark.chain
def test_blocks_made_within_one_second_give_the_lower_bound(anvil_factory):
    node = anvil_factory()
    node.mine(30)  # at once: mostly the same second
    assert block_time(Web3(HTTPProvider(node.url))) == heads.MIN_BLOCK_TIME


@pytest.mark.parametrize("kind", ["garbage", "rpc-error", "silent", "close", "huge-number",
                                  "not-a-header", "other-subscription"])
def test_a_hostile_websocket_never_stops_the_follower_which_comes_back_when_it_mends(
        kind, caplog):
    chain = ChainFactory()
    with HostileWs(kind) as server:
        RpcEndpointFactory(chain=chain, url=server.url)
        threading.Timer(1.5, setattr, (server, "kind", "good")).start()

        follower, reported = follow(chain, lambda seen: len(seen) >= 3, timeout=15)

    assert len(reported) >= 3 and consecutive(reported), (kind, reported)
    assert follower.mode == "websocket"
    if kind != "other-subscription":  # that one is read past, not a failure
        assert server.connections >= 2
        assert "Following chain" in caplog.text
    assert SECRET_TEXT not in caplog.text


def test_a_head_going_backwards_is_reported_as_a_reorganisation(caplog):
    chain = ChainFactory()
    with HostileWs("backwards", heads=(10, 11, 9)) as server:
        RpcEndpointFactory(chain=chain, url=server.url)
        _, reported = follow(chain, lambda seen: len(seen) >= 3, timeout=5)

    assert reported == [10, 11, 9]
    assert "went back from 11 to 9" in caplog.text


@pytest.mark.parametrize("kind", ["garbage", "rpc-error", "html", "not-json-rpc",
                                  "block-over-bigint", "http-500", "hang", "redirect"])
def test_hostile_http_answers_never_stop_polling_which_comes_back_when_they_mend(
        kind, caplog):
    chain = ChainFactory()
    with HostileRpc(kind, location="http://169.254.169.254/", hang_seconds=2) as server:
        RpcEndpointFactory(chain=chain, url=server.url)
        # "chain-id-over-bigint" answers eth_blockNumber with 0x1: a head at last.
        threading.Timer(2.5, setattr, (server._server, "kind", "chain-id-over-bigint")).start()

        follower, reported = follow(chain, lambda seen: True, timeout=10)

    assert reported == [1] and follower.mode == "polling"
    assert "Polling the head of chain" in caplog.text
    assert SECRET_TEXT not in caplog.text


def test_a_flood_of_heads_is_folded_into_reports_at_most_the_gap_apart():
    chain = ChainFactory()
    with HostileWs("good", every=0.01) as server:
        RpcEndpointFactory(chain=chain, url=server.url)
        started = time.monotonic()
        _, reported = follow(chain, lambda seen: time.monotonic() - started > 2, timeout=5)

    assert 3 <= len(reported) <= 2 / heads.MIN_REPORT_GAP + 2, reported
    assert reported == sorted(reported) and server.next_head - reported[-1] < 30

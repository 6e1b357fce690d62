"""The chain client: the best endpoint first, failover on real node failures, no hidden retries.

Failover is tested against real anvil nodes. A stub server (tests.anvil.StubRpc) stands in only
for HTTP 429 and 503, which anvil cannot be made to answer.
"""

import time

import pytest
import requests
from web3.exceptions import Web3RPCError

from registry.chain_client import NoEndpointAvailable, chain_client, ordered_endpoints
from registry.models import ProviderHealth, RpcEndpoint
from tests.anvil import StubRpc, closed_url, free_port
from tests.factories import ChainFactory, RpcEndpointFactory

pytestmark = pytest.mark.django_db

SECRET = "hunter2Secret"


@pytest.fixture
def chain():
    return ChainFactory(chain_id=31337, short_name="anvil", name="Anvil")



def healthy(chain, url, **fields) -> RpcEndpoint:
    return RpcEndpointFactory(chain=chain, url=url, status="healthy", **fields)


def failures(endpoint) -> tuple[int, str]:
    endpoint.refresh_from_db()
    return endpoint.consecutive_failures, endpoint.last_error


# --- Order ------------------------------------------------------------------------------------


def test_endpoints_are_ordered_by_status_then_priority_then_latency(chain):
    def make(status, priority, latency):
        return RpcEndpointFactory(chain=chain, url=closed_url(), status=status, priority=priority,
                                  latency_ms=latency)

    down = make("down", 0, 1.0)
    unknown = make("unknown", 0, None)
    degraded = make("degraded", 0, 1.0)
    healthy_slow_p1 = make("healthy", 1, 1.0)
    healthy_fast_p0 = make("healthy", 0, 10.0)
    healthy_slow_p0 = make("healthy", 0, 90.0)
    unmeasured_p0 = make("healthy", 0, None)

    assert ordered_endpoints(chain) == [healthy_fast_p0, healthy_slow_p0, unmeasured_p0,
                                        healthy_slow_p1, degraded, unknown, down]


def test_websocket_wrong_chain_and_other_chains_endpoints_are_left_out(chain):
    usable = healthy(chain, closed_url())
    healthy(chain, f"ws://127.0.0.1:{free_port()}")
    healthy(chain, f"wss://127.0.0.1:{free_port()}")
    healthy(chain, closed_url(), observed_chain_id=1)  # answered another chain's id
    healthy(ChainFactory(), closed_url())

    assert ordered_endpoints(chain) == [usable]


def test_an_override_in_force_moves_or_removes_an_endpoint(chain):
    first = healthy(chain, closed_url(), priority=0)
    second = healthy(chain, closed_url(), priority=1)
    rescued = RpcEndpointFactory(chain=chain, url=closed_url(), status="down", priority=2)
    ProviderHealth.objects.create(rpc_endpoint=first, status="maintenance")
    ProviderHealth.objects.create(rpc_endpoint=second, status="degraded")
    ProviderHealth.objects.create(rpc_endpoint=rescued, status="healthy")

    assert ordered_endpoints(chain) == [rescued, second]


# --- Failover on real nodes -------------------------------------------------------------------


def test_the_client_keeps_answering_while_the_first_node_dies(chain, anvil_factory):
    first, second = anvil_factory(), anvil_factory()
    second.mine(5)  # tells the answers apart
    # Credentials in the URL: the recorded failure must show them masked.
    dying = healthy(chain, f"http://user:{SECRET}@127.0.0.1:{first.port}/?apikey={SECRET}",
                    priority=0)
    healthy(chain, second.url, priority=1)
    client = chain_client(chain, timeout=2)

    answers = []
    for n in range(20):
        if n == 10:
            first.stop()
        answers.append(client.eth.block_number)

    assert answers == [0] * 10 + [5] * 10
    assert client.eth.chain_id == 31337
    count, error = failures(dying)
    assert count == 1  # sticky: the node that answered is asked first afterwards
    assert error.startswith("connection failed")
    assert SECRET not in error


def test_a_new_client_after_a_failover_still_reaches_a_live_node(chain, anvil_factory):
    first, second = anvil_factory(), anvil_factory()
    second.mine(5)
    dying = healthy(chain, first.url, priority=0)
    healthy(chain, second.url, priority=1)
    first.stop()

    assert chain_client(chain).eth.block_number == 5
    assert chain_client(chain).eth.block_number == 5
    assert failures(dying)[0] == 2  # each new client asked it once (the probes set the status)


def test_after_a_failover_the_node_that_answered_is_asked_first(chain, anvil_factory):
    first, second = anvil_factory(), anvil_factory()
    second.mine(5)
    healthy(chain, first.url, priority=0)
    healthy(chain, second.url, priority=1)
    client = chain_client(chain)
    first.stop()
    assert client.eth.block_number == 5

    first.start()  # back at block 0: an answer of 0 would mean the first node was asked

    assert client.eth.block_number == 5


@pytest.mark.parametrize("status", [429, 500, 503, 401, 403, 404])
def test_http_429_5xx_and_a_refused_key_fail_over_without_retry(chain, anvil_factory, status):
    node = anvil_factory()
    node.mine(2)
    with StubRpc(status=status) as refusing:
        refuser = healthy(chain, f"{refusing.url}/?key={SECRET}", priority=0)
        healthy(chain, node.url, priority=1)

        assert chain_client(chain).eth.block_number == 2

        assert refusing.requests == 1
    count, error = failures(refuser)
    assert count == 1
    assert error.startswith(f"HTTP {status}")
    assert SECRET not in error


def test_an_http_400_is_about_the_request_and_does_not_fail_over(chain):
    with StubRpc(status=400) as refusing, StubRpc() as second:
        first = healthy(chain, refusing.url, priority=0)
        healthy(chain, second.url, priority=1)

        with pytest.raises(requests.HTTPError):
            _ = chain_client(chain).eth.block_number

        assert (refusing.requests, second.requests) == (1, 0)
    assert failures(first) == (0, "")


def test_an_answer_that_is_not_json_rpc_fails_over(chain, anvil_factory):
    node = anvil_factory()
    with StubRpc(body=b"<html>captive portal</html>") as portal:
        odd = healthy(chain, portal.url, priority=0)
        healthy(chain, node.url, priority=1)

        assert chain_client(chain).eth.chain_id == 31337
    assert failures(odd)[1] == "invalid response"


def test_a_timeout_fails_over_within_the_timeout(chain, anvil_factory):
    node = anvil_factory()
    node.mine(2)
    with StubRpc(delay=3) as slow:
        late = healthy(chain, slow.url, priority=0)
        healthy(chain, node.url, priority=1)

        started = time.perf_counter()
        assert chain_client(chain, timeout=0.3).eth.block_number == 2
        elapsed = time.perf_counter() - started

        assert slow.requests == 1
    assert elapsed < 1.0
    assert failures(late)[1].startswith("timed out")


@pytest.mark.parametrize(("method", "params"), [
    ("nope_unknownMethod", []),
    ("eth_call", [{"data": "0x60006000fd"}, "latest"]),  # init code that reverts
])
def test_a_json_rpc_error_is_an_answer_and_does_not_fail_over(chain, anvil_factory, method,
                                                              params):
    node = anvil_factory()
    first = healthy(chain, node.url, priority=0)
    with StubRpc() as second:
        healthy(chain, second.url, priority=1)

        with pytest.raises(Web3RPCError):
            chain_client(chain).manager.request_blocking(method, params)

        assert second.requests == 0
    assert failures(first) == (0, "")


# --- Nothing answers --------------------------------------------------------------------------


def test_when_every_endpoint_fails_the_error_names_each_one_masked(chain):
    plain = healthy(chain, closed_url(), priority=0)
    port = free_port()
    healthy(chain, f"http://user:{SECRET}@127.0.0.1:{port}/?token={SECRET}", priority=1)

    with pytest.raises(NoEndpointAvailable) as raised:
        _ = chain_client(chain).eth.block_number

    message = str(raised.value)
    assert plain.url in message
    assert f"http://***@127.0.0.1:{port}/?token=***" in message
    assert SECRET not in message
    assert message.count("connection failed") == 2


def test_a_chain_without_usable_endpoints_raises_no_endpoint_available(chain):
    healthy(chain, f"ws://127.0.0.1:{free_port()}")

    with pytest.raises(NoEndpointAvailable, match="none is usable"):
        _ = chain_client(chain).eth.block_number


def test_a_closed_port_fails_fast_without_hidden_retries(chain):
    healthy(chain, closed_url())

    started = time.perf_counter()
    with pytest.raises(NoEndpointAvailable):
        _ = chain_client(chain).eth.block_number

    assert time.perf_counter() - started < 0.3


# --- An explicit URL --------------------------------------------------------------------------


def test_an_explicit_url_is_the_only_one_used(chain, anvil_factory):
    registered, other = anvil_factory(), anvil_factory()
    other.mine(4)
    healthy(chain, registered.url)

    assert chain_client(chain, url=other.url).eth.block_number == 4
    with pytest.raises(NoEndpointAvailable):
        _ = chain_client(chain, url=closed_url()).eth.block_number
    assert RpcEndpoint.objects.get().consecutive_failures == 0  # the registered one was not asked

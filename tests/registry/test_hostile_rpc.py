"""RPC endpoints that answer in hostile ways (real HTTP servers on 127.0.0.1), and the
address policy: each such endpoint fails on its own, with a short last error of our own
words, while every other endpoint is probed or asked as usual."""

from contextlib import ExitStack

import pytest

from registry.chain_client import NoEndpointAvailable, chain_client
from registry.models import RpcEndpoint, RpcProbe
from registry.probes import probe_rpcs
from tests.conftest import assert_problem
from tests.factories import ChainFactory, RpcEndpointFactory
from tests.hostile_rpc import SECRET_TEXT, HostileRpc

pytestmark = pytest.mark.django_db

PROBE_ERRORS = {
    "chain-id-over-bigint": "invalid response",
    "block-over-bigint": "invalid response",
    "huge-declared": "response too large",
    "huge-streamed": "response too large",
    "redirect": "redirect refused",
    "html": "invalid response",
    "rpc-error": "JSON-RPC error",
    "garbage": "invalid response",
    "not-json-rpc": "invalid response",
    "hang": "timed out after 500 ms",
    "http-500": "HTTP 500",
}
# The chain client's failures (a JSON-RPC error or an odd quantity is an answer there: the
# caller judges it, see tests/verification/test_live_hostile.py).
CLIENT_ERRORS = {
    "huge-declared": "response too large",
    "huge-streamed": "response too large",
    "redirect": "redirect refused",
    "html": "invalid response",
    "garbage": "invalid response",
    "not-json-rpc": "invalid response",
    "hang": "timed out",
    "http-500": "HTTP 500",
}


@pytest.fixture
def chain():
    return ChainFactory(chain_id=31337, short_name="anvil", name="Anvil")


def hostile_endpoints(stack: ExitStack, chain, kinds, *, redirect_to: str, **fields):
    endpoints = {}
    for kind in kinds:
        server = stack.enter_context(HostileRpc(kind, location=redirect_to))
        endpoints[kind] = RpcEndpointFactory(chain=chain, url=server.url, **fields)
    return endpoints


def last_errors(endpoints: dict) -> dict:
    return {kind: RpcEndpoint.objects.get(pk=e.pk).last_error for kind, e in endpoints.items()}


def test_each_hostile_answer_fails_its_own_probe_and_the_cycle_goes_on(admin, chain,
                                                                       anvil_factory):
    node = anvil_factory()
    node.mine(3)
    good = RpcEndpointFactory(chain=chain, url=node.url)
    with ExitStack() as stack:
        # The redirect points at the good node: followed, it would pass for healthy.
        hostile = hostile_endpoints(stack, chain, PROBE_ERRORS, redirect_to=node.url,
                                    probe_timeout_ms=500)

        assert probe_rpcs(due_only=False) == {"probed": 12, "healthy": 1, "unknown": 11}

    good.refresh_from_db()
    assert (good.status, good.head_block, good.observed_chain_id) == ("healthy", 3, 31337)
    assert last_errors(hostile) == PROBE_ERRORS
    for kind, endpoint in hostile.items():
        endpoint.refresh_from_db()
        assert (endpoint.consecutive_failures, endpoint.observed_chain_id,
                endpoint.head_block) == (1, None, None), kind
        shown = admin.get(f"/v1/admin/rpc/{endpoint.pk}").json()
        assert shown["lastError"] == PROBE_ERRORS[kind]
    assert RpcProbe.objects.filter(ok=False).count() == 11
    assert not RpcProbe.objects.filter(error__contains="leaked").exists()


def test_the_chain_client_fails_over_past_each_hostile_answer(chain, anvil_factory):
    node = anvil_factory()
    node.mine(4)
    RpcEndpointFactory(chain=chain, url=node.url, status="healthy", priority=1)
    with ExitStack() as stack:
        hostile = hostile_endpoints(stack, chain, CLIENT_ERRORS, redirect_to=node.url,
                                    status="healthy", priority=0)

        assert chain_client(chain, timeout=0.5).eth.block_number == 4

    assert last_errors(hostile) == CLIENT_ERRORS
    assert {e.consecutive_failures for e in RpcEndpoint.objects.filter(priority=0)} == {1}


def test_nothing_past_the_size_cap_is_read(chain, settings):
    settings.RPC_RESPONSE_MAX_BYTES = 1024
    with HostileRpc("huge-streamed") as server:
        endpoint = RpcEndpointFactory(chain=chain, url=server.url)
        probe_rpcs(due_only=False)
        with pytest.raises(NoEndpointAvailable, match="response too large"):
            _ = chain_client(chain).eth.block_number

    endpoint.refresh_from_db()
    assert endpoint.last_error == "response too large"


# --- Addresses --------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/",  # 169.254.169.254 spelt as one number
    "http://0xa9.254.169.254/",
    "http://[fe80::1]:8545",
    "http://[::ffff:169.254.169.254]/",
    # IPv6 addresses that reach an embedded IPv4 one: NAT64, 6to4, IPv4-compatible.
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:a9fe:a9fe::1]/",
    "http://[::169.254.169.254]/",
    "https://metadata.google.internal/computeMetadata/v1/",
    "http://100.100.100.200/",
    "ws://0.0.0.0:8546",
])
def test_link_local_and_metadata_addresses_are_refused_on_save(admin, chain, url):
    body = assert_problem(admin.post("/v1/admin/rpc", {"chainId": 31337, "url": url},
                                     format="json"), 400, "validation_error")

    assert [error["attr"] for error in body["errors"]] == ["url"]
    assert "This host is not allowed" in body["errors"][0]["detail"]
    assert not RpcEndpoint.objects.exists()


PRIVATE_URLS = ["http://127.0.0.1:8545", "http://localhost:8545", "http://10.0.0.5:8545",
                "https://192.168.1.20/rpc", "http://[::1]:8545", "http://[fd12::1]:8545",
                # 127.0.0.1 and 10.0.0.5 through NAT64, 6to4 and IPv4-compatible addresses;
                # local-use NAT64 is private whatever it embeds.
                "http://[64:ff9b::7f00:1]:8545", "http://[2002:a00:5::1]:8545",
                "http://[::10.0.0.5]:8545", "http://[64:ff9b:1::808:808]:8545"]


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_private_addresses_are_allowed_by_default(admin, chain, url):
    response = admin.post("/v1/admin/rpc", {"chainId": 31337, "url": url}, format="json")

    assert response.status_code == 201, response.content


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_private_addresses_are_refused_when_rpc_allow_private_is_false(admin, chain, settings,
                                                                       url):
    settings.RPC_ALLOW_PRIVATE = False

    body = assert_problem(admin.post("/v1/admin/rpc", {"chainId": 31337, "url": url},
                                     format="json"), 400, "validation_error")

    assert "RPC_ALLOW_PRIVATE" in body["errors"][0]["detail"]


def test_a_public_name_is_accepted_on_save_without_a_lookup(admin, chain, settings):
    settings.RPC_ALLOW_PRIVATE = False

    response = admin.post("/v1/admin/rpc", {"chainId": 31337,
                                            "url": "https://rpc.invalid/v2/key"}, format="json")

    assert response.status_code == 201, response.content


@pytest.mark.parametrize("url", ["https://[64:ff9b::808:808]/", "https://[2002:808:808::1]/",
                                 "https://[::ffff:8.8.8.8]/"])
def test_an_ipv6_address_that_embeds_a_public_ipv4_one_is_accepted(admin, chain, settings, url):
    settings.RPC_ALLOW_PRIVATE = False

    response = admin.post("/v1/admin/rpc", {"chainId": 31337, "url": url}, format="json")

    assert response.status_code == 201, response.content


def test_a_name_that_resolves_to_a_refused_address_is_refused_when_connecting(
        chain, settings, anvil_factory):
    # Saved while private addresses were allowed; "localhost" resolves to 127.0.0.1 only
    # when the probe connects, and the node is never asked.
    node = anvil_factory()
    by_name = RpcEndpointFactory(chain=chain, url=f"http://localhost:{node.port}", status="healthy")
    by_address = RpcEndpointFactory(chain=chain, url=node.url, status="healthy", priority=1)
    settings.RPC_ALLOW_PRIVATE = False

    probe_rpcs(due_only=False)

    refused = "address refused (private address, and RPC_ALLOW_PRIVATE is false)"
    assert last_errors({"name": by_name, "address": by_address}) == {"name": refused,
                                                                     "address": refused}
    RpcEndpoint.objects.update(consecutive_failures=0, last_error="")
    with pytest.raises(NoEndpointAvailable) as raised:
        _ = chain_client(chain).eth.block_number
    assert str(raised.value).count("address refused") == 2
    assert last_errors({"name": by_name}) == {"name": "address refused"}


def test_a_link_local_endpoint_saved_before_is_refused_without_connecting(chain):
    endpoint = RpcEndpointFactory(chain=chain, url="http://169.254.169.254:8545",
                                  status="healthy")

    probe_rpcs(due_only=False)
    assert last_errors({"e": endpoint})["e"] == "address refused (link-local or metadata address)"
    with pytest.raises(NoEndpointAvailable, match="address refused"):
        _ = chain_client(chain).eth.block_number


def test_the_answers_own_words_never_reach_the_api(admin, chain):
    with HostileRpc("rpc-error") as server:
        endpoint = RpcEndpointFactory(chain=chain, url=server.url)
        probe_rpcs(due_only=False)

    assert SECRET_TEXT not in admin.get(f"/v1/admin/rpc/{endpoint.pk}").content.decode()

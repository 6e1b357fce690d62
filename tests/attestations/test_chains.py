"""GET /chains: the supported networks as API consumers see them (SPEC sections 4 and 5)."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.conftest import assert_problem
from tests.factories import (
    ChainFactory,
    DeploymentFactory,
    ExecutorFactory,
    ProviderHealthFactory,
    RpcEndpointFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def anvil_chain():
    return ChainFactory(chain_id=31337, name="Anvil", short_name="anvil", confirmations=2)


def results(response) -> list[dict]:
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_only_active_chains_are_listed(api, anvil_chain):
    ChainFactory(chain_id=5, status="inactive")

    assert [c["chainId"] for c in results(api.get("/chains"))] == [31337]
    assert_problem(api.get("/chains/5"), 404, "not_found")


def test_a_chain_shows_its_deployments_and_public_fields(api, anvil_chain):
    eas = DeploymentFactory(chain=anvil_chain, kind="eas", start_block=7)

    chain = api.get("/chains/31337").json()

    assert (chain["name"], chain["shortName"], chain["confirmations"]) == ("Anvil", "anvil", 2)
    assert chain["nativeCurrency"] == {"name": "Ether", "symbol": "ETH", "decimals": 18}
    assert chain["deployments"] == [{
        "kind": "eas", "address": eas.address, "startBlock": 7,
        "contractName": eas.contract_version.contract_name.name,
        "version": eas.contract_version.version,
    }]


def test_a_chain_says_which_hash_functions_make_a_document_hash(api, anvil_chain, settings):
    assert api.get("/chains/31337").json()["documentHashAlgorithms"] == ["sha256", "keccak256"]

    settings.DOCUMENT_HASH_ALGORITHMS = ("keccak256",)
    assert results(api.get("/chains"))[0]["documentHashAlgorithms"] == ["keccak256"]


def test_the_rpc_summary_counts_healthy_endpoints_and_the_best_live_head(api, anvil_chain):
    RpcEndpointFactory(chain=anvil_chain, status="healthy", head_block=120)
    RpcEndpointFactory(chain=anvil_chain, status="degraded", head_block=118)
    RpcEndpointFactory(chain=anvil_chain, status="down", head_block=999)  # stale figure

    rpc = api.get("/chains/31337").json()["rpc"]

    assert rpc == {"endpoints": 3, "healthy": 1, "bestHeadBlock": 120, "status": "healthy"}


def test_a_provider_override_counts_in_the_rpc_summary(api, anvil_chain):
    RpcEndpointFactory(chain=anvil_chain, provider="acme", status="healthy", head_block=5)
    ProviderHealthFactory(provider="acme", status="maintenance",
                          until=timezone.now() + timedelta(hours=1))

    rpc = api.get("/chains/31337").json()["rpc"]

    assert (rpc["healthy"], rpc["status"]) == (0, "maintenance")


def test_a_chain_without_endpoints_reads_as_down(api, anvil_chain):
    assert api.get("/chains/31337").json()["rpc"] == {
        "endpoints": 0, "healthy": 0, "bestHeadBlock": None, "status": "down"}


def test_online_executors_are_those_with_a_valid_lease(api, anvil_chain):
    now = timezone.now()
    ExecutorFactory(chain=anvil_chain, status="healthy")
    ExecutorFactory(chain=anvil_chain, status="draining")
    ExecutorFactory(chain=anvil_chain, status="healthy", lease_expires_at=now - timedelta(seconds=1))
    ExecutorFactory(chain=anvil_chain, status="offline", lease_expires_at=now - timedelta(hours=1))
    ExecutorFactory(chain=anvil_chain, status="deregistered")

    assert api.get("/chains/31337").json()["executors"] == {"online": 2, "registered": 4}


def test_no_rpc_url_or_administrator_detail_reaches_api_consumers(api, anvil_chain):
    RpcEndpointFactory(chain=anvil_chain, url="https://user:secret@rpc.example.org/v2/AbC123dEf456gHi789")
    ExecutorFactory(chain=anvil_chain, registered_by="crk_0123456789ab")

    body = api.get("/chains").json()
    text = json.dumps(body)

    assert "rpc.example.org" not in text
    assert "secret" not in text
    assert "crk_0123456789ab" not in text
    assert "url" not in body["results"][0]["rpc"]


def test_the_list_takes_the_same_number_of_queries_for_many_chains(api):
    def count_queries():
        with CaptureQueriesContext(connection) as queries:
            assert api.get("/chains").status_code == 200
        return len(queries)

    chain = ChainFactory()
    DeploymentFactory(chain=chain)
    RpcEndpointFactory(chain=chain)
    ExecutorFactory(chain=chain)
    count_queries()  # the key is read once, then cached
    one = count_queries()
    for _ in range(5):
        chain = ChainFactory()
        DeploymentFactory(chain=chain)
        RpcEndpointFactory(chain=chain)
        ExecutorFactory(chain=chain)

    assert count_queries() == one


def test_chains_can_be_filtered_by_testnet_and_short_name(api, anvil_chain):
    ChainFactory(chain_id=1, short_name="eth", is_testnet=False)

    assert [c["chainId"] for c in results(api.get("/chains", {"isTestnet": "false"}))] == [1]
    assert [c["chainId"] for c in results(api.get("/chains", {"shortName": "anvil"}))] == [31337]
    assert_problem(api.get("/chains", {"isTestnet": "maybe"}), 400, "validation_error")


def test_an_executor_key_cannot_read_chains(executor_key, anvil_chain):
    from rest_framework.test import APIClient

    client = APIClient(HTTP_X_API_KEY=executor_key)
    assert_problem(client.get("/chains"), 403, "permission_denied")

"""One budget per HTTP request across a tRPC or JSON-RPC batch (issue 34, item 5): the
calls of one request ask for TRPC_BATCH_BUDGET items at most in all (document hashes and
other array items of their inputs, the rows of their lists' pages); beyond it, or beyond
TRPC_MAX_BATCH_SIZE calls, the request is refused as a whole and no call runs."""

import json

import pytest
from django.urls import resolve, reverse

from tests.trpc.conftest import assert_error, query_url
from tests.trpc.test_jsonrpc import assert_rpc_error, call, rpc
from trpc import budget
from trpc.dispatch import QUERY
from trpc.procedures import PROCEDURES
from verification.metrics import VERIFY_OUTCOMES

pytestmark = pytest.mark.django_db


def hashes(count: int, start: int = 0) -> list[str]:
    return [f"0x{n:064x}" for n in range(start, start + count)]


def verifications() -> float:
    return sum(sample.value for metric in VERIFY_OUTCOMES.collect() for sample in metric.samples
               if sample.name.endswith("_total"))


def trpc_batch(api, paths: str, inputs: dict):
    return api.generic("POST", f"/trpc/{paths}?batch=1", json.dumps(inputs),
                       content_type="application/json")


def test_batch_verifications_beyond_the_budget_are_refused_before_any_runs(api):
    before = verifications()
    response = trpc_batch(api, "verify.batch,verify.batch",
                          {"0": {"documentHashes": hashes(600)},
                           "1": {"documentHashes": hashes(600, 600)}})
    assert response.status_code == 400
    shape = assert_error(response.json(), "BAD_REQUEST", 400)  # one envelope: the request's
    assert "path" not in shape["data"]
    assert "1200 items" in shape["message"] and "1000" in shape["message"]
    assert verifications() == before


def test_a_batch_within_the_budget_runs_every_call(api):
    before = verifications()
    response = trpc_batch(api, "verify.batch,verify.batch,verify",
                          {"0": {"documentHashes": hashes(500)},
                           "1": {"documentHashes": hashes(499, 500)},
                           "2": {"documentHash": hashes(1, 999)[0]}})
    assert response.status_code == 200
    assert [len(item["result"]["data"].get("results", [0])) for item in response.json()] == [
        500, 499, 1]
    assert verifications() == before + 1000


def test_list_pages_count_their_rows(api, settings):
    three_pages = query_url("chains.list,attestations.list,chains.list",
                            {"0": {"limit": 500}, "1": {"limit": "500"}, "2": {}}, batch=True)
    assert_error(api.get(three_pages).json(), "BAD_REQUEST", 400)  # 500 + 500 + 50
    settings.TRPC_BATCH_BUDGET = 1050
    assert api.get(three_pages).status_code == 200


def test_the_budget_is_a_setting(api, settings):
    settings.TRPC_BATCH_BUDGET = 10
    response = trpc_batch(api, "verify.batch", {"0": {"documentHashes": hashes(11)}})
    assert_error(response.json(), "BAD_REQUEST", 400)
    assert trpc_batch(api, "verify.batch", {"0": {"documentHashes": hashes(10)}}).status_code == 200


def test_a_jsonrpc_batch_beyond_the_budget_is_32600_and_runs_nothing(api):
    before = verifications()
    body = [call("verify.batch", {"documentHashes": hashes(1000)}, id=1),
            call("verify", {"documentHash": hashes(1)[0]}, id=2)]
    response = rpc(api, body)
    assert response.status_code == 400
    error = assert_rpc_error(response.json(), -32600)
    assert "1001 items" in error["message"]
    assert verifications() == before
    assert rpc(api, body[:1]).status_code == 200
    assert verifications() == before + 1000


def test_a_jsonrpc_batch_of_list_pages_counts_their_rows(api):
    body = [call("attestations.list", {"limit": 500}, id=n) for n in range(3)]
    assert_rpc_error(rpc(api, body).json(), -32600)
    assert rpc(api, body[:2]).status_code == 200


def test_the_whole_request_is_parsed_within_its_own_bounds(api):
    # one object of 20,000 keys: more than any input of any call holds
    keys = {f"k{n}": 0 for n in range(20_000)}
    response = trpc_batch(api, "verify", {"0": keys})
    assert response.status_code == 400 and len(response.content) < 2048
    (envelope,) = response.json()
    shape = assert_error(envelope, "BAD_REQUEST", 400, "verify")
    assert shape["data"]["problem"]["code"] == "too_many_keys"
    assert "holds 20000 keys" in shape["message"] and "'k0', 'k1'" in shape["message"]
    reply = rpc(api, call("verify", keys))
    assert reply.status_code == 400 and len(reply.content) < 2048
    assert assert_rpc_error(reply.json(), -32600)["data"]["problem"]["code"] == "too_many_keys"


@pytest.mark.parametrize("name", sorted(name for name, p in PROCEDURES.items() if p.kind == QUERY))
def test_a_query_is_paged_when_its_route_is_a_list(name):
    procedure = PROCEDURES[name]
    if procedure.paged:
        assert resolve(reverse(procedure.url_name)).func.actions["get"] == "list"
    else:
        assert procedure.url_name.endswith("-detail")


def test_what_a_call_costs():
    verify_batch, chains_list, chains_get = (PROCEDURES[name] for name in
                                             ("verify.batch", "chains.list", "chains.get"))
    assert budget.cost(verify_batch, {"documentHashes": hashes(7)}) == 7
    assert budget.cost(verify_batch, None) == 1
    assert budget.cost(chains_list, {}) == 50
    assert budget.cost(chains_list, {"limit": 9000}) == 500
    assert budget.cost(chains_list, {"limit": "nonsense"}) == 50
    assert budget.cost(chains_get, {"chainId": 1}) == 1
    assert budget.cost(None, {"anything": [1, 2, 3]}) == 1

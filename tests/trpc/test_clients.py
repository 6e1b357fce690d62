"""The real @trpc/client (v11 and v10, from npm: scripts/client_tools.sh) against a live
server: every link, queries, mutations, batches with an unknown procedure, input and auth
errors, superjson; and JSON-RPC over real HTTP."""

import json
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import missing
from tests.trpc.conftest import DOCUMENT_HASH, SCHEMA

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = Path(__file__).resolve().parents[2] / ".cache/clients"
SCRIPT = Path(__file__).with_name("client.cjs")
LINKS = ["httpLink", "httpBatchLink", "httpBatchStreamLink"]


def require_client(version: int) -> Path:
    """The client's folder; the test is skipped without it (failed in CI)."""
    folder = CLIENTS / f"trpc-v{version}"
    if not (folder / "node_modules/@trpc/client").is_dir() or not shutil.which("node"):
        missing(f"@trpc/client v{version} is not installed", "run scripts/client_tools.sh")
    return folder


def run_client(live_server, version, link, calls, key=None, superjson=False) -> list[dict]:
    plan = {"clientDir": str(require_client(version)), "version": version, "link": link,
            "url": f"{live_server.url}/trpc", "key": key, "superjson": superjson, "calls": calls}
    done = subprocess.run(["node", str(SCRIPT)], input=json.dumps(plan), capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def q(path, data=None):
    return {"type": "query", "path": path, **({"input": data} if data is not None else {})}


def m(path, data=None):
    return {"type": "mutation", "path": path, **({"input": data} if data is not None else {})}


def assert_client_error(result: dict, name: str, status: int) -> dict:
    assert result["ok"] is False and result["name"] == "TRPCClientError", result
    assert result["data"]["code"] == name and result["data"]["httpStatus"] == status, result
    return result


@pytest.fixture(params=[11, 10], ids=["v11", "v10"])
def version(request):
    return request.param


@pytest.mark.parametrize("link", LINKS)
def test_queries_mutations_and_errors_through_every_link(live_server, api_key, chains, version, link):
    valid = {"schema": SCHEMA, "data": {"documentHash": DOCUMENT_HASH, "name": "x"}}
    results = run_client(live_server, version, link, [
        q("chains.list"),
        q("chains.list", {"isTestnet": True}),
        q("nope.list"),  # unknown: batched with the queries around it
        q("chains.get", {"chainId": 1}),
        q("chains.list", {"isTestnet": "maybe"}),
        m("schemas.validate", valid),
        m("schemas.validate", {"schema": 5}),
        m("verify", {"documentHash": "0x" + "11" * 32}),
    ], key=api_key)
    everything, testnets, unknown, one, bad_filter, validated, bad_body, verified = results
    assert verified["data"]["verified"] is False and verified["data"]["attestationId"] is None
    assert {chain["chainId"] for chain in everything["data"]["results"]} == {1, 31337}
    assert [chain["chainId"] for chain in testnets["data"]["results"]] == [31337]
    assert_client_error(unknown, "NOT_FOUND", 404)
    assert unknown["data"]["path"] == "nope.list"
    assert one["data"]["chainId"] == 1
    bad_filter = assert_client_error(bad_filter, "BAD_REQUEST", 400)
    assert bad_filter["data"]["problem"]["errors"][0]["attr"] == "isTestnet"
    assert validated["data"]["valid"] is True and validated["data"]["encoded"].startswith("0x")
    bad_body = assert_client_error(bad_body, "BAD_REQUEST", 400)
    assert bad_body["code"] == -32600 and bad_body["data"]["problem"]["errors"][0]["attr"] == "schema"
    if link == "httpBatchLink":  # the queries went as one batch, whose statuses differ
        assert unknown["status"] == 207
    # A mutation called as a query; batched with a query, it fails the batch as a whole, as
    # @trpc/server's "Cannot mix procedure types" does.
    (wrong_method,) = run_client(live_server, version, link, [q("schemas.validate")], key=api_key)
    assert_client_error(wrong_method, "METHOD_NOT_SUPPORTED", 405)
    if link != "httpLink":
        mixed = run_client(live_server, version, link, [q("chains.list"), q("schemas.validate")],
                           key=api_key)
        for result in mixed:
            assert_client_error(result, "BAD_REQUEST", 400)


def test_authentication_errors_reach_the_client_as_trpc_errors(live_server, executor_key, version):
    cases = [(None, "UNAUTHORIZED", 401), ("crk_0.nope", "UNAUTHORIZED", 401),
             (executor_key, "FORBIDDEN", 403)]
    calls = [{**call, "key": key} for key, _, _ in cases
             for call in (q("chains.list"), q("chains.list"), m("schemas.validate", {"schema": SCHEMA}))]
    for link in LINKS:
        results = run_client(live_server, version, link, calls)
        for index, result in enumerate(results):
            _, name, status = cases[index // 3]
            assert_client_error(result, name, status)
            assert result["status"] == status


def test_superjson_clients(live_server, api_key, chains, settings, version):
    settings.TRPC_SUPERJSON = True
    for link in LINKS:
        results = run_client(live_server, version, link, [
            q("chains.list"), q("chains.list", {"isTestnet": True, "limit": None}), q("nope"),
            m("schemas.validate", {"schema": SCHEMA}),
        ], key=api_key, superjson=True)
        everything, testnets, unknown, validated = results
        assert len(everything["data"]["results"]) == 2
        assert [chain["chainId"] for chain in testnets["data"]["results"]] == [31337]
        assert_client_error(unknown, "NOT_FOUND", 404)
        assert validated["data"]["valid"] is True


def post_json(url, body, key=None):
    headers = {"Content-Type": "application/json", **({"X-API-Key": key} if key else {})}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_jsonrpc_over_http(live_server, api_key, chains):
    url = f"{live_server.url}/trpc"
    status, reply = post_json(url, {"jsonrpc": "2.0", "method": "chains.get",
                                    "params": {"chainId": 31337}, "id": 1}, api_key)
    assert status == 200 and reply["result"]["chainId"] == 31337 and reply["id"] == 1
    status, replies = post_json(url, [
        {"jsonrpc": "2.0", "method": "chains.list", "params": {"isTestnet": False}, "id": "a"},
        {"jsonrpc": "2.0", "method": "schemas.validate", "params": {}, "id": "b"},
        {"jsonrpc": "2.0", "method": "nope", "id": "c"},
        {"jsonrpc": "2.0", "method": "chains.list"},
    ], api_key)
    assert status == 200
    assert [reply["id"] for reply in replies] == ["a", "b", "c"]
    assert [chain["chainId"] for chain in replies[0]["result"]["results"]] == [1]
    assert replies[1]["error"]["code"] == -32602 and replies[2]["error"]["code"] == -32601
    status, reply = post_json(url, {"jsonrpc": "2.0", "method": "chains.list", "id": 1})
    assert status == 401 and reply["error"]["code"] == -32001 and reply["id"] is None

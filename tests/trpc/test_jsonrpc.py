"""JSON-RPC 2.0 on POST /trpc (SPEC section 7): single requests, batches, notifications."""

import json

import pytest
from rest_framework.test import APIClient

from tests.trpc.conftest import SCHEMA

pytestmark = pytest.mark.django_db


def rpc(client, body, **extra):
    text = body if isinstance(body, str) else json.dumps(body)
    return client.generic("POST", "/trpc", text, content_type="application/json", **extra)


def call(method, params=None, id=1):
    request = {"jsonrpc": "2.0", "method": method, "id": id}
    if params is not None:
        request["params"] = params
    return request


def assert_rpc_error(reply: dict, number: int, id=None) -> dict:
    assert reply["jsonrpc"] == "2.0" and "result" not in reply, reply
    assert reply["id"] == id
    assert reply["error"]["code"] == number and reply["error"]["message"]
    return reply["error"]


def test_a_call_answers_the_rest_data_as_its_result(api, chains):
    response = rpc(api, call("chains.list", {"isTestnet": True}, id="a"))
    assert response.status_code == 200
    reply = response.json()
    assert reply == {"jsonrpc": "2.0", "result": api.get("/chains?isTestnet=true").json(), "id": "a"}


def test_a_mutation_is_called_alike(api):
    reply = rpc(api, call("schemas.validate", {"schema": SCHEMA}, id=7)).json()
    assert reply["result"]["valid"] is True and reply["id"] == 7


def test_invalid_params_are_32602_with_the_problem_document(api):
    response = rpc(api, call("schemas.validate", {"schema": 5}))
    assert response.status_code == 400
    error = assert_rpc_error(response.json(), -32602, id=1)
    assert error["data"]["httpStatus"] == 400
    assert error["data"]["problem"]["errors"][0]["attr"] == "schema"


def test_positional_params_are_32602(api):
    assert_rpc_error(rpc(api, call("chains.list", [1])).json(), -32602, id=1)


def test_an_unknown_method_is_32601(api):
    response = rpc(api, call("nope.list", id=3))
    assert response.status_code == 404
    assert_rpc_error(response.json(), -32601, id=3)


def test_a_missing_record_keeps_trpcs_code(api):
    error = assert_rpc_error(rpc(api, call("chains.get", {"chainId": 5})).json(), -32004, id=1)
    assert error["data"]["code"] == "NOT_FOUND"


@pytest.mark.parametrize("body", ["{", "[1,", "NaN", '{"a": "\\u0000"}'])
def test_a_body_that_is_not_json_is_32700(api, body):
    response = rpc(api, body)
    assert response.status_code == 400
    assert_rpc_error(response.json(), -32700)


@pytest.mark.parametrize("body, id", [
    ({"method": "chains.list", "id": 1}, 1),
    ({"jsonrpc": "1.0", "method": "chains.list", "id": 1}, 1),
    ({"jsonrpc": "2.0", "method": 5, "id": 1}, 1),
    ({"jsonrpc": "2.0", "method": "chains.list", "params": "x", "id": 1}, 1),
    ({"jsonrpc": "2.0", "method": "chains.list", "id": {"x": 1}}, None),
    ({"jsonrpc": "2.0", "method": "chains.list", "id": 1, "extra": 1}, 1),
    ('"x"', None),
    ([], None),
])
def test_an_invalid_request_is_32600(api, body, id):
    response = rpc(api, body)
    assert response.status_code == 400
    assert_rpc_error(response.json(), -32600, id=id)


def test_a_batch_answers_each_call_and_skips_notifications(api, chains):
    response = rpc(api, [
        call("chains.list", id=1),
        {"jsonrpc": "2.0", "method": "chains.list"},  # a notification
        call("nope", id=2),
        1,
        call("chains.get", {"chainId": 1}, id=3),
    ])
    assert response.status_code == 200
    first, unknown, invalid, third = response.json()
    assert first["id"] == 1 and len(first["result"]["results"]) == 2
    assert_rpc_error(unknown, -32601, id=2)
    assert_rpc_error(invalid, -32600)
    assert third == {"jsonrpc": "2.0", "result": api.get("/chains/1").json(), "id": 3}


def test_notifications_alone_get_no_answer_but_run(api):
    response = rpc(api, [{"jsonrpc": "2.0", "method": "chains.list"},
                         {"jsonrpc": "2.0", "method": "nope"}])
    assert response.status_code == 204 and response.content == b""
    assert rpc(api, {"jsonrpc": "2.0", "method": "chains.list"}).status_code == 204


def test_a_batch_holds_at_most_the_configured_number_of_calls(api, settings):
    settings.TRPC_MAX_BATCH_SIZE = 1
    assert_rpc_error(rpc(api, [call("chains.list"), call("chains.list")]).json(), -32600)


@pytest.mark.parametrize("key, status, number", [(None, 401, -32001), ("crk_x.y", 401, -32001)])
def test_an_authentication_failure_is_http_401_with_id_null(anon, key, status, number):
    extra = {"HTTP_X_API_KEY": key} if key else {}
    response = rpc(anon, [call("chains.list", id=1)], **extra)
    assert response.status_code == status
    assert "WWW-Authenticate" in response
    assert_rpc_error(response.json(), number)


def test_a_key_of_another_scope_is_http_403(executor_key):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    response = rpc(client, call("chains.list"))
    assert response.status_code == 403
    assert_rpc_error(response.json(), -32003)


def test_authentication_comes_before_parsing(anon):
    response = rpc(anon, "{")
    assert response.status_code == 401
    assert_rpc_error(response.json(), -32001)


def test_get_is_405_with_allow_post(api):
    response = api.get("/trpc")
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert_rpc_error(response.json(), -32005)


def test_a_body_over_the_limit_is_413_in_a_jsonrpc_error(api, settings):
    settings.MAX_REQUEST_BODY_BYTES = 10
    response = rpc(api, call("chains.list"))
    assert response.status_code == 413
    assert_rpc_error(response.json(), -32013)


def test_a_crash_is_a_32603_reply_without_traceback(crashing_client):
    response = rpc(crashing_client, [call("chains.list", id=1), {"jsonrpc": "2.0", "method": "chains.list"}])
    assert response.status_code == 200 and b"secret" not in response.content
    (reply,) = response.json()
    assert assert_rpc_error(reply, -32603, id=1)["data"]["httpStatus"] == 500

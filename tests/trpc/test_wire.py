"""tRPC's HTTP protocol on /trpc/{paths} (SPEC section 7), as a client sends it; the real
clients drive it in test_clients.py."""

import json

import pytest
from rest_framework.test import APIClient

from tests.trpc.conftest import DOCUMENT_HASH, SCHEMA, assert_error, crash, query_url

pytestmark = pytest.mark.django_db


def post(client, paths, data=None, **extra):
    body = json.dumps(data) if data is not None else ""
    return client.generic("POST", f"/trpc/{paths}", body, content_type="application/json", **extra)


def test_a_query_answers_the_rest_endpoints_data_in_a_result_envelope(api, chains):
    response = api.get(query_url("chains.list"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    rest = api.get("/chains").json()
    assert response.json() == {"result": {"data": rest}}
    assert {chain["chainId"] for chain in rest["results"]} == {1, 31337}


def test_a_query_input_becomes_the_rest_filters_and_pagination(api, chains):
    testnets = api.get(query_url("chains.list", {"isTestnet": True})).json()["result"]["data"]
    assert [chain["chainId"] for chain in testnets["results"]] == [31337]
    page = api.get(query_url("chains.list", {"limit": 1})).json()["result"]["data"]
    assert len(page["results"]) == 1 and "offset=1" in page["next"]


def test_an_input_field_named_like_a_url_parameter_fills_the_url(api, chains):
    response = api.get(query_url("chains.get", {"chainId": 31337}))
    assert response.json() == {"result": {"data": api.get("/chains/31337").json()}}


@pytest.mark.parametrize("data, status, name", [
    ({"chainId": 999}, 404, "NOT_FOUND"),
    ({"chainId": "abc"}, 404, "NOT_FOUND"),  # as /chains/abc
    ({}, 400, "BAD_REQUEST"),
    ({"chainId": {"x": 1}}, 400, "BAD_REQUEST"),
])
def test_a_bad_url_input_is_the_rest_answer(api, chains, data, status, name):
    response = api.get(query_url("chains.get", data))
    assert response.status_code == status
    shape = assert_error(response.json(), name, status, "chains.get")
    if status == 400:
        assert shape["data"]["problem"]["errors"][0]["attr"] == "chainId"


def test_a_bad_filter_value_is_a_bad_request_naming_it(api, chains):
    response = api.get(query_url("chains.list", {"isTestnet": "maybe"}))
    shape = assert_error(response.json(), "BAD_REQUEST", 400, "chains.list")
    assert shape["data"]["problem"]["errors"][0]["attr"] == "isTestnet"


@pytest.mark.parametrize("data", [[1], "x", {"isTestnet": {"a": 1}}])
def test_a_query_input_that_is_no_flat_object_is_a_bad_request(api, data):
    assert_error(api.get(query_url("chains.list", data)).json(), "BAD_REQUEST", 400)


def test_a_mutation_posts_its_input_as_the_rest_body(api):
    data = {"schema": SCHEMA, "data": {"documentHash": DOCUMENT_HASH, "name": "x"}}
    response = post(api, "schemas.validate", data)
    assert response.status_code == 200
    rest = api.post("/schemas/validate", data, format="json").json()
    assert response.json() == {"result": {"data": rest}}
    assert rest["valid"] is True


def test_a_mutation_input_is_validated_by_the_rest_serializer(api):
    response = post(api, "schemas.validate", {"schema": SCHEMA, "extra": 1})
    assert response.status_code == 400
    shape = assert_error(response.json(), "BAD_REQUEST", 400, "schemas.validate")
    assert shape["data"]["problem"]["code"] == "validation_error"
    assert [e["attr"] for e in shape["data"]["problem"]["errors"]] == ["extra"]
    assert shape["message"] == shape["data"]["problem"]["detail"]


def test_a_mutation_without_input_is_validated_as_an_empty_body(api):
    shape = assert_error(post(api, "schemas.validate").json(), "BAD_REQUEST", 400)
    assert shape["data"]["problem"]["errors"][0]["attr"] == "schema"


def test_a_batch_answers_an_array_in_request_order_and_207_when_statuses_differ(api, chains):
    url = query_url("chains.list,nope.list,chains.get", {"1": {}, "2": {"chainId": 1}}, batch=True)
    response = api.get(url)
    assert response.status_code == 207
    first, second, third = response.json()
    assert len(first["result"]["data"]["results"]) == 2
    assert_error(second, "NOT_FOUND", 404, "nope.list")
    assert third["result"]["data"]["chainId"] == 1


def test_a_batch_of_equal_statuses_answers_that_status(api, chains):
    response = api.get(query_url("chains.list,chains.list", {"1": {"isTestnet": False}}, batch=True))
    assert response.status_code == 200
    everything, mainnets = response.json()
    assert len(everything["result"]["data"]["results"]) == 2
    assert len(mainnets["result"]["data"]["results"]) == 1
    errors = api.get(query_url("nope,nope.too", batch=True))
    assert errors.status_code == 404 and len(errors.json()) == 2


def test_a_batch_of_mutations_posts_an_object_of_inputs(api):
    response = post(api, "schemas.validate,schemas.validate?batch=1",
                    {"0": {"schema": SCHEMA}, "1": {"schema": "nonsense"}})
    assert response.status_code == 200
    valid, invalid = response.json()
    assert valid["result"]["data"]["valid"] is True
    assert invalid["result"]["data"]["valid"] is False


def test_a_batch_input_that_is_not_an_object_fails_every_call(api):
    response = api.get(query_url("chains.list,chains.list", [1, 2], batch=True))
    assert response.status_code == 400
    assert [assert_error(item, "BAD_REQUEST", 400)["data"]["path"] for item in response.json()] == [
        "chains.list", "chains.list"]


def test_a_batch_holds_at_most_the_configured_number_of_calls(api, settings):
    settings.TRPC_MAX_BATCH_SIZE = 2
    response = api.get(query_url("chains.list,chains.list,chains.list", batch=True))
    assert response.status_code == 400
    shape = assert_error(response.json(), "BAD_REQUEST", 400)  # one envelope, as tRPC's
    assert "path" not in shape["data"]


@pytest.mark.parametrize("url", ["/trpc/chains.list?input=%7Bnope", "/trpc/chains.list?input=NaN"])
def test_an_input_that_is_not_json_is_a_bad_request_of_its_call(api, url):
    response = api.get(url)
    assert response.status_code == 400
    shape = assert_error(response.json(), "BAD_REQUEST", 400, "chains.list")
    assert shape["data"]["problem"]["code"] == "parse_error"


def test_a_batch_input_that_is_not_json_fails_its_procedures_calls_only(api):
    response = api.get("/trpc/chains.list,nope?batch=1&input=%7Bnope")
    assert response.status_code == 207
    first, second = response.json()
    assert_error(first, "BAD_REQUEST", 400, "chains.list")
    assert_error(second, "NOT_FOUND", 404, "nope")


def test_a_body_that_is_not_json_is_a_bad_request_or_a_415_of_the_whole_request(api):
    broken = api.generic("POST", "/trpc/schemas.validate", "{", content_type="application/json")
    assert_error(broken.json(), "BAD_REQUEST", 400, "schemas.validate")
    text = api.generic("POST", "/trpc/schemas.validate", "x", content_type="text/plain")
    assert text.status_code == 415
    assert "path" not in assert_error(text.json(), "UNSUPPORTED_MEDIA_TYPE", 415)["data"]


@pytest.mark.parametrize("method, paths", [("GET", "chains.list,schemas.validate"),
                                           ("POST", "schemas.validate,chains.list")])
def test_a_batch_of_queries_and_mutations_is_refused_as_a_whole(api, method, paths):
    response = api.generic(method, f"/trpc/{paths}?batch=1", "{}" if method == "POST" else "",
                           content_type="application/json")
    assert response.status_code == 400
    assert "path" not in assert_error(response.json(), "BAD_REQUEST", 400)["data"]


def test_a_query_called_with_post_or_a_mutation_with_get_is_405_with_allow(api):
    mutation = api.get(query_url("schemas.validate"))
    assert mutation.status_code == 405 and mutation["Allow"] == "POST"
    assert_error(mutation.json(), "METHOD_NOT_SUPPORTED", 405, "schemas.validate")
    query = post(api, "chains.list")
    assert query.status_code == 405 and query["Allow"] == "GET"
    assert_error(query.json(), "METHOD_NOT_SUPPORTED", 405, "chains.list")


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_other_methods_are_405_with_allow(api, method):
    response = getattr(api, method)("/trpc/chains.list")
    assert response.status_code == 405 and response["Allow"] == "GET, POST"
    assert_error(response.json(), "METHOD_NOT_SUPPORTED", 405, "chains.list")


@pytest.mark.parametrize("path", ["/trpc/", "/trpc/nope", "/trpc/chains.list/x"])
def test_an_unknown_procedure_is_a_404_envelope(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert_error(response.json(), "NOT_FOUND", 404)


def test_a_request_without_a_key_is_401_in_an_envelope_with_www_authenticate(anon):
    response = anon.get(query_url("chains.list"))
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("ApiKey")
    shape = assert_error(response.json(), "UNAUTHORIZED", 401, "chains.list")
    assert shape["data"]["problem"]["code"] == "not_authenticated"


def test_an_unknown_key_fails_every_call_of_a_batch(anon):
    response = anon.get(query_url("chains.list,nope", batch=True), HTTP_X_API_KEY="crk_nope.nope")
    assert response.status_code == 401
    for item in response.json():
        assert assert_error(item, "UNAUTHORIZED", 401)["data"]["problem"]["code"] == "invalid_key"


def test_a_key_of_another_scope_is_403(executor_key):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    response = client.get(query_url("chains.list"))
    assert response.status_code == 403
    assert_error(response.json(), "FORBIDDEN", 403, "chains.list")


def test_an_admin_key_may_call(admin_key, chains):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=admin_key)
    assert client.get(query_url("chains.list")).status_code == 200


def test_a_body_over_the_limit_is_a_413_envelope(api, settings):
    settings.MAX_REQUEST_BODY_BYTES = 10
    response = post(api, "schemas.validate", {"schema": SCHEMA})
    assert response.status_code == 413
    assert_error(response.json(), "PAYLOAD_TOO_LARGE", 413, "schemas.validate")


def test_a_crash_is_a_500_envelope_without_traceback(crashing_client, monkeypatch):
    from trpc import dispatch

    client = crashing_client
    response = client.get(query_url("chains.list"))
    assert response.status_code == 500
    assert_error(response.json(), "INTERNAL_SERVER_ERROR", 500, "chains.list")
    assert b"secret" not in response.content
    monkeypatch.setattr(dispatch, "authenticate", crash)  # outside the calls: the middleware's
    response = client.get(query_url("chains.list,chains.list", batch=True))
    assert response.status_code == 500
    assert [assert_error(item, "INTERNAL_SERVER_ERROR", 500)["data"]["path"]
            for item in response.json()] == ["chains.list", "chains.list"]


def test_every_answer_carries_the_request_id(anon):
    response = anon.get(query_url("chains.list"), HTTP_X_REQUEST_ID="abc-123")
    assert response["X-Request-ID"] == "abc-123"


def test_a_stream_request_answers_one_json_line_with_every_result(api, chains):
    response = api.get(query_url("chains.list,nope", batch=True), HTTP_TRPC_ACCEPT="application/jsonl")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/jsonl"
    assert "trpc-accept" in response["Vary"]
    text = response.content.decode()
    assert text.endswith("\n") and text.count("\n") == 1
    head = json.loads(text)
    assert len(head["0"][0][0]["result"]["data"]["results"]) == 2
    assert_error(head["1"][0][0], "NOT_FOUND", 404, "nope")


def test_a_stream_request_that_fails_as_a_whole_answers_one_envelope_with_its_status(anon):
    response = anon.get(query_url("chains.list", batch=True), HTTP_TRPC_ACCEPT="application/jsonl")
    assert response.status_code == 401
    assert_error(response.json(), "UNAUTHORIZED", 401)


def test_a_v10_stream_request_answers_one_line_per_result(api, chains):
    response = api.get(query_url("chains.list,nope", batch=True), HTTP_TRPC_BATCH_MODE="stream")
    lines = response.content.decode().split("\n")
    assert lines[0].startswith('{"0":') and lines[1].startswith(',"1":') and lines[2] == "}"
    assert json.loads(response.content) == {"0": api.get("/trpc/chains.list").json(),
                                            "1": api.get("/trpc/nope").json()}


class TestSuperjson:
    @pytest.fixture(autouse=True)
    def superjson(self, settings):
        settings.TRPC_SUPERJSON = True

    def test_inputs_and_outputs_are_wrapped(self, api, chains):
        data = {"json": {"isTestnet": True, "limit": None}, "meta": {"values": {"limit": ["undefined"]}}}
        response = api.get(query_url("chains.list", data))
        results = response.json()["result"]["data"]["json"]["results"]
        assert [chain["chainId"] for chain in results] == [31337]

    def test_errors_are_wrapped(self, api):
        response = api.get(query_url("nope", {"json": None, "meta": {"values": ["undefined"]}}))
        assert_error({"error": response.json()["error"]["json"]}, "NOT_FOUND", 404)

    def test_a_bigint_input_is_an_integer(self, api, chains):
        data = {"json": {"chainId": "31337"}, "meta": {"values": {"chainId": ["bigint"]}}}
        response = api.get(query_url("chains.get", data))
        assert response.json()["result"]["data"]["json"]["chainId"] == 31337

    @pytest.mark.parametrize("data", [{"isTestnet": True}, {"json": {}, "meta": {"values": {"a": ["Map"]}}}])
    def test_an_input_not_in_superjson_form_is_a_bad_request(self, api, data):
        envelope = api.get(query_url("chains.list", data)).json()
        assert_error({"error": envelope["error"]["json"]}, "BAD_REQUEST", 400)

    def test_a_stream_line_is_wrapped_as_a_whole(self, api, chains):
        response = api.get(query_url("chains.list", batch=True), HTTP_TRPC_ACCEPT="application/jsonl")
        head = json.loads(response.content)["json"]
        assert len(head["0"][0][0]["result"]["data"]["results"]) == 2


def test_posts_need_no_csrf_token(api_key, chains):
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_X_API_KEY=api_key)
    assert post(client, "schemas.validate", {"schema": SCHEMA}).status_code == 200
    rpc = client.post("/trpc", {"jsonrpc": "2.0", "method": "chains.list", "id": 1}, format="json")
    assert rpc.status_code == 200

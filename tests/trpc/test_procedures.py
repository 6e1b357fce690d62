"""The procedures answer what their REST routes answer (SPEC section 7)."""

import json
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from django.urls import resolve, reverse

from tests.bindings.conftest import DOCUMENT, chain, document_schema  # noqa: F401 (fixtures)
from tests.factories import (
    AttestationFactory,
    ChainFactory,
    ExecutorFactory,
    IndexCursorFactory,
    SchemaFactory,
)
from tests.trpc.conftest import assert_error, query_url
from trpc.dispatch import path_params
from trpc.procedures import PROCEDURES

pytestmark = pytest.mark.django_db

SPEC_PROCEDURES = {"chains.list", "schemas.list", "schemas.get", "schemas.validate",
                   "attestations.list", "attestations.get", "verify", "workflows.create",
                   "workflows.get", "workflows.list"}


@pytest.mark.parametrize("name", sorted(PROCEDURES))
def test_each_procedure_names_a_route_with_its_method(name):
    procedure = PROCEDURES[name]
    kwargs = {param: "1" for param in path_params(procedure.url_name)}
    callback = resolve(reverse(procedure.url_name, kwargs=kwargs)).func
    assert procedure.method.lower() in callback.actions, (name, callback.actions)


def test_the_spec_procedures_are_registered():
    assert SPEC_PROCEDURES <= set(PROCEDURES)
    assert set(PROCEDURES) - SPEC_PROCEDURES <= {
        "chains.get", "verify.batch", "timestamps.list", "timestamps.get",
        "offchainRevocations.list", "attestations.submitOffchain", "attestations.getOffchain"}


def create(api, data, key=None):
    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.generic("POST", "/trpc/workflows.create", json.dumps(data),
                       content_type="application/json", **extra)


def test_workflows_are_created_read_and_listed(api, document_schema):  # noqa: F811
    created = create(api, {"documentHash": DOCUMENT, "chainId": 31337}, key="order-1")
    assert created.status_code == 200  # tRPC answers 200 where REST says 201
    workflow = created.json()["result"]["data"]
    assert workflow["state"] == "queued" and workflow["documentHash"] == DOCUMENT
    again = create(api, {"documentHash": DOCUMENT, "chainId": 31337}, key="order-1")
    assert again.json()["result"]["data"]["workflowId"] == workflow["workflowId"]

    read = api.get(query_url("workflows.get", {"workflowId": workflow["workflowId"]}))
    assert read.json() == {"result": {"data": api.get(f"/workflows/{workflow['workflowId']}").json()}}
    listed = api.get(query_url("workflows.list", {"chainId": 31337}))
    assert listed.json() == {"result": {"data": api.get("/workflows?chainId=31337").json()}}


def test_workflow_errors_keep_their_rest_status(api, document_schema):  # noqa: F811
    create(api, {"documentHash": DOCUMENT, "chainId": 31337}, key="order-1")
    reused = create(api, {"documentHash": "0x" + "11" * 32, "chainId": 31337}, key="order-1")
    assert reused.status_code == 409
    shape = assert_error(reused.json(), "CONFLICT", 409, "workflows.create")
    assert shape["data"]["problem"]["code"] == "idempotency_key_reused"
    invalid = create(api, {"documentHash": "0x12", "chainId": 31337})
    assert_error(invalid.json(), "BAD_REQUEST", 400, "workflows.create")
    missing = api.get(query_url("workflows.get", {"workflowId": "nope"}))
    assert_error(missing.json(), "NOT_FOUND", 404, "workflows.get")


def same_as_rest(api, procedure, data, rest_url):
    answer = api.get(query_url(procedure, data))
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"result": {"data": api.get(rest_url).json()}}
    return answer.json()["result"]["data"]


def test_schemas_and_attestations_are_listed_read_and_paged(api):
    indexed_chain = ChainFactory(chain_id=31337, confirmations=2)
    IndexCursorFactory(chain=indexed_chain, deployment__chain=indexed_chain, head_block=120)
    schema = SchemaFactory(chain=indexed_chain, deployment__chain=indexed_chain)
    start = datetime(2026, 11, 21, 10, tzinfo=UTC)
    made = [AttestationFactory(schema=schema, time=start + timedelta(minutes=n)) for n in range(3)]

    same_as_rest(api, "schemas.list", {"chainId": 31337}, "/schemas?chainId=31337")
    same_as_rest(api, "schemas.get", {"uid": schema.uid}, f"/schemas/{schema.uid}")
    page = same_as_rest(api, "attestations.list", {"limit": 2}, "/attestations?limit=2")
    assert [a["uid"] for a in page["results"]] == [made[2].uid, made[1].uid]
    cursor = parse_qs(urlparse(page["next"]).query)["cursor"][0]  # the next page's input
    rest = same_as_rest(api, "attestations.list", {"limit": 2, "cursor": cursor}, page["next"])
    assert [a["uid"] for a in rest["results"]] == [made[0].uid]
    same_as_rest(api, "attestations.get", {"uid": made[0].uid, "chainId": 31337},
                 f"/attestations/{made[0].uid}?chainId=31337")


def test_attestation_input_errors_are_the_rest_ones(api):
    bad_filter = api.get(query_url("attestations.list", {"revoked": 1}))
    shape = assert_error(bad_filter.json(), "BAD_REQUEST", 400, "attestations.list")
    assert shape["data"]["problem"]["errors"][0]["attr"] == "revoked"
    bad_uid = api.get(query_url("attestations.get", {"uid": "0x12"}))
    assert_error(bad_uid.json(), "BAD_REQUEST", 400, "attestations.get")
    unknown = api.get(query_url("schemas.get", {"uid": "0x" + "00" * 32}))
    assert_error(unknown.json(), "NOT_FOUND", 404, "schemas.get")


def test_the_openapi_schema_documents_trpc_with_the_registered_procedures(anon):
    paths = anon.get("/v1/openapi.json").json()["paths"]
    assert {"get", "post"} <= set(paths["/trpc/{procedures}"])
    description = paths["/trpc/{procedures}"]["get"]["parameters"][0]["description"]
    assert all(name in description for name in PROCEDURES)
    body = paths["/trpc"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["oneOf"][0]["properties"]["method"]["enum"] == sorted(PROCEDURES)


def test_verify_answers_as_post_v1_verify(api):
    indexed_chain = ChainFactory(chain_id=31337, confirmations=2)
    IndexCursorFactory(deployment__chain=indexed_chain, head_block=1000)
    executor = "0x" + "e1" * 20
    ExecutorFactory(chain=indexed_chain, address=executor)
    document = "0x" + "d0" * 32
    attestation = AttestationFactory(schema=SchemaFactory(deployment__chain=indexed_chain),
                                     attester=executor, document_hash=document, block_number=900)
    for data in ({"documentHash": document}, {"documentHash": "0x" + "11" * 32},
                 {"documentHash": document.upper().replace("0X", "0x"), "chainId": 31337}):
        answer = api.generic("POST", "/trpc/verify", json.dumps(data), content_type="application/json")
        rest = api.post("/v1/verify", data, format="json").json()
        assert answer.json() == {"result": {"data": rest}}
        # Why not, when not: the same field as POST /v1/verify's.
        assert answer.json()["result"]["data"]["reason"] == (
            None if rest["verified"] else "not_found")
    assert rest["verified"] is True and rest["attestationId"] == attestation.uid
    bad = api.generic("POST", "/trpc/verify", json.dumps({"documentHash": "0x12"}),
                      content_type="application/json")
    shape = assert_error(bad.json(), "BAD_REQUEST", 400, "verify")
    assert shape["data"]["problem"]["errors"][0]["attr"] == "documentHash"


def test_a_tampered_workflows_cursor_is_a_bad_request(api):
    from base64 import b64encode

    cursor = b64encode(b"p=9999-12-31+23%3A59%3A59-14%3A00").decode()
    response = api.get(query_url("workflows.list", {"cursor": cursor}))
    assert_error(response.json(), "BAD_REQUEST", 400, "workflows.list")

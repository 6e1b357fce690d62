"""The procedures answer what their REST routes answer (SPEC section 7)."""

import json

import pytest
from django.urls import resolve, reverse

from config.trpc.dispatch import path_params
from config.trpc.procedures import PROCEDURES
from tests.trpc.conftest import assert_error, query_url
from tests.verification.conftest import DOCUMENT, chain, document_schema  # noqa: F401 (fixtures)

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


def test_the_spec_procedures_that_exist_are_registered():
    # Those whose REST endpoint is not built yet come with it (config/trpc/procedures.py).
    assert {"chains.list", "schemas.validate", "workflows.create", "workflows.get",
            "workflows.list"} <= set(PROCEDURES)
    assert set(PROCEDURES) - SPEC_PROCEDURES <= {"chains.get"}


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

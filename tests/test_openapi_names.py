"""The schema as client generators read it (issue 24, item 1): operation ids, tags and
summaries derived systematically, component names without doubled suffixes, every error an
operation can answer, the headers, servers, license and key schemes."""

import re

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

CAMEL_CASE = re.compile(r"[a-z]+(?:[A-Z0-9][a-z0-9]*)*")


@pytest.fixture(scope="module")
def schema() -> dict:
    response = APIClient().get("/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_path_parameters_are_camel_case_as_in_the_paths(schema):
    # Like every other name on the wire: {chainId}, not {chain_id} or {subscription_pk}
    # (issue 37 item 7).
    for path, _, operation in operations(schema):
        in_path = re.findall(r"\{([^}]+)\}", path)
        named = [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]
        assert sorted(named) == sorted(in_path), path
        assert [name for name in in_path if not CAMEL_CASE.fullmatch(name)] == [], path


def test_operation_ids_are_unique_camel_case(schema):
    ids = [op["operationId"] for _, _, op in operations(schema)]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if not CAMEL_CASE.fullmatch(i)] == []


@pytest.mark.parametrize(("path", "method", "operation_id", "tag"), [
    ("/v1/verify", "post", "verify", "verification"),
    ("/v1/verify/batch", "post", "verifyBatch", "verification"),
    ("/attestations", "get", "listAttestations", "attestations"),
    ("/attestations/{uid}", "get", "getAttestation", "attestations"),
    ("/chains", "get", "listChains", "chains"),
    ("/chains/{chainId}", "get", "getChain", "chains"),
    ("/schemas/validate", "post", "validateSchema", "schemas"),
    ("/workflows", "post", "createWorkflow", "workflows"),
    ("/workflows/{id}", "get", "getWorkflow", "workflows"),
    ("/v1/admin/chains", "get", "adminListChains", "admin"),
    ("/v1/admin/chains/{chainId}", "patch", "adminUpdateChain", "admin"),
    ("/v1/webhooks/{subscriptionId}/deliveries", "get", "listDeliveries", "webhooks"),
    ("/v1/chain-registry/{chain}/jobs/{workflowId}/result", "post", "reportJob", "executors"),
    ("/v1/admin/rpc", "get", "adminListRpcEndpoints", "admin"),
    ("/v1/admin/executors/{id}/deregister", "post", "adminDeregisterExecutor", "admin"),
    ("/v1/chain-registry/{chain}/heartbeat", "post", "heartbeat", "executors"),
    ("/v1/chain-registry/{chain}/jobs/claim", "post", "claimJob", "executors"),
    ("/trpc/{procedures}", "get", "trpcQuery", "trpc"),
    ("/readyz", "get", "getReadiness", "ops"),
])
def test_operations_are_named_by_verb_and_noun_and_tagged_by_area(
        schema, path, method, operation_id, tag):
    operation = schema["paths"][path][method]
    assert operation["operationId"] == operation_id
    assert operation["tags"] == [tag]


def test_every_operation_has_a_summary_and_a_declared_tag(schema):
    declared = {tag["name"] for tag in schema["tags"]}
    for path, method, operation in operations(schema):
        assert operation.get("summary"), (path, method)
        assert set(operation["tags"]) <= declared, (path, method)


def test_summaries_read_as_phrases(schema):
    assert schema["paths"]["/v1/admin/rpc"]["get"]["summary"] == "List RPC endpoints"
    assert schema["paths"]["/v1/verify"]["post"]["summary"] == "Verify a document"


def test_request_components_have_one_request_suffix(schema):
    names = set(schema["components"]["schemas"])
    assert {"VerifyRequest", "VerifyBatchRequest", "SchemaValidateRequest"} <= names
    assert [name for name in names if "RequestRequest" in name] == []


def test_every_keyed_operation_answers_503_and_every_answer_has_a_request_id(schema):
    for path, method, operation in operations(schema):
        if operation.get("security") and not path.startswith(("/trpc", "/metrics")):
            problem = operation["responses"]["503"]["content"]["application/problem+json"]
            assert problem["schema"] == {"$ref": "#/components/schemas/Problem"}
            assert "Retry-After" in operation["responses"]["503"]["headers"]
        if not path.startswith(("/trpc", "/healthz", "/readyz", "/metrics")):
            for status, response in operation["responses"].items():
                assert "X-Request-ID" in response.get("headers", {}), (path, method, status)


def test_boolean_filters_are_booleans(schema):
    parameters = {p["name"]: p for p in schema["paths"]["/chains"]["get"]["parameters"]}
    assert parameters["isTestnet"]["schema"] == {"type": "boolean"}


def test_nullable_references_are_typed(schema):
    reason = schema["components"]["schemas"]["VerifyResponse"]["properties"]["reason"]
    assert reason["nullable"] is True and reason["type"] == "string"


def test_the_schema_names_servers_license_and_contact(schema):
    assert schema["servers"][0]["url"] == "/"
    assert schema["info"]["license"]["name"] and schema["info"]["contact"]["name"]
    assert "X-API-Key" in schema["info"]["description"]


def test_trpc_procedures_name_their_rest_operations(schema):
    listed = {p["name"]: p for op in schema["paths"]["/trpc/{procedures}"].values()
              for p in op["x-trpc-procedures"]}
    assert listed["verify"]["operationId"] == "verify"
    assert listed["workflows.get"]["pathInputs"] == {"id": "workflowId"}
    assert listed["chains.get"] == {"name": "chains.get", "kind": "query",
                                    "operationId": "getChain",
                                    "pathInputs": {"chainId": "chainId"}}

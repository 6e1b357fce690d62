"""POST/GET /workflows (SPEC section 5): creation, idempotency, reads and filters."""

import pytest

from attestations.models import Schema
from bindings.models import Workflow, WorkflowTransition
from registry.models import Chain
from tests.bindings.conftest import DOCUMENT, bind
from tests.conftest import assert_problem, make_key
from tests.factories import ChainFactory, SchemaFactory

pytestmark = pytest.mark.django_db


def test_binding_a_document_queues_a_workflow_under_the_chains_document_schema(api, document_schema):
    response = bind(api)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["state"] == "queued"
    assert body["documentHash"] == DOCUMENT
    assert body["chainId"] == 31337
    assert body["schemaId"] == document_schema.uid
    assert body["attestationUid"] is None and body["txHash"] is None
    assert [(t["fromState"], t["toState"]) for t in body["transitions"]] == [
        ("", "received"), ("received", "queued")]
    assert body["createdAt"].endswith("Z")
    stored = Workflow.objects.get(pk=body["workflowId"])
    assert stored.state == "queued" and stored.schema_uid == document_schema.uid


def test_the_document_hash_is_stored_lowercase(api, document_schema):
    response = bind(api, document="0x" + "D0" * 32)
    assert response.status_code == 201
    assert response.json()["documentHash"] == DOCUMENT


def test_a_repeat_with_the_same_idempotency_key_returns_the_same_workflow(api, document_schema):
    first = api.post("/workflows", {"documentHash": DOCUMENT, "chainId": 31337}, format="json",
                     HTTP_IDEMPOTENCY_KEY="order-17")
    again = api.post("/workflows", {"chainId": 31337, "documentHash": DOCUMENT}, format="json",
                     HTTP_IDEMPOTENCY_KEY="order-17")

    assert first.status_code == 201 and again.status_code == 200, again.content
    assert again.json()["workflowId"] == first.json()["workflowId"]
    assert Workflow.objects.count() == 1


def test_the_same_idempotency_key_with_another_body_is_a_conflict(api, document_schema):
    api.post("/workflows", {"documentHash": DOCUMENT, "chainId": 31337}, format="json",
             HTTP_IDEMPOTENCY_KEY="order-17")
    other = api.post("/workflows", {"documentHash": "0x" + "11" * 32, "chainId": 31337},
                     format="json", HTTP_IDEMPOTENCY_KEY="order-17")

    assert_problem(other, 409, "idempotency_key_reused")
    assert Workflow.objects.count() == 1


def test_without_a_key_each_request_is_a_new_workflow(api, document_schema):
    assert bind(api).status_code == 201
    assert bind(api).status_code == 201
    assert Workflow.objects.count() == 2


def test_a_richer_schema_takes_its_other_fields_from_data(api, document_schema, chain):
    richer = SchemaFactory(deployment=document_schema.deployment, chain=chain,
                           schema="bytes32 documentHash,string name",
                           fields=[{"name": "documentHash", "type": "bytes32"},
                                   {"name": "name", "type": "string"}])
    response = bind(api, schemaId=richer.uid, data={"name": "contract.pdf"})

    assert response.status_code == 201, response.content
    assert response.json()["schemaId"] == richer.uid
    assert response.json()["data"] == {"name": "contract.pdf"}


@pytest.mark.parametrize("body, attr", [
    ({"documentHash": "0x1234", "chainId": 31337}, "documentHash"),
    ({"documentHash": DOCUMENT, "chainId": "31337"}, "chainId"),
    ({"documentHash": DOCUMENT}, "chainId"),
    ({"documentHash": DOCUMENT, "chainId": 31337, "extra": 1}, "extra"),
    ({"documentHash": DOCUMENT, "chainId": 31337, "data": {"name": "x"}}, "data.name"),
    ({"documentHash": DOCUMENT, "chainId": 31337, "data": {"documentHash": DOCUMENT}},
     "data.documentHash"),
    ({"documentHash": DOCUMENT, "chainId": 424242}, "chainId"),
    ({"documentHash": DOCUMENT, "chainId": 31337, "schemaId": "0x" + "99" * 32}, "schemaId"),
])
def test_malformed_input_is_a_400_naming_the_field_and_writes_nothing(api, document_schema, body, attr):
    problem = assert_problem(api.post("/workflows", body, format="json"), 400)
    assert attr in [e["attr"] for e in problem["errors"]], problem
    assert not Workflow.objects.exists() and not WorkflowTransition.objects.exists()


def test_a_schema_without_a_document_hash_field_is_refused(api, document_schema, chain):
    plain = SchemaFactory(deployment=document_schema.deployment, chain=chain, schema="string name",
                          fields=[{"name": "name", "type": "string"}], document_hash_field="")
    problem = assert_problem(bind(api, schemaId=plain.uid), 400)
    assert problem["errors"][0]["attr"] == "schemaId"


def test_an_inactive_chain_takes_no_workflow(api, document_schema, chain):
    chain.set_status(Chain.Status.INACTIVE)
    assert_problem(bind(api), 409, "chain_inactive")
    assert not Workflow.objects.exists()


def test_a_chain_without_a_document_schema_needs_a_schema_id(api, chain):
    assert_problem(bind(api), 409, "no_document_schema")
    assert not Workflow.objects.exists()


def test_a_bad_idempotency_key_is_a_400(api, document_schema):
    response = api.post("/workflows", {"documentHash": DOCUMENT, "chainId": 31337},
                        format="json", HTTP_IDEMPOTENCY_KEY="x" * 256)
    assert_problem(response, 400)


def test_get_shows_the_workflow_with_its_transitions(api, document_schema):
    created = bind(api).json()
    response = api.get(f"/workflows/{created['workflowId']}")
    assert response.status_code == 200
    assert response.json() == created


def test_an_unknown_workflow_is_a_404(api, document_schema):
    assert_problem(api.get("/workflows/00000000-0000-0000-0000-000000000000"), 404)
    assert_problem(api.get("/workflows/nope"), 404)


def test_the_list_filters_by_state_chain_and_document(api, document_schema):
    other_chain = ChainFactory()
    SchemaFactory(chain=other_chain, deployment__chain=other_chain)
    bind(api)
    bind(api, document="0x" + "11" * 32)
    bind(api, chain_id=other_chain.chain_id)
    Workflow.objects.filter(document_hash="0x" + "11" * 32).update(state="failed")

    def ids(query):
        response = api.get("/workflows" + query)
        assert response.status_code == 200, response.content
        return [(w["chainId"], w["documentHash"], w["state"]) for w in response.json()["results"]]

    assert len(ids("")) == 3
    assert ids("?state=failed") == [(31337, "0x" + "11" * 32, "failed")]
    assert ids(f"?chainId={other_chain.chain_id}") == [(other_chain.chain_id, DOCUMENT, "queued")]
    assert len(ids("?documentHash=0x" + "D0" * 32)) == 2
    assert_problem(api.get("/workflows?documentHash=0x12"), 400)
    assert_problem(api.get("/workflows?state=nope"), 400)


def test_the_list_pages_with_an_opaque_cursor_newest_first(api, document_schema):
    for n in range(5):
        bind(api, document="0x" + f"{n:064x}")
    first = api.get("/workflows?limit=2").json()
    assert [w["documentHash"][-1] for w in first["results"]] == ["4", "3"]
    second = api.get(first["next"]).json()
    assert [w["documentHash"][-1] for w in second["results"]] == ["2", "1"]
    assert_problem(api.get("/workflows?cursor=garbage"), 400)


def test_an_executor_key_cannot_bind(executor_client, document_schema):
    assert_problem(bind(executor_client), 403)


def test_the_document_schema_prefers_the_plain_registration(document_schema, chain):
    from bindings.workflows import chain_document_schema

    SchemaFactory(deployment=document_schema.deployment, chain=chain, block_number=0,
                  resolver="0x" + "12" * 20)
    assert chain_document_schema(chain) == document_schema
    assert Schema.objects.filter(chain=chain).count() == 2


@pytest.mark.parametrize("position", [
    "zzz", "9999-99-99", "2026-01-01 00:00:00",  # not a time, no zone
    "9999-12-31 23:59:59-14:00", "0001-01-01 00:00:00+14:00",  # beyond the years UTC holds
])
def test_a_tampered_cursor_is_a_400_not_a_crash(api, document_schema, position):
    from base64 import b64encode
    from urllib.parse import quote, urlencode

    cursor = quote(b64encode(urlencode({"p": position}).encode()).decode())
    assert_problem(api.get(f"/workflows?cursor={cursor}"), 400, "validation_error")


# Tenancy (issue 17, item 8): an api key sees the workflows it created; an admin key all.


def test_an_api_key_sees_only_the_workflows_it_created(api, admin_key, document_schema):
    from tests.executors.conftest import with_api_key
    from tests.trpc.conftest import assert_error, query_url

    mine = bind(api).json()["workflowId"]
    other = with_api_key(make_key("api"))
    theirs = bind(other, document="0x" + "11" * 32).json()["workflowId"]

    assert [w["workflowId"] for w in api.get("/workflows").json()["results"]] == [mine]
    assert [w["workflowId"] for w in other.get("/workflows").json()["results"]] == [theirs]
    assert_problem(api.get(f"/workflows/{theirs}"), 404)
    assert api.get(f"/workflows/{mine}").status_code == 200
    assert_error(api.get(query_url("workflows.get", {"workflowId": theirs})).json(),
                 "NOT_FOUND", 404, "workflows.get")
    listed = api.get(query_url("workflows.list", {})).json()["result"]["data"]["results"]
    assert [w["workflowId"] for w in listed] == [mine]

    admin = with_api_key(admin_key)
    assert {w["workflowId"] for w in admin.get("/workflows").json()["results"]} == {mine, theirs}
    assert admin.get(f"/workflows/{theirs}").status_code == 200

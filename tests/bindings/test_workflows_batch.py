"""POST /workflows/batch: up to 1,000 binding requests at once, all or nothing, idempotent."""

import pytest
from django.db import connection

from bindings.models import Workflow, WorkflowTransition
from tests.bindings.conftest import DOCUMENT
from tests.conftest import assert_problem
from tests.factories import ChainFactory

pytestmark = pytest.mark.django_db

URL = "/workflows/batch"


def document(n: int) -> str:
    return "0x" + f"{n + 1:064x}"


def items(count: int, chain_id: int = 31337) -> list[dict]:
    return [{"documentHash": document(n), "chainId": chain_id} for n in range(count)]


def post(client, workflows, key: str | None = None):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    return client.post(URL, {"workflows": workflows}, format="json", **headers)


def test_a_batch_queues_every_workflow_in_request_order(api, document_schema):
    response = post(api, items(3))

    assert response.status_code == 201, response.content
    answered = response.json()["workflows"]
    assert [w["documentHash"] for w in answered] == [document(n) for n in range(3)]
    assert all(w["state"] == "queued" and w["created"] is True for w in answered)
    assert all(w["schemaId"] == document_schema.uid for w in answered)
    assert response["Location"] == f"/workflows/{answered[0]['workflowId']}"
    for w in answered:
        stored = Workflow.objects.get(pk=w["workflowId"])
        assert [(t.from_state, t.to_state, t.cause) for t in stored.transitions.all()] == [
            ("", "received", "requested"), ("received", "queued", "accepted")]
        assert bytes(stored.attestation_data).hex() == w["documentHash"][2:]


def test_a_refused_item_is_named_by_its_index_and_nothing_is_queued(api, document_schema):
    bad = items(5)
    bad[3]["documentHash"] = "0x1234"
    body = assert_problem(post(api, bad), 400)
    assert [e["attr"] for e in body["errors"]] == ["workflows.3.documentHash"]

    unknown_chain = items(5)
    unknown_chain[2]["chainId"] = 999
    body = assert_problem(post(api, unknown_chain), 400)
    assert [e["attr"] for e in body["errors"]] == ["workflows.2.chainId"]

    unknown_schema = items(3)
    unknown_schema[1]["schemaId"] = "0x" + "99" * 32
    body = assert_problem(post(api, unknown_schema), 400)
    assert [e["attr"] for e in body["errors"]] == ["workflows.1.schemaId"]

    inactive = ChainFactory(chain_id=5, status="inactive")
    body = assert_problem(post(api, [*items(2), *items(1, inactive.chain_id)]), 409,
                          "chain_inactive")
    assert body["detail"].startswith("workflows.2: ")
    assert [e["attr"] for e in body["errors"]] == ["workflows.2"]
    assert not Workflow.objects.exists() and not WorkflowTransition.objects.exists()


@pytest.mark.parametrize("workflows", [[], items(1001), "x", [5]])
def test_a_batch_takes_1_to_1000_items(api, document_schema, workflows):
    assert_problem(post(api, workflows), 400)


def test_a_repeat_under_the_same_key_returns_the_same_workflows(api, document_schema):
    first = post(api, items(4), key="march-invoices")
    again = post(api, items(4), key="march-invoices")

    assert (first.status_code, again.status_code) == (201, 200), again.content
    assert [w["workflowId"] for w in again.json()["workflows"]] == [
        w["workflowId"] for w in first.json()["workflows"]]
    assert {w["created"] for w in again.json()["workflows"]} == {False}
    assert "Location" not in again
    assert Workflow.objects.count() == 4
    # Another body under the key: a conflict, whether an item or their number differs.
    assert_problem(post(api, items(5), key="march-invoices"), 409, "idempotency_key_reused")
    changed = items(4)
    changed[3]["documentHash"] = DOCUMENT
    assert_problem(post(api, changed, key="march-invoices"), 409, "idempotency_key_reused")
    assert Workflow.objects.count() == 4


def test_a_batchs_keys_never_meet_a_single_creations(api, document_schema):
    post(api, items(2), key="k")
    single = api.post("/workflows", {"documentHash": DOCUMENT, "chainId": 31337},
                      format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert single.status_code == 201
    too_long = post(api, items(1), key="k" * 252)
    assert_problem(too_long, 400)
    assert post(api, items(1), key="k" * 251).status_code == 201


def test_another_key_repeats_nothing(api, document_schema):
    post(api, items(2), key="a")
    assert post(api, items(2), key="b").status_code == 201
    assert Workflow.objects.count() == 4


def test_a_thousand_workflows_in_one_request(api, document_schema, django_assert_max_num_queries):
    # A few statements on PostgreSQL; SQLite splits the inserts by its parameter limit.
    with django_assert_max_num_queries(20 if connection.vendor == "postgresql" else 80):
        response = post(api, items(1000))
    assert response.status_code == 201
    assert Workflow.objects.filter(state="queued").count() == 1000
    assert WorkflowTransition.objects.count() == 2000


def test_items_keyed_one_by_one_are_each_found_or_created(api, document_schema, api_key):
    """The issuer pages' use of the same service: each item has a key and a fingerprint of
    its own; a repeat finds the items bound before and creates only the others."""
    from bindings.workflows import request_fingerprint, workflows_create_many
    from registry.authentication import authenticate_key

    holder = authenticate_key(api_key)

    def bind(numbers):
        items = [{"chain_id": 31337, "document_hash": document(n), "data": {}} for n in numbers]
        return workflows_create_many(holder=holder, items=items,
                                     keys=[f"doc\x1f{n}" for n in numbers],
                                     fingerprint=[request_fingerprint(i) for i in items])

    first = bind([0, 1])
    again = bind([5, 1, 0])
    assert [created for _, created in again] == [True, False, False]
    assert [w.pk for w, _ in again[1:]] == [first[1][0].pk, first[0][0].pk]
    assert Workflow.objects.count() == 3

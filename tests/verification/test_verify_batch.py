"""POST /v1/verify/batch: many document hashes in one request and one database statement,
each answered as POST /v1/verify answers it. Runs on PostgreSQL and on SQLite."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from registry.models import Chain
from tests.conftest import assert_problem
from tests.factories import ExecutorFactory, TrustedAttesterFactory
from tests.verification.conftest import attest_by_the_executor, indexed_chain, query_plan
from verification.serializers import BATCH_LIMIT
from verification.services import verify_documents
from verification.sql import BATCH_SQL

pytestmark = pytest.mark.django_db

URL = "/v1/verify/batch"
STRANGER = "0x" + "5e" * 20


def a_hash(n: int) -> str:
    return f"0x{n:064x}"


def batch(api, hashes, **body):
    response = api.post(URL, {"documentHashes": hashes, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["results"]


def single(api, document_hash, **body):
    response = api.post("/v1/verify", {"documentHash": document_hash, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.fixture
def scene():
    """Two chains (31337 and 10, 12 confirmations, head 1000) and documents of every kind:
    hash -> what it should answer, valid ones by the uid of their earliest valid
    attestation, the others by reason."""
    now = timezone.now()
    one = indexed_chain(chain_id=31337, short_name="one", confirmations=12)
    two = indexed_chain(chain_id=10, short_name="two", confirmations=12)
    past, future = now - timedelta(days=1), now + timedelta(days=1)
    expected = {}

    def document(n, *attestations):
        expected[a_hash(n)] = None
        made = [attest_by_the_executor(chain, document_hash=a_hash(n), **fields)
                for chain, fields in attestations]
        return made

    made = document(1, (one, {}))
    expected[a_hash(1)] = made[0].uid
    document(2, (one, {"revocation_time": past}))
    expected[a_hash(2)] = "revoked"
    document(3, (one, {"expiration_time": past}))
    expected[a_hash(3)] = "expired"
    document(4, (one, {"block_number": 995}))
    expected[a_hash(4)] = "not_final"
    document(5, (one, {"attester": STRANGER}))
    expected[a_hash(5)] = "untrusted_attester"
    expected[a_hash(6)] = "not_found"
    # Several attestations: the earliest valid one answers, across chains.
    made = document(7, (one, {"time": now - timedelta(hours=1)}),
                    (two, {"time": now - timedelta(hours=2)}),
                    (one, {"time": now - timedelta(hours=3), "revocation_time": past}))
    expected[a_hash(7)] = made[1].uid
    # None valid: the most telling reason (not_final > revoked > ... ).
    document(8, (one, {"revocation_time": past}), (two, {"block_number": 999}),
             (one, {"attester": STRANGER}))
    expected[a_hash(8)] = "not_final"
    made = document(9, (one, {"expiration_time": future}))
    expected[a_hash(9)] = made[0].uid
    # A trusted attester added by an administrator; an executor whose trust was revoked.
    TrustedAttesterFactory(chain=two, address=STRANGER)
    made = document(10, (two, {"attester": STRANGER}))
    expected[a_hash(10)] = made[0].uid
    revoked = ExecutorFactory(chain=two, trust_revoked_at=past)
    document(11, (two, {"attester": revoked.address}))
    expected[a_hash(11)] = "untrusted_attester"
    inactive = indexed_chain(chain_id=5, short_name="gone", confirmations=1,
                             status=Chain.Status.INACTIVE)
    document(12, (inactive, {}))
    expected[a_hash(12)] = "chain_inactive"
    return expected


def outcome(answer: dict) -> str:
    return answer["attestationId"] if answer["verified"] else answer["reason"]


def test_each_answer_is_the_single_verifications(api, scene):
    hashes = list(scene)
    results = batch(api, hashes)
    assert [r["documentHash"] for r in results] == hashes
    assert {r["documentHash"]: outcome(r) for r in results} == scene
    for result in results:
        expected = single(api, result["documentHash"])
        assert {k: v for k, v in result.items() if k != "documentHash"} == expected


@pytest.mark.parametrize("chain_id", [31337, 10, 5, 999])
def test_chain_id_narrows_every_answer_as_it_does_one(api, scene, chain_id):
    results = batch(api, list(scene), chainId=chain_id)
    for result in results:
        expected = single(api, result["documentHash"], chainId=chain_id)
        assert {k: v for k, v in result.items() if k != "documentHash"} == expected


def test_answers_come_in_request_order_and_a_repeated_hash_once(api, scene):
    asked = [a_hash(6), a_hash(1), a_hash(6).upper().replace("0X", "0x"), a_hash(2), a_hash(1)]
    results = batch(api, asked)
    assert [r["documentHash"] for r in results] == [a_hash(6), a_hash(1), a_hash(2)]
    assert [outcome(r) for r in results] == ["not_found", scene[a_hash(1)], "revoked"]


def test_a_full_batch_is_one_database_statement(api, scene):
    hashes = list(scene) + [a_hash(n) for n in range(100, 100 + BATCH_LIMIT - len(scene))]
    with CaptureQueriesContext(connection) as queries:
        results = batch(api, hashes)
    assert len(results) == BATCH_LIMIT
    reading = [q["sql"] for q in queries if "attestations_attestation" in q["sql"]]
    assert len(reading) == 1
    assert sum(r["verified"] for r in results) == sum(
        1 for value in scene.values() if value.startswith("0x"))


def test_the_statement_reads_the_document_index(scene):
    db_hashes = list(scene)
    params = {"chain_id": None, "now": timezone.now(), "document_hashes": (
        db_hashes if connection.vendor == "postgresql" else json.dumps(db_hashes))}
    if connection.vendor == "sqlite":
        params["now"] = connection.ops.adapt_datetimefield_value(params["now"])
    plan = query_plan(BATCH_SQL[connection.vendor], params, by_conditions=True)
    assert "attestation_document_idx" in plan, plan


@pytest.mark.parametrize("body, attrs", [
    ({"documentHashes": [a_hash(1), "0x12", a_hash(2), "nope"]},
     ["documentHashes.1", "documentHashes.3"]),
    ({"documentHashes": []}, ["documentHashes"]),
    ({"documentHashes": [a_hash(n) for n in range(BATCH_LIMIT + 1)]}, ["documentHashes"]),
    ({"documentHashes": a_hash(1)}, ["documentHashes"]),
    ({"documentHashes": [a_hash(1), None]}, ["documentHashes.1"]),
    ({"documentHashes": [a_hash(1), 7]}, ["documentHashes.1"]),
    ({}, ["documentHashes"]),
    ({"documentHashes": [a_hash(1)], "live": True}, ["live"]),
    ({"documentHashes": [a_hash(1)], "chainId": 0}, ["chainId"]),
])
def test_a_malformed_batch_is_a_400_naming_each_fault(api, body, attrs):
    problem = assert_problem(api.post(URL, body, format="json"), 400, "validation_error")
    assert [e["attr"] for e in problem["errors"]] == attrs


def test_a_key_of_scope_executor_may_not_verify(executor_key):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    assert_problem(client.post(URL, {"documentHashes": [a_hash(1)]}, format="json"), 403)


def test_the_service_answers_distinct_hashes_in_order(scene):
    answers = verify_documents([a_hash(3), a_hash(3), a_hash(1)])
    assert [(a.document_hash, a.verified, a.reason) for a in answers] == [
        (a_hash(3), False, "expired"), (a_hash(1), True, None)]


def test_trpc_verify_batch_answers_as_the_rest_route(api, scene):
    data = {"documentHashes": list(scene)[:5]}
    answer = api.generic("POST", "/trpc/verify.batch", json.dumps(data),
                         content_type="application/json")
    assert answer.json() == {"result": {"data": {"results": batch(api, data["documentHashes"])}}}

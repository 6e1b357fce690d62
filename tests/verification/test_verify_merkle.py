"""Verification of Merkle-bound documents (binding mode `merkle`): a document of a batch
verifies through its root's attestation, under the same rules, with `merkleRoot` and `proof`;
a holder's own proof is checked the same way. Runs on PostgreSQL and on SQLite; the chain's
side is in tests/bindings/test_merkle_e2e.py."""

from datetime import timedelta
from unittest.mock import ANY

import pytest
from django.utils import timezone

from eas_primitives.merkle import proves
from tests.conftest import assert_problem
from tests.verification.conftest import (
    EXECUTOR,
    attest_by_the_executor,
    bind_in_merkle_batch,
    get_attestation_call,
    indexed_chain,
    not_verified,
    query_plan,
)
from verification.services import verify_document, verify_documents
from verification.sql import MISS_SQL, RANKED_SQL

pytestmark = pytest.mark.django_db


def a_hash(n: int) -> str:
    return f"0x{n:064x}"


def verify(api, document_hash, **body):
    response = api.post("/v1/verify", {"documentHash": document_hash, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.fixture
def chain():
    return indexed_chain(chain_id=31337, short_name="anvil", confirmations=12)


def test_a_leaf_verifies_through_its_root_with_the_proof(api, chain):
    documents = [a_hash(n) for n in range(1, 8)]
    root, tree = bind_in_merkle_batch(chain, documents)
    for document in documents:
        answer = verify(api, document)
        assert answer["verified"] is True
        assert answer["attestationId"] == root.uid
        assert answer["merkleRoot"] == tree.root
        assert answer["proof"] == tree.proof(document)
        assert proves(document, answer["proof"], answer["merkleRoot"])
        assert answer["attester"] == EXECUTOR and answer["txHash"] == root.tx_hash
        assert answer["getAttestationCall"] == get_attestation_call(answer["easAddress"],
                                                                    root.uid)
    assert verify(api, a_hash(99)) == not_verified("not_found")


def test_the_roots_attestation_rules_are_the_leaves(api, chain):
    documents = [a_hash(n) for n in range(10, 14)]
    root, _ = bind_in_merkle_batch(chain, documents)
    root.revocation_time = timezone.now()
    root.save()
    assert {verify(api, d)["reason"] for d in documents} == {"revoked"}
    young, _ = bind_in_merkle_batch(chain, [a_hash(20)], block_number=995)
    assert verify(api, a_hash(20)) == not_verified("not_final", finality=ANY)
    expired, _ = bind_in_merkle_batch(chain, [a_hash(21)],
                                      expiration_time=timezone.now() - timedelta(hours=1))
    assert verify(api, a_hash(21)) == not_verified("expired", finality=ANY)
    stranger, _ = bind_in_merkle_batch(chain, [a_hash(22)], attester="0x" + "5e" * 20)
    assert verify(api, a_hash(22)) == not_verified("untrusted_attester", finality=ANY)
    assert verify(api, a_hash(22))["finality"] == {"rule": "confirmations",
                                                   "finalizedBlock": 989}


def test_a_direct_attestation_answers_before_a_batch(api, chain):
    direct = attest_by_the_executor(chain, document_hash=a_hash(30))
    bind_in_merkle_batch(chain, [a_hash(30), a_hash(31)])
    answer = verify(api, a_hash(30))
    assert answer["attestationId"] == direct.uid
    assert answer["merkleRoot"] is None and answer["proof"] is None


def test_a_valid_batch_answers_when_the_direct_one_does_not(api, chain):
    attest_by_the_executor(chain, document_hash=a_hash(40), revocation_time=timezone.now())
    root, _ = bind_in_merkle_batch(chain, [a_hash(40), a_hash(41)])
    assert verify(api, a_hash(40))["attestationId"] == root.uid


def test_batch_verify_answers_each_leaf_as_verify_does(api, chain):
    documents = [a_hash(n) for n in range(50, 60)]
    bind_in_merkle_batch(chain, documents[:5])
    revoked, _ = bind_in_merkle_batch(chain, documents[5:8])
    revoked.revocation_time = timezone.now()
    revoked.save()
    asked = [*documents, a_hash(1)]
    response = api.post("/v1/verify/batch", {"documentHashes": asked}, format="json")
    assert response.status_code == 200, response.content
    results = response.json()["results"]
    for document, result in zip(asked, results, strict=True):
        assert result == {**verify(api, document), "documentHash": document}
    assert [r["verified"] for r in results] == [True] * 5 + [False] * 6
    assert [a.proof for a in verify_documents(documents[:5])] == [
        verify_document(d).proof for d in documents[:5]]


def test_a_holders_proof(api, chain):
    documents = [a_hash(n) for n in range(60, 70)]
    root, tree = bind_in_merkle_batch(chain, documents)
    proof = tree.proof(documents[3])
    answer = verify(api, documents[3], proof=proof, merkleRoot=tree.root)
    assert answer["verified"] is True and answer["merkleRoot"] == tree.root
    assert answer["proof"] == proof and answer["attestationId"] == root.uid
    assert verify(api, documents[3], proof=proof)["verified"] is True
    # A proof for a document not in the batch, another member's proof, a root it does not
    # lead to, a proof cut short: refused.
    assert verify(api, a_hash(1), proof=proof) == not_verified("invalid_proof")
    assert verify(api, documents[4], proof=proof) == not_verified("invalid_proof")
    other, other_tree = bind_in_merkle_batch(chain, [a_hash(80), a_hash(81)])
    assert verify(api, documents[3], proof=proof, merkleRoot=other_tree.root) == \
        not_verified("invalid_proof")
    assert verify(api, documents[3], proof=proof[:-1]) == not_verified("invalid_proof")
    # A good proof to a revoked root says so.
    root.revocation_time = timezone.now()
    root.save()
    assert verify(api, documents[3], proof=proof) == not_verified("revoked", finality=ANY)


def test_malformed_proof_requests_are_400s(api, chain):
    bad = [
        ({"merkleRoot": a_hash(1)}, "merkleRoot"),
        ({"proof": [a_hash(1)], "live": True}, "live"),
        ({"proof": ["0x12"]}, "proof.0"),
        ({"proof": [a_hash(1)] * 65}, "proof"),
        ({"proof": a_hash(1)}, "proof"),
    ]
    for body, attr in bad:
        response = api.post("/v1/verify", {"documentHash": a_hash(1), **body}, format="json")
        assert_problem(response, 400)
        assert attr in {error["attr"] for error in response.json()["errors"]}, body


def test_the_merkle_lookup_reads_the_leaf_index(chain):
    from django.db import connection

    documents = [a_hash(n) for n in range(90, 94)]
    bind_in_merkle_batch(chain, documents)
    now = timezone.now()
    params = {"chain_id": None, "document_hash": documents[0],
              "now": connection.ops.adapt_datetimefield_value(now)}
    for sql in (RANKED_SQL, MISS_SQL):  # live's and the page's, and a miss's
        plan = query_plan(sql, params, by_conditions=True)
        assert "merkleleaf_document_idx" in plan, plan

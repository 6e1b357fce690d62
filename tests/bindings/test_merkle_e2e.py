"""Binding mode `merkle` end to end on a real anvil with the real EAS contracts: the reference
executor attests one Merkle root per claimed batch; the service checks the reported root,
keeps each document's proof, and verifies each document through the root's attestation.
The proofs are checked with OpenZeppelin's own library and, against the chain, by the
web3.py script of docs/verify-yourself.md."""

import json
import subprocess
import sys

import pytest

from attestations import eas as eas_contracts
from attestations.models import Attestation, MerkleBatch, MerkleLeaf
from bindings.models import Workflow
from bindings.tracking import workflows_track
from eas_primitives.merkle import ROOT_SCHEMA, MerkleTree
from tests.bindings.test_binding_e2e import index, settle
from tests.bindings.test_binding_modes_e2e import batch_executor, set_mode
from tests.conftest import make_key
from tests.eas_primitives.test_merkle import openzeppelin
from tests.verification.test_verify_yourself import script  # noqa: F401

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

DOCUMENTS = ["0x" + f"{0xE000 + n:064x}" for n in range(7)]


@pytest.fixture
def merkle_chain(eas_chain):
    """The anvil chain in binding mode `merkle`, its document and root schemas indexed."""
    eas_chain.node.register_schema()
    eas_chain.node.register_schema(ROOT_SCHEMA)
    index(eas_chain)
    set_mode("merkle")
    return eas_chain


def bind_all(api, documents=DOCUMENTS) -> list[str]:
    response = api.post("/workflows/batch", {"workflows": [
        {"documentHash": d, "chainId": 31337} for d in documents]}, format="json")
    assert response.status_code == 201, response.content
    return [w["workflowId"] for w in response.json()["workflows"]]


def verify_all(api, documents=DOCUMENTS) -> list[dict]:
    response = api.post("/v1/verify/batch", {"documentHashes": documents}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_a_batch_is_bound_by_its_root_and_each_document_verifies_with_its_proof(
        merkle_chain, live_server, api, script):  # noqa: F811
    bind_all(api)
    lines: list[str] = []
    sent = batch_executor(live_server, merkle_chain, 4, lines).run(once=True)

    # Two claims (4, then 3): two roots, one transaction each, one Attested log each.
    roots = {s.tx_hash: s.merkle_root for s in sent}
    assert len(roots) == 2 and len(set(roots.values())) == 2
    assert [len(MerkleTree.of([d for d, s in zip(DOCUMENTS, sent, strict=True)
                               if s.merkle_root == root]).positions)
            for root in roots.values()] == [4, 3]
    # Indexed, the roots bind their documents at once: verified before the tracking runs.
    merkle_chain.node.anvil.rpc("anvil_mine", [2])
    index(merkle_chain)
    assert [a["verified"] for a in verify_all(api)] == [True] * 7
    assert set(Workflow.objects.values_list("state", flat=True)) == {"submitted"}
    assert workflows_track().confirmed == 7
    for batch in MerkleBatch.objects.all():
        root = Attestation.objects.get(uid=batch.attestation_uid)
        assert root.decoded == {"merkleRoot": batch.root} and root.document_hash is None
        assert set(Workflow.objects.filter(merkle_batch=batch).values_list(
            "state", "attestation_uid")) == {("confirmed", root.uid)}

    answers = verify_all(api)
    assert [a["verified"] for a in answers] == [True] * 7
    # The proofs are OpenZeppelin's: its StandardMerkleTree accepts each one.
    checks = [{"root": a["merkleRoot"], "documentHash": a["documentHash"], "proof": a["proof"]}
              for a in answers]
    assert openzeppelin([], checks)["checks"] == [True] * 7
    # And plain web3.py confirms each answer against the chain, proof included.
    single = api.post("/v1/verify", {"documentHash": DOCUMENTS[5]}, format="json").json()
    assert single == {k: v for k, v in answers[5].items() if k != "documentHash"}
    checked = subprocess.run([sys.executable, str(script), merkle_chain.node.anvil.url,
                              DOCUMENTS[5]], input=json.dumps(single), capture_output=True,
                             text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "the proof leads to the Merkle root" in checked.stdout


def test_a_revoked_root_unverifies_every_document_of_its_batch(merkle_chain, live_server, api):
    bind_all(api)
    batch_executor(live_server, merkle_chain, 4, []).run(once=True)
    assert settle(merkle_chain).confirmed == 7
    first = MerkleBatch.objects.order_by("id").first()
    node = merkle_chain.node
    # The executor (anvil's account 1) attested it; it alone can revoke it.
    root = Attestation.objects.get(uid=first.attestation_uid)
    node.anvil.rpc("anvil_impersonateAccount", [root.attester])
    eas_contracts.revoke(node.w3, node.deployment.eas, schema_uid=root.schema_uid, uid=root.uid,
                         sender=root.attester)
    settle(merkle_chain)
    leaves = set(MerkleLeaf.objects.filter(batch=first).values_list("document_hash", flat=True))
    answers = {a["documentHash"]: a for a in verify_all(api)}
    assert {answers[d]["reason"] for d in leaves} == {"revoked"}
    assert all(answers[d]["verified"] for d in set(DOCUMENTS) - leaves)


def test_a_wrong_root_is_refused_and_nothing_is_written(merkle_chain, live_server, api):
    bind_all(api, DOCUMENTS[:3])
    ref = batch_executor(live_server, merkle_chain, 3, [])
    ref.register()
    jobs = ref.service.claim("anvil", ref.executor_id, limit=3)["jobs"]
    assert {job["bindingMode"] for job in jobs} == {"merkle"}
    assert {job["rootSchemaId"] for job in jobs} == {
        MerkleBatch._meta.apps.get_model("attestations", "Schema").objects.get(
            schema=ROOT_SCHEMA).uid}
    wrong = MerkleTree.of([*DOCUMENTS[:2], DOCUMENTS[6]]).root  # another document's tree
    results = [{"workflowId": job["workflowId"], "txHash": "0x" + "ab" * 32,
                "merkleRoot": wrong} for job in jobs]
    response = ref.service.session.post(
        f"{live_server.url}/v1/chain-registry/anvil/jobs/results",
        json={"executorId": ref.executor_id, "results": results})
    assert response.status_code == 409, response.text
    assert response.json()["code"] == "merkle_root_mismatch"
    assert "results.0" in json.dumps(response.json())
    assert not MerkleBatch.objects.exists()
    assert set(Workflow.objects.values_list("state", flat=True)) == {"dispatched"}


def test_a_reorganised_batch_goes_back_to_the_queue_and_is_bound_again(
        merkle_chain, live_server, api, settings):
    settings.WORKFLOW_TX_MISSING_GRACE_SECONDS = 0
    node = merkle_chain.node
    ids = bind_all(api)
    fork = node.anvil.rpc("evm_snapshot")
    key = make_key("executor")
    batch_executor(live_server, merkle_chain, 10, [], api_key=key).run(once=True)
    assert settle(merkle_chain).confirmed == 7
    assert all(a["verified"] for a in verify_all(api))

    node.anvil.rpc("evm_revert", [fork])  # the chain forgets the root's block
    node.anvil.rpc("anvil_mine", [4])
    index(merkle_chain)
    assert not any(a["verified"] for a in verify_all(api))
    assert workflows_track().reorganised == 7
    assert set(Workflow.objects.values_list("state", flat=True)) == {"queued"}
    assert not MerkleBatch.objects.exists()  # its leaves would verify nothing

    batch_executor(live_server, merkle_chain, 10, [], api_key=key).run(once=True)
    assert settle(merkle_chain).confirmed == 7
    assert set(Workflow.objects.filter(pk__in=ids).values_list("state", flat=True)) == {
        "confirmed"}
    assert MerkleBatch.objects.count() == 1
    assert all(a["verified"] for a in verify_all(api))


def test_documents_a_leaf_cannot_carry_are_bound_in_multi(merkle_chain, live_server, api):
    """On a merkle chain, a workflow of a schema with other fields keeps its values: its job
    is `multi`, beside the batch's Merkle root."""
    node = merkle_chain.node
    node.register_schema("bytes32 documentHash, string title")
    index(merkle_chain)
    schema = MerkleBatch._meta.apps.get_model("attestations", "Schema").objects.get(
        schema="bytes32 documentHash, string title")
    response = api.post("/workflows", {"documentHash": DOCUMENTS[0], "chainId": 31337,
                                       "schemaId": schema.uid, "data": {"title": "T"}},
                        format="json")
    assert response.status_code == 201, response.content
    plain = bind_all(api, DOCUMENTS[1:3])
    sent = batch_executor(live_server, merkle_chain, 10, []).run(once=True)
    in_tree = {s.workflow_id: bool(s.merkle_root) for s in sent}
    assert in_tree == {response.json()["workflowId"]: False, **dict.fromkeys(plain, True)}
    assert settle(merkle_chain).confirmed == 3
    assert [a["verified"] for a in verify_all(api, DOCUMENTS[:3])] == [True] * 3
    assert verify_all(api, DOCUMENTS[:1])[0]["merkleRoot"] is None


def test_a_root_indexed_before_its_report_binds_at_the_report(merkle_chain, live_server, api):
    """A fast chain can mine and index the root before the executor's report arrives: the
    report finds the root's attestation, and the documents verify at once."""
    bind_all(api, DOCUMENTS[:3])
    ref = batch_executor(live_server, merkle_chain, 3, [])
    ref.register()
    jobs = ref.service.claim("anvil", ref.executor_id, limit=3)["jobs"]
    tree = MerkleTree.of(job["documentHash"] for job in jobs)
    node = merkle_chain.node
    node.anvil.rpc("anvil_impersonateAccount", [ref.address])
    uid, receipt = eas_contracts.attest(node.w3, node.deployment.eas,
                                        schema_uid=jobs[0]["rootSchemaId"],
                                        data=bytes.fromhex(tree.root[2:]), sender=ref.address)
    node.anvil.rpc("anvil_mine", [2])
    index(merkle_chain)
    assert not any(a["verified"] for a in verify_all(api, DOCUMENTS[:3]))  # not reported yet
    tx_hash = "0x" + bytes(receipt["transactionHash"]).hex()
    ref.service.report_many("anvil", ref.executor_id, [
        {"workflowId": job["workflowId"], "txHash": tx_hash, "merkleRoot": tree.root}
        for job in jobs])
    assert MerkleBatch.objects.get().attestation_uid == uid
    assert [a["verified"] for a in verify_all(api, DOCUMENTS[:3])] == [True] * 3
    assert workflows_track().confirmed == 3

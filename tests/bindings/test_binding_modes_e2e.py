"""Binding in batches end to end on a real anvil with the real EAS contracts: the reference
executor claims with `limit` and reports all results in one call; `single` jobs are attested
a transaction each, `multi` jobs of a claimed batch in one multiAttest; tracking confirms
each workflow from the indexer's attestations and POST /v1/verify verifies each document."""

import pytest
from web3 import HTTPProvider, Web3

from attestations.models import Attestation
from bindings.models import Workflow
from executor_client import ReferenceExecutor, ServiceClient
from registry.models import Chain
from tests.bindings.test_binding_e2e import KEY_A, bound_chain, index, settle  # noqa: F401
from tests.conftest import make_key

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

DOCUMENTS = ["0x" + f"{0xB000 + n:064x}" for n in range(6)]


def batch_executor(live_server, eas_chain, batch: int, lines: list[str],
                   api_key: str | None = None) -> ReferenceExecutor:
    service = ServiceClient(live_server.url, api_key or make_key("executor"))
    w3 = Web3(HTTPProvider(eas_chain.node.anvil.url))
    return ReferenceExecutor(service, "anvil", KEY_A, lambda chain_id: w3, batch=batch,
                             receipt_timeout=10, poll_seconds=0.1, out=lines.append)


def bind_all(api) -> list[str]:
    response = api.post("/workflows/batch", {"workflows": [
        {"documentHash": d, "chainId": 31337} for d in DOCUMENTS]}, format="json")
    assert response.status_code == 201, response.content
    return [w["workflowId"] for w in response.json()["workflows"]]


def set_mode(mode: str) -> None:
    Chain.objects.filter(pk=31337).update(binding_mode=mode)


def verified_all(api) -> list[bool]:
    answer = api.post("/v1/verify/batch", {"documentHashes": DOCUMENTS}, format="json")
    assert answer.status_code == 200, answer.content
    return [result["verified"] for result in answer.json()["results"]]


def test_single_mode_in_batches_binds_each_document_in_its_own_transaction(
        bound_chain, live_server, api):  # noqa: F811
    ids = bind_all(api)
    lines: list[str] = []

    sent = batch_executor(live_server, bound_chain, 4, lines).run(once=True)

    assert [s.workflow_id for s in sent] == ids  # two claims: 4, then 2
    assert len({s.tx_hash for s in sent}) == 6
    assert settle(bound_chain).confirmed == 6
    assert set(Workflow.objects.values_list("state", flat=True)) == {"confirmed"}
    assert verified_all(api) == [True] * 6
    uids = set(Attestation.objects.values_list("uid", flat=True))
    assert sum(line.endswith(tuple(uids)) for line in lines) == 6  # each uid logged


def test_multi_mode_binds_a_claimed_batch_in_one_multiattest(bound_chain, live_server, api):  # noqa: F811
    set_mode("multi")
    ids = bind_all(api)
    lines: list[str] = []

    sent = batch_executor(live_server, bound_chain, 3, lines).run(once=True)

    by_tx: dict[str, list[str]] = {}
    for s in sent:
        by_tx.setdefault(s.tx_hash, []).append(s.workflow_id)
    assert list(by_tx.values()) == [ids[:3], ids[3:]]  # one transaction per claimed batch
    report = settle(bound_chain)
    assert report.confirmed == 6, report.as_dict()
    for workflow in Workflow.objects.all():
        attestation = Attestation.objects.get(uid=workflow.attestation_uid)
        assert workflow.state == "confirmed"
        assert (attestation.document_hash, attestation.tx_hash) == (workflow.document_hash,
                                                                    workflow.tx_hash)
        assert f"workflow {workflow.pk}: mined in block {attestation.block_number} as " \
               f"{attestation.uid}" in lines
    assert verified_all(api) == [True] * 6


def test_a_reorganised_multi_batch_goes_back_to_the_queue_and_is_bound_again(
        bound_chain, live_server, api, settings):  # noqa: F811
    settings.WORKFLOW_TX_MISSING_GRACE_SECONDS = 0
    set_mode("multi")
    node = bound_chain.node
    ids = bind_all(api)
    fork = node.anvil.rpc("evm_snapshot")
    key = make_key("executor")
    first = batch_executor(live_server, bound_chain, 10, [], api_key=key).run(once=True)
    assert len({s.tx_hash for s in first}) == 1
    assert settle(bound_chain).confirmed == 6

    node.anvil.rpc("evm_revert", [fork])  # the chain forgets the multiAttest's block
    node.anvil.rpc("anvil_mine", [4])
    index(bound_chain)
    assert not Attestation.objects.exists()
    from bindings.tracking import workflows_track

    assert workflows_track().reorganised == 6
    assert set(Workflow.objects.values_list("state", flat=True)) == {"queued"}

    batch_executor(live_server, bound_chain, 10, [], api_key=key).run(once=True)
    assert settle(bound_chain).confirmed == 6
    for workflow_id in ids:
        workflow = Workflow.objects.get(pk=workflow_id)
        assert workflow.state == "confirmed"
        assert [t.to_state for t in workflow.transitions.all()][-5:] == [
            "confirmed", "queued", "dispatched", "submitted", "confirmed"]
    assert Attestation.objects.count() == 6
    assert verified_all(api) == [True] * 6

"""Binding documents end to end on a real anvil with the real EAS contracts: the service
over HTTP (live server), the reference executor signing with its own key, the indexer and
the tracking task."""

import io
import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from web3 import HTTPProvider, Web3

from attestations.indexer import index_chain
from attestations.models import Attestation
from bindings.models import Workflow
from bindings.tracking import workflows_track
from eas_primitives.abi import ZERO_ADDRESS, eas_abi
from executor_client import ReferenceExecutor, ServiceClient
from executors.models import Executor
from executors.sweep import executor_leases_expire
from tests.bindings.conftest import bind
from tests.conftest import make_key

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

# anvil's well-known development accounts 1 and 2 (account 0 deploys the contracts)
KEY_A = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
KEY_B = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
DOCUMENT = "0x" + "d0c5" * 16


@pytest.fixture
def bound_chain(eas_chain):
    """The anvil chain with its document schema registered and indexed."""
    node = eas_chain.node
    node.register_schema()
    index(eas_chain)
    return eas_chain


def index(eas_chain):
    report = index_chain(eas_chain.chain)
    assert report.ok, report.as_dict()


def executor(live_server, eas_chain, private_key: str, name: str = "ref",
             api_key: str | None = None) -> ReferenceExecutor:
    service = ServiceClient(live_server.url, api_key or make_key("executor"))
    w3 = Web3(HTTPProvider(eas_chain.node.anvil.url))
    return ReferenceExecutor(service, "anvil", private_key, lambda chain_id: w3, name=name,
                             receipt_timeout=10, poll_seconds=0.1)


def settle(eas_chain, blocks: int = 2):
    """Mine the chain's confirmations, index, track."""
    eas_chain.node.anvil.rpc("anvil_mine", [blocks])
    index(eas_chain)
    return workflows_track()


def verified(api) -> dict:
    response = api.post("/v1/verify", {"documentHash": DOCUMENT}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_bound_document_is_confirmed_with_its_attestation_and_verifies(bound_chain,
                                                                         live_server, api):
    assert verified(api)["verified"] is False
    created = bind(api, document=DOCUMENT).json()
    ref = executor(live_server, bound_chain, KEY_A)

    sent = ref.run(once=True)

    assert len(sent) == 1 and sent[0].tx_hash
    workflow = Workflow.objects.get(pk=created["workflowId"])
    assert workflow.state == "submitted" and workflow.tx_hashes == [sent[0].tx_hash]
    index(bound_chain)
    assert workflows_track().confirmed == 0  # one confirmation of the two the chain needs
    assert settle(bound_chain).confirmed == 1

    body = api.get(f"/workflows/{created['workflowId']}").json()
    attestation = Attestation.objects.get(document_hash=DOCUMENT)
    assert body["state"] == "confirmed"
    assert body["attestationUid"] == attestation.uid
    assert attestation.attester == ref.address == Executor.objects.get().address
    assert [t["toState"] for t in body["transitions"]] == [
        "received", "queued", "dispatched", "submitted", "confirmed"]
    answer = verified(api)
    assert answer["verified"] is True and answer["attestationId"] == attestation.uid
    assert answer["chainId"] == 31337


def test_an_idempotent_repeat_binds_once(bound_chain, live_server, api):
    def post(document):
        return api.post("/workflows", {"documentHash": document, "chainId": 31337},
                        format="json", HTTP_IDEMPOTENCY_KEY="doc-1")

    first, again = post(DOCUMENT), post(DOCUMENT)
    assert (first.status_code, again.status_code) == (201, 200)
    assert post("0x" + "01" * 32).status_code == 409
    executor(live_server, bound_chain, KEY_A).run(once=True)
    settle(bound_chain)
    assert Attestation.objects.filter(document_hash=DOCUMENT).count() == 1
    assert Workflow.objects.get().state == "confirmed"


def test_a_reverted_transaction_is_retried_then_fails(bound_chain, live_server, api, settings):
    """The executor's transaction reverts on chain (sent with a fixed gas limit, so that the
    estimate does not catch it): retried with back-off, failed after the attempts."""
    settings.WORKFLOW_MAX_ATTEMPTS = 2
    node = bound_chain.node
    created = bind(api, document=DOCUMENT).json()
    ref = executor(live_server, bound_chain, KEY_A)
    ref.register()
    eas = node.w3.eth.contract(address=Web3.to_checksum_address(node.deployment.eas),
                               abi=eas_abi())
    for attempt in (1, 2):
        Workflow.objects.filter(pk=created["workflowId"]).update(available_at=timezone.now())
        job = ref.service.claim("anvil", ref.executor_id)
        assert job["attempt"] == attempt
        unknown_schema = (b"\x99" * 32, (Web3.to_checksum_address(ZERO_ADDRESS), 0,
                                         True, b"\0" * 32, b"\0" * 32, 0))
        tx = eas.functions.attest(unknown_schema).transact(
            {"from": Web3.to_checksum_address(node.sender), "gas": 300_000})
        # Mined by the next block, not at once on a busy machine: wait for it.
        assert node.w3.eth.wait_for_transaction_receipt(tx, timeout=30)["status"] == 0
        ref.service.report("anvil", job["workflowId"], ref.executor_id, txHash="0x" + tx.hex())
        report = settle(bound_chain)
        assert report.reverted == 1

    workflow = Workflow.objects.get(pk=created["workflowId"])
    assert workflow.state == "failed" and len(workflow.tx_hashes) == 2
    assert [t.to_state for t in workflow.transitions.all()][2:] == [
        "dispatched", "submitted", "queued", "dispatched", "submitted", "failed"]


def test_a_workflow_nobody_claims_expires(bound_chain, live_server, api):
    created = bind(api, document=DOCUMENT).json()
    deadline = Workflow.objects.get(pk=created["workflowId"]).deadline
    assert workflows_track(now=deadline + timedelta(seconds=1)).expired == 1
    assert executor(live_server, bound_chain, KEY_A).run(once=True) == []
    assert api.get(f"/workflows/{created['workflowId']}").json()["state"] == "expired"


def test_a_reorganised_binding_is_queued_bound_again_and_confirmed_once(
        bound_chain, live_server, api, settings):
    settings.WORKFLOW_TX_MISSING_GRACE_SECONDS = 0
    node = bound_chain.node
    created = bind(api, document=DOCUMENT).json()
    fork = node.anvil.rpc("evm_snapshot")
    key = make_key("executor")
    executor(live_server, bound_chain, KEY_A, api_key=key).run(once=True)
    settle(bound_chain)
    first = Workflow.objects.get(pk=created["workflowId"])
    assert first.state == "confirmed"

    node.anvil.rpc("evm_revert", [fork])  # the chain forgets the attestation's block
    node.anvil.rpc("anvil_mine", [4])
    index(bound_chain)
    assert not Attestation.objects.filter(document_hash=DOCUMENT).exists()
    assert workflows_track().reorganised == 1
    assert Workflow.objects.get(pk=first.pk).state == "queued"

    executor(live_server, bound_chain, KEY_A, api_key=key).run(once=True)
    settle(bound_chain)
    again = Workflow.objects.get(pk=first.pk)
    assert again.state == "confirmed"
    # Sent again after the revert with the same nonce, data and (often) the same fees, the
    # transaction can be byte for byte the first one, hash included: each hash once.
    assert again.tx_hashes[0] == first.tx_hash and len(again.tx_hashes) in (1, 2)
    assert len(set(again.tx_hashes)) == len(again.tx_hashes)
    (attestation,) = Attestation.objects.filter(document_hash=DOCUMENT)
    assert again.attestation_uid == attestation.uid
    assert [t.to_state for t in again.transitions.all()][-5:] == [
        "confirmed", "queued", "dispatched", "submitted", "confirmed"]


def test_a_job_of_a_killed_executor_is_completed_by_another(bound_chain, live_server, api):
    created = bind(api, document=DOCUMENT).json()
    killed = executor(live_server, bound_chain, KEY_A, name="killed")
    killed.register()
    assert killed.service.claim("anvil", killed.executor_id)["workflowId"] == created["workflowId"]
    # It dies holding the job: no result, no heartbeat. Its lease and grace run out.
    later = timezone.now() + timedelta(
        seconds=settings.EXECUTOR_LEASE_SECONDS + settings.EXECUTOR_GRACE_SECONDS + 1)
    assert executor_leases_expire(now=later).offline == 1
    assert workflows_track().requeued == 1

    survivor = executor(live_server, bound_chain, KEY_B, name="survivor")
    assert len(survivor.run(once=True)) == 1
    settle(bound_chain)
    workflow = Workflow.objects.get(pk=created["workflowId"])
    assert workflow.state == "confirmed"
    assert Attestation.objects.get(document_hash=DOCUMENT).attester == survivor.address
    assert "went offline" in workflow.transitions.get(from_state="dispatched", to_state="queued").cause


def test_two_executors_claiming_at_once_never_get_the_same_job(bound_chain, live_server, api):
    for n in range(20):
        bind(api, document="0x" + f"{n + 1:064x}")
    executors = [executor(live_server, bound_chain, key) for key in (KEY_A, KEY_B)]
    for ref in executors:
        ref.register()
    claimed: list[list[str]] = [[], []]
    barrier = threading.Barrier(2)

    def drain(index_):
        barrier.wait()
        ref = executors[index_]
        while (job := ref.service.claim("anvil", ref.executor_id)) is not None:
            claimed[index_].append(job["workflowId"])

    threads = [threading.Thread(target=drain, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    everything = claimed[0] + claimed[1]
    assert len(everything) == 20 and len(set(everything)) == 20
    assert not set(claimed[0]) & set(claimed[1])


def test_run_executor_once_binds_what_is_queued_and_exits(bound_chain, live_server, api,
                                                          monkeypatch, settings, tmp_path):
    from django.core.management import call_command

    bind(api, document=DOCUMENT)
    monkeypatch.setenv("SERVICE_URL", live_server.url)
    monkeypatch.setenv("EXECUTOR_API_KEY", make_key("executor"))
    monkeypatch.setenv("EXECUTOR_RPC_URL", bound_chain.node.anvil.url)
    (tmp_path / "key").write_text(KEY_A + "\n")
    settings.EXECUTOR_KEY_FILE = str(tmp_path / "key")
    out = io.StringIO()

    call_command("run_executor", "--chain", "anvil", "--once", stdout=out)

    assert "mined in block" in out.getvalue() and "done: 1 job(s)" in out.getvalue()
    assert Workflow.objects.get().state == "submitted"
    # Its last heartbeat said it was leaving.
    assert Executor.objects.get().status == "draining"


def test_run_executor_names_what_is_missing(monkeypatch, settings, db):
    from django.core.management import CommandError, call_command

    monkeypatch.delenv("SERVICE_URL", raising=False)
    monkeypatch.delenv("EXECUTOR_PRIVATE_KEY", raising=False)
    monkeypatch.setenv("EXECUTOR_API_KEY", "k")
    with pytest.raises(CommandError, match="Set SERVICE_URL."):
        call_command("run_executor", "--chain", "anvil")
    monkeypatch.setenv("SERVICE_URL", "http://127.0.0.1:9")
    settings.EXECUTOR_SIGNER_URL = settings.EXECUTOR_KEY_FILE = ""
    with pytest.raises(CommandError, match="Set EXECUTOR_SIGNER_URL .* or EXECUTOR_KEY_FILE"):
        call_command("run_executor", "--chain", "anvil")


def test_run_executor_refuses_a_key_in_the_environment(monkeypatch, db):
    from django.core.management import CommandError, call_command

    monkeypatch.setenv("EXECUTOR_PRIVATE_KEY", KEY_A)
    with pytest.raises(CommandError, match="no longer read from EXECUTOR_PRIVATE_KEY"):
        call_command("run_executor", "--chain", "anvil")


def test_sigterm_lets_the_job_in_hand_finish(bound_chain, live_server, api):
    """A stop request during a job: the job is sent and reported before the executor leaves."""
    bind(api, document=DOCUMENT)
    bind(api, document="0x" + "01" * 32)
    ref = executor(live_server, bound_chain, KEY_A)
    ref.register()
    attest = ref.eas.attest

    def stop_mid_job(job):
        ref.stop()  # what the SIGTERM handler does, here while this job is in hand
        return attest(job)

    ref.eas.attest = stop_mid_job
    sent = ref.run()

    assert len(sent) == 1 and sent[0].tx_hash
    states = sorted(Workflow.objects.values_list("state", flat=True))
    assert states == ["queued", "submitted"]


def test_tracking_resumes_after_the_rpc_endpoint_was_unreachable(bound_chain, live_server, api):
    """The chain's only endpoint stops answering (the node's death as the service sees it:
    connection refused) while a workflow is submitted: tracking records the error and keeps
    the workflow as it was; once the endpoint answers again it confirms it, once."""
    from registry.models import RpcEndpoint
    from tests.anvil import closed_url

    created = bind(api, document=DOCUMENT).json()
    (sent,) = executor(live_server, bound_chain, KEY_A).run(once=True)
    endpoint = RpcEndpoint.objects.get(chain=bound_chain.chain)
    live_url = endpoint.url
    RpcEndpoint.objects.filter(pk=endpoint.pk).update(url=closed_url())

    report = workflows_track()

    assert bound_chain.chain.chain_id in report.errors and report.confirmed == 0
    workflow = Workflow.objects.get(pk=created["workflowId"])
    assert workflow.state == "submitted" and workflow.tx_hashes == [sent.tx_hash]

    RpcEndpoint.objects.filter(pk=endpoint.pk).update(url=live_url)
    assert settle(bound_chain).confirmed == 1
    assert settle(bound_chain).confirmed == 0  # confirmed once, not again
    workflow.refresh_from_db()
    assert workflow.state == "confirmed"
    assert Attestation.objects.filter(document_hash=DOCUMENT).count() == 1
    assert verified(api)["verified"] is True

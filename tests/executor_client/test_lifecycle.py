"""The reference executor's transactions on a node that does not mine them at once (issue 38,
item 1): anvil with automine off, its blocks mined by the test, fee spikes set with
anvil_setNextBlockBaseFeePerGas (anvil drops a transaction whose fees no longer pay the
base fee), transactions dropped with anvil_dropTransaction, the executor's process killed
with transactions in flight and started again. Each document ends bound once."""

import os
import signal
import subprocess
import sys
import time

import pytest

from attestations.models import Attestation
from bindings.models import Workflow
from executors.models import Executor, ExecutorStatusChange
from registry.models import Chain
from tests.anvil import ROOT
from tests.conftest import make_key
from tests.executor_client.conftest import (
    GWEI,
    KEY_A,
    bind,
    executor,
    running,
    settle,
    wait_for,
)
from tests.executor_client.test_standalone import bare_environment

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

DOCUMENTS = ["0x" + f"{0xF1E1D000 + n:064x}" for n in range(4)]


def workflow(workflow_id: str) -> Workflow:
    return Workflow.objects.get(pk=workflow_id)


def hashes(workflow_id: str, count: int) -> list[str] | None:
    """The workflow's candidate transactions once there are `count` of them."""
    known = workflow(workflow_id).tx_hashes
    return known if len(known) >= count else None


def tx(anvil, tx_hash: str) -> dict | None:
    return anvil.rpc("eth_getTransactionByHash", [tx_hash])


def mined_block(anvil, tx_hash: str) -> int | None:
    receipt = anvil.rpc("eth_getTransactionReceipt", [tx_hash])
    return int(receipt["blockNumber"], 16) if receipt else None


def confirm_all(eas_chain, ids: list[str], rounds: int = 20) -> None:
    """Settle until every workflow of `ids` is confirmed (a requeued one is bound again by
    the executor running meanwhile)."""
    for _ in range(rounds):
        settle(eas_chain)
        if all(workflow(i).state == "confirmed" for i in ids):
            return
        time.sleep(0.3)
    pytest.fail(f"not confirmed: {[(i, workflow(i).state) for i in ids]}")


def bound_once(document: str) -> Attestation:
    (attestation,) = Attestation.objects.filter(document_hash=document)
    return attestation


def spike(anvil, base_fee: int) -> None:
    """The next block's base fee set to `base_fee`, and that block mined."""
    anvil.rpc("anvil_setNextBlockBaseFeePerGas", [hex(base_fee)])
    anvil.mine(1)


def test_a_transaction_priced_out_by_a_fee_spike_is_replaced_with_higher_fees(
        bound_chain, live_server, api):
    anvil = bound_chain.node.anvil
    anvil.rpc("evm_setAutomine", [False])
    workflow_id = bind(api, DOCUMENTS[0])

    with running(executor(live_server, bound_chain)):
        (first,) = wait_for("the attestation sent", lambda: hashes(workflow_id, 1))
        before = tx(anvil, first)
        # Base fee x 20: the transaction no longer pays it, and the node drops it.
        spike(anvil, 20 * int(anvil.rpc("eth_getBlockByNumber", ["latest", False])
                              ["baseFeePerGas"], 16))
        assert tx(anvil, first) is None
        _, second = wait_for("a replacement, reported", lambda: hashes(workflow_id, 2))
        wait_for("the replacement in the mempool", lambda: tx(anvil, second))
        anvil.mine(1)
        wait_for("the replacement mined", lambda: mined_block(anvil, second))

    after = tx(anvil, second)
    assert after["nonce"] == before["nonce"]
    old_fee, new_fee = int(before["maxFeePerGas"], 16), int(after["maxFeePerGas"], 16)
    old_tip, new_tip = (int(before["maxPriorityFeePerGas"], 16),
                        int(after["maxPriorityFeePerGas"], 16))
    assert new_fee * 10 >= old_fee * 11 and new_tip * 10 >= old_tip * 11  # +10 % at least
    block = anvil.rpc("eth_getBlockByNumber", [hex(mined_block(anvil, second)), False])
    assert new_fee >= int(block["baseFeePerGas"], 16)
    confirm_all(bound_chain, [workflow_id])
    bound = workflow(workflow_id)
    assert bound.tx_hashes == [first, second] and bound.tx_hash == second
    assert bound_once(DOCUMENTS[0]).tx_hash == second


def test_a_new_transaction_refused_for_a_base_fee_risen_since_the_look_is_priced_again(
        bound_chain, live_server, api):
    """The next block's base fee rises between the executor's look at the block and its
    send (anvil: set without a block mined): the node refuses the send as underpriced; it is
    priced again from what the chain asks now and sent, not reported as an error."""
    anvil = bound_chain.node.anvil
    anvil.rpc("evm_setAutomine", [False])
    ref = executor(live_server, bound_chain)

    with running(ref):
        wait_for("a first look", lambda: ref.market is not None)
        anvil.rpc("anvil_setNextBlockBaseFeePerGas", [hex(40 * GWEI)])
        workflow_id = bind(api, DOCUMENTS[0])
        (sent,) = wait_for("the attestation sent", lambda: hashes(workflow_id, 1))
        assert int(tx(anvil, sent)["maxFeePerGas"], 16) >= 40 * GWEI
        anvil.mine(1)
        wait_for("it mined", lambda: mined_block(anvil, sent))

    assert workflow(workflow_id).last_error == "" and workflow(workflow_id).attempts == 1


def test_a_dropped_transaction_is_sent_again_as_it_was(bound_chain, live_server, api):
    anvil = bound_chain.node.anvil
    anvil.rpc("evm_setAutomine", [False])
    workflow_id = bind(api, DOCUMENTS[0])

    with running(executor(live_server, bound_chain)):
        (sent,) = wait_for("the attestation sent", lambda: hashes(workflow_id, 1))
        anvil.rpc("anvil_dropTransaction", [sent])
        assert tx(anvil, sent) is None
        anvil.mine(1)  # the executor looks at each new block
        wait_for("the same transaction back in the mempool", lambda: tx(anvil, sent))
        anvil.mine(1)
        wait_for("it mined", lambda: mined_block(anvil, sent))

    confirm_all(bound_chain, [workflow_id])
    assert workflow(workflow_id).tx_hashes == [sent]  # the same one: nothing replaced
    assert bound_once(DOCUMENTS[0]).tx_hash == sent


def test_above_the_chains_cap_the_executor_holds_and_resumes_by_itself_when_fees_fall(
        bound_chain, live_server, api, admin):
    anvil = bound_chain.node.anvil
    anvil.rpc("evm_setAutomine", [False])
    base = int(anvil.rpc("eth_getBlockByNumber", ["latest", False])["baseFeePerGas"], 16)
    Chain.objects.filter(pk=31337).update(max_fee_per_gas_cap=5 * GWEI + 3 * base)
    first_id = bind(api, DOCUMENTS[0])
    lines: list[str] = []
    ref = executor(live_server, bound_chain, lines=lines, resend_within=300)

    with running(ref):
        (first,) = wait_for("the attestation sent", lambda: hashes(first_id, 1))
        spike(anvil, 30 * GWEI)  # above the cap: the transaction is dropped, not replaced
        wait_for("blocked_by_fees at the service", lambda: Executor.objects.get(
            address=ref.address).status == "blocked_by_fees")
        listed = admin.get("/v1/admin/executors?status=blocked_by_fees").json()["results"]
        assert [e["address"] for e in listed] == [ref.address]
        second_id = bind(api, DOCUMENTS[1])
        for _ in range(3):  # it holds: nothing claimed, nothing replaced over the cap
            anvil.rpc("anvil_setNextBlockBaseFeePerGas", [hex(30 * GWEI)])
            anvil.mine(1)
            wait_for("a look at the block", lambda: ref.head == anvil.block_number())
        assert workflow(second_id).state == "queued"
        assert workflow(first_id).tx_hashes == [first] and tx(anvil, first) is None

        spike(anvil, base)  # fees fall: the dropped one goes again, the queue moves
        wait_for("the first sent again", lambda: tx(anvil, first))
        wait_for("the second sent", lambda: hashes(second_id, 1))
        anvil.mine(1)
        wait_for("both mined", lambda: mined_block(anvil, first)
                 and mined_block(anvil, workflow(second_id).tx_hashes[0]))

    confirm_all(bound_chain, [first_id, second_id])
    assert [bound_once(d).tx_hash for d in DOCUMENTS[:2]] == [
        first, workflow(second_id).tx_hash]
    changes = [(c.from_status, c.to_status) for c in ExecutorStatusChange.objects.filter(
        executor__address=ref.address).order_by("created_at", "id")]
    assert ("healthy", "blocked_by_fees") in changes and ("blocked_by_fees", "healthy") in changes
    assert any(line.startswith("status blocked_by_fees: the chain asks") for line in lines)


def test_a_transaction_dropped_too_long_is_cancelled_and_its_job_bound_again_once(
        bound_chain, live_server, api, settings):
    """Dropped and held back by the cap longer than the executor re-sends within, its jobs
    may be queued again by the service (WORKFLOW_TX_MISSING_GRACE_SECONDS): the nonce is
    filled by a zero-value self-transfer, and the job is bound by a new transaction."""
    settings.WORKFLOW_TX_MISSING_GRACE_SECONDS = 0
    anvil = bound_chain.node.anvil
    anvil.rpc("evm_setAutomine", [False])
    Chain.objects.filter(pk=31337).update(max_fee_per_gas_cap=10 * GWEI)
    workflow_id = bind(api, DOCUMENTS[0])
    lines: list[str] = []
    ref = executor(live_server, bound_chain, lines=lines, resend_within=0.5)

    with running(ref):
        (first,) = wait_for("the attestation sent", lambda: hashes(workflow_id, 1))
        nonce = int(tx(anvil, first)["nonce"], 16)
        spike(anvil, 30 * GWEI)
        wait_for("blocked_by_fees", lambda: ref.state == "blocked_by_fees")
        time.sleep(1)  # past the window within which a dropped one is sent again
        spike(anvil, GWEI)
        cancel = wait_for("the cancellation", lambda: (entry := ref.outbox.in_flight.get(nonce))
                          and not entry.jobs and entry.hashes[-1])
        anvil.mine(1)
        wait_for("the cancellation mined", lambda: mined_block(anvil, cancel))
        confirm_all(bound_chain, [workflow_id])

    cancelled = tx(anvil, cancel)
    assert int(cancelled["value"], 16) == 0 and cancelled["to"] == cancelled["from"] == ref.address
    assert mined_block(anvil, first) is None
    bound = workflow(workflow_id)
    assert first in bound.tx_hashes and bound.tx_hash != first
    assert bound_once(DOCUMENTS[0]).tx_hash == bound.tx_hash
    assert [t.to_state for t in bound.transitions.all()][-4:] == [
        "queued", "dispatched", "submitted", "confirmed"]
    assert any(f"nonce {nonce}: cancellation mined" in line for line in lines)


def test_a_batch_mined_under_its_earlier_hash_is_reported_under_that_hash(
        bound_chain, live_server, api):
    """The replacement lost the race: another node had the first version and mined it."""
    anvil = bound_chain.node.anvil
    anvil.rpc("evm_setAutomine", [False])
    workflow_id = bind(api, DOCUMENTS[0])
    ref = executor(live_server, bound_chain)

    with running(ref):
        (first,) = wait_for("the attestation sent", lambda: hashes(workflow_id, 1))
        nonce = int(tx(anvil, first)["nonce"], 16)
        first_raw = ref.outbox.in_flight[nonce].raw
        spike(anvil, 20 * GWEI)
        _, second = wait_for("a replacement", lambda: hashes(workflow_id, 2))
        wait_for("the replacement in the mempool", lambda: tx(anvil, second))
        # Elsewhere the first version is still around, and fees fall: it is mined.
        anvil.rpc("anvil_dropTransaction", [second])
        anvil.rpc("anvil_setNextBlockBaseFeePerGas", [hex(GWEI // 10)])
        anvil.rpc("eth_sendRawTransaction", [first_raw])
        anvil.mine(1)
        assert mined_block(anvil, first) and mined_block(anvil, second) is None
        wait_for("the mined hash reported", lambda: workflow(workflow_id).tx_hash == first)

    assert workflow(workflow_id).tx_hashes == [second, first]
    confirm_all(bound_chain, [workflow_id])
    assert workflow(workflow_id).tx_hash == first
    assert bound_once(DOCUMENTS[0]).tx_hash == first


def start_process(env: dict, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "executor_client", "--chain", "anvil",
                             "--poll-seconds", "0.1", "--batch", "3", *extra], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def killed_after_sending(env: dict, count: int, *extra: str) -> list[str]:
    """Start the executor's process, let it send `count` transactions, kill it (SIGKILL:
    no last word); the hashes it printed."""
    process = start_process(env, *extra)
    sent = []
    try:
        while len(sent) < count:
            line = process.stdout.readline()
            assert line, process.stderr.read()
            if ": sent 0x" in line:
                sent.append(line.rsplit(" ", 1)[1].strip())
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
    return sent


def environment(bound_chain, live_server, tmp_path) -> dict:
    (tmp_path / "key").write_text(KEY_A)
    return bare_environment(SERVICE_URL=live_server.url, EXECUTOR_API_KEY=make_key("executor"),
                            EXECUTOR_KEY_FILE=str(tmp_path / "key"),
                            EXECUTOR_RPC_URL=bound_chain.node.anvil.url)


def single_mode_documents(api, count: int) -> list[str]:
    return [bind(api, document) for document in DOCUMENTS[:count]]


def test_a_restarted_executor_takes_up_its_journal_and_sends_the_dropped_ones_again(
        bound_chain, live_server, api, tmp_path):
    anvil = bound_chain.node.anvil
    anvil.rpc("evm_setAutomine", [False])
    ids = single_mode_documents(api, 3)
    env = environment(bound_chain, live_server, tmp_path)
    journal = str(tmp_path / "journal.json")

    sent = killed_after_sending(env, 3, "--journal", journal)
    anvil.rpc("anvil_dropTransaction", [sent[1]])  # anvil drops the one behind it too
    assert tx(anvil, sent[0]) and not tx(anvil, sent[2])
    process = start_process(env, "--journal", journal)
    try:
        wait_for("the dropped ones sent again", lambda: tx(anvil, sent[1]) and tx(anvil, sent[2]))
        anvil.mine(1)
        wait_for("all three mined", lambda: all(mined_block(anvil, h) for h in sent))
        confirm_all(bound_chain, ids)
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    assert "Taking up 3 transaction(s) in flight" in err, err
    assert [workflow(i).tx_hashes for i in ids] == [[h] for h in sent]
    for document, tx_hash in zip(DOCUMENTS, sent):
        assert bound_once(document).tx_hash == tx_hash


def test_without_a_journal_a_gap_left_by_a_dead_executor_is_filled_by_a_cancellation(
        bound_chain, live_server, api, tmp_path, settings):
    """Its predecessor's first transaction was dropped, and nothing on disk says what it
    carried: the nonce is filled by a zero-value self-transfer so that the two behind it are
    mined; the first job goes back to the queue (its transaction missing) and is bound
    again."""
    settings.WORKFLOW_TX_MISSING_GRACE_SECONDS = 0
    anvil = bound_chain.node.anvil
    anvil.rpc("evm_setAutomine", [False])
    ids = single_mode_documents(api, 3)
    env = environment(bound_chain, live_server, tmp_path)

    sent = killed_after_sending(env, 3)
    nonce = int(tx(anvil, sent[0])["nonce"], 16)
    # The node lost the first and kept the two behind it (anvil drops the ones behind too:
    # they come back as a node that still had them would pass them on).
    later = [anvil.rpc("eth_getRawTransactionByHash", [h]) for h in sent[1:]]
    anvil.rpc("anvil_dropTransaction", [sent[0]])
    for raw in later:
        anvil.rpc("eth_sendRawTransaction", [raw])
    assert anvil.rpc("txpool_content")["queued"][Executor.objects.get().address]
    process = start_process(env)
    try:
        wait_for("the gap filled", lambda: anvil.rpc("txpool_content")["pending"].get(
            Executor.objects.get().address, {}).get(str(nonce)))
        anvil.mine(1)
        wait_for("the two behind it mined", lambda: all(mined_block(anvil, h) for h in sent[1:]))
        confirm_all(bound_chain, ids)
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    assert "is a gap below nonces in flight: cancelled by" in err, err
    assert mined_block(anvil, sent[0]) is None
    assert [workflow(i).tx_hash for i in ids[1:]] == sent[1:]
    assert workflow(ids[0]).tx_hash not in sent
    for document in DOCUMENTS[:3]:
        bound_once(document)


def test_a_transaction_sent_but_never_reported_is_reported_by_the_next_executor(
        bound_chain, live_server, api, tmp_path):
    """Killed between sending and reporting: the journal, written before the send, tells
    its successor, which reports it instead of leaving the job to be bound again."""
    workflow_id = bind(api, DOCUMENTS[0])
    key, journal = make_key("executor"), str(tmp_path / "journal.json")
    first = executor(live_server, bound_chain, api_key=key, journal=journal)
    first.register()
    first.beat()
    first.look()
    (job,) = first.service.claim("anvil", first.executor_id, limit=1)["jobs"]
    sent = first.outbox.send(first.eas.attest(job), [{"workflowId": job["workflowId"],
                                                       "position": 0,
                                                       "easAddress": job["easAddress"]}],
                             first.market.offer(first.policy), first.head)
    assert workflow(workflow_id).state == "dispatched"  # ... and it dies here

    second = executor(live_server, bound_chain, api_key=key, journal=journal)
    assert len(second.run(once=True)) == 0  # nothing new: only what it took up

    assert workflow(workflow_id).tx_hashes == [sent]
    confirm_all(bound_chain, [workflow_id])
    assert bound_once(DOCUMENTS[0]).tx_hash == sent

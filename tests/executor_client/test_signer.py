"""Keys outside the process (issue 38, item 3): the executor signs through a remote signer,
a second anvil whose unlocked development accounts include the executor's (anvil answers
eth_signTransaction for them, as Web3Signer does for its keys). A signer that refuses, does
not answer, answers for another address or signs for another chain id: the executor sends
nothing and holds (`signer_error`, logged) until it signs correctly again. The faults are
real servers: a proxy in front of a real signer that changes what it is asked or waits.
A node that says the base fee is 0 is not believed either."""

import json
import subprocess
import sys
import threading
import time

import pytest
import requests
from eth_account import Account
from eth_account.messages import encode_defunct

from bindings.models import Workflow
from executor_client import RemoteSigner
from executor_client.signers import SignerError
from executors.models import Executor
from tests.anvil import ROOT, QuietHandler, QuietServer
from tests.conftest import make_key
from tests.executor_client.conftest import (
    ADDRESS_A,
    ADDRESS_B,
    GWEI,
    bind,
    executor,
    running,
    settle,
    wait_for,
)
from tests.executor_client.test_standalone import bare_environment

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

DOCUMENT = "0x" + "5e" * 32


class SignerProxy:
    """A JSON-RPC server in front of a real signer (anvil) that passes requests on as they
    are (`honest`) or: with `from` changed to another of the signer's accounts
    (`other_address`), to a signer of another chain without the chain id (`other_chain`),
    for an account the signer does not hold (`refuses`), or after `hang` seconds."""

    def __init__(self, signer_url: str, other_chain_url: str):
        self.mode, self.hang = "honest", 0.0
        self.urls = {"signer": signer_url, "other_chain": other_chain_url}
        proxy = self

        class Handler(QuietHandler):
            def do_POST(self):
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                self.reply(proxy.answer(request))

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def answer(self, request: dict) -> bytes:
        mode, url = self.mode, self.urls["signer"]
        if request["method"] == "eth_sign" and mode == "other_message_address":
            request["params"][0] = ADDRESS_B  # the registration challenge, by another key
        if request["method"] == "eth_signTransaction":
            tx = request["params"][0]
            if mode == "hang":
                time.sleep(self.hang)
            elif mode == "other_address":
                tx["from"] = ADDRESS_B
            elif mode == "refuses":
                tx["from"] = "0x" + "de" * 20
            elif mode == "other_chain":
                tx.pop("chainId", None)
                url = self.urls["other_chain"]
        return requests.post(url, json=request, timeout=10).content

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def signer_node(anvil_factory):
    """A second anvil, on another port: a real JSON-RPC signer holding the executor's key
    (anvil's development account 1) among its unlocked accounts."""
    return anvil_factory(chain_id=31337)


@pytest.fixture
def proxy(signer_node, anvil_factory):
    proxy = SignerProxy(signer_node.url, anvil_factory(chain_id=1).url)
    yield proxy
    proxy.stop()


def state(workflow_id: str) -> str:
    return Workflow.objects.get(pk=workflow_id).state


def nonce(anvil) -> int:
    return int(anvil.rpc("eth_getTransactionCount", [ADDRESS_A, "pending"]), 16)


def test_python_m_executor_client_binds_through_a_remote_signer_without_a_key(
        bound_chain, live_server, api, signer_node):
    workflow_id = bind(api, DOCUMENT)
    env = bare_environment(SERVICE_URL=live_server.url, EXECUTOR_API_KEY=make_key("executor"),
                           EXECUTOR_RPC_URL=bound_chain.node.anvil.url,
                           EXECUTOR_SIGNER_URL=signer_node.url)
    command = [sys.executable, "-m", "executor_client", "--chain", "anvil", "--once",
               "--receipt-timeout", "10", "--poll-seconds", "0.1"]

    # The signer holds ten accounts: which one is the executor's must be said.
    ambiguous = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                               timeout=60)
    assert ambiguous.returncode == 2
    assert "holds 10 accounts: name the executor's with EXECUTOR_ADDRESS" in ambiguous.stderr

    run = subprocess.run(command, cwd=ROOT, env={**env, "EXECUTOR_ADDRESS": ADDRESS_A},
                         capture_output=True, text=True, timeout=120)

    assert run.returncode == 0, run.stderr
    assert "mined in block" in run.stdout and "done: 1 job(s)" in run.stdout
    assert not any("KEY" in name and "API" not in name for name in env)  # no key given
    settle(bound_chain)
    bound = Workflow.objects.get(pk=workflow_id)
    assert bound.state == "confirmed"
    assert bound.executor.address == ADDRESS_A


@pytest.mark.parametrize("mode, said", [
    ("refuses", "refused eth_signTransaction"),
    ("hang", "did not answer eth_signTransaction within 0.5 s"),
    ("other_address", f"signed as {ADDRESS_B}, not {ADDRESS_A}: nothing sent"),
    ("other_chain", "signed for chain id 1, not 31337: nothing sent"),
])
def test_a_signer_that_fails_gets_nothing_sent_and_the_executor_holds_until_it_signs_again(
        bound_chain, live_server, api, proxy, mode, said):
    anvil = bound_chain.node.anvil
    proxy.mode, proxy.hang = mode, 1.0
    before = nonce(anvil)
    workflow_id = bind(api, DOCUMENT)
    lines: list[str] = []
    ref = executor(live_server, bound_chain, RemoteSigner(proxy.url, address=ADDRESS_A,
                                                          timeout=0.5), lines=lines)

    with running(ref):
        wait_for("signer_error at the service", lambda: Executor.objects.filter(
            address=ADDRESS_A, status="signer_error").exists())
        assert any(line.startswith("status signer_error: ") and said in line for line in lines)
        time.sleep(0.5)  # a few more looks: still nothing claimed, nothing sent
        assert state(workflow_id) == "queued" and nonce(anvil) == before

        proxy.mode = "honest"  # the signer is back: the executor resumes by itself
        wait_for("the document sent", lambda: state(workflow_id) == "submitted")

    assert nonce(anvil) == before + 1
    assert "status ok" in lines
    assert Executor.objects.get(address=ADDRESS_A).status != "signer_error"


def test_a_signer_that_fails_with_a_job_in_hand_gets_the_job_back_to_the_queue(
        bound_chain, live_server, api, proxy):
    anvil = bound_chain.node.anvil
    before = nonce(anvil)
    ref = executor(live_server, bound_chain, RemoteSigner(proxy.url, address=ADDRESS_A))

    with running(ref):
        wait_for("the executor at work", lambda: ref.head is not None and ref.state == "ok")
        proxy.mode = "other_chain"  # after the probe at start: found with the job in hand
        workflow_id = bind(api, DOCUMENT)
        wait_for("the job back in the queue", lambda: Workflow.objects.get(
            pk=workflow_id).last_error)
        wait_for("signer_error", lambda: ref.state == "signer_error")

    workflow = Workflow.objects.get(pk=workflow_id)
    assert workflow.state == "queued" and workflow.tx_hashes == []
    assert workflow.last_error.startswith("signer: The signer signed for chain id 1")
    assert nonce(anvil) == before


def test_a_node_that_says_the_base_fee_is_0_is_not_believed(bound_chain, live_server, api):
    anvil = bound_chain.node.anvil
    workflow_id = bind(api, DOCUMENT)
    anvil.rpc("evm_setAutomine", [False])
    anvil.rpc("anvil_setNextBlockBaseFeePerGas", ["0x0"])
    anvil.mine(1)
    lines: list[str] = []

    with running(executor(live_server, bound_chain, lines=lines)) as ref:
        wait_for("blocked_by_fees", lambda: ref.state == "blocked_by_fees")
        assert any("reports a base fee of 0" in line and "refused" in line for line in lines)
        time.sleep(0.5)
        assert state(workflow_id) == "queued"
        assert Executor.objects.get(address=ADDRESS_A).status == "blocked_by_fees"

        anvil.rpc("anvil_setNextBlockBaseFeePerGas", [hex(GWEI)])
        anvil.mine(1)
        wait_for("the document sent", lambda: state(workflow_id) == "submitted")


def test_the_registration_challenge_is_signed_by_the_signer_and_checked(proxy):
    signer = RemoteSigner(proxy.url, address=ADDRESS_A)
    message = "registry.example wants you to sign in with your Ethereum account:"

    signature = signer.sign_message(message)

    signed_by = Account.recover_message(encode_defunct(text=message), signature=signature)
    assert signed_by.lower() == ADDRESS_A.lower()
    proxy.mode = "other_message_address"
    with pytest.raises(SignerError, match=f"signed the message as {ADDRESS_B.lower()}"):
        signer.sign_message(message)

"""The reference executor against a real anvil with the real EAS contracts and the service
over HTTP (live server). These tests change how the node mines (automine off, interval
mining, base fees, balances): they get an anvil of their own per module, reverted after each
test to its state before it, mining restored."""

import threading
import time
from contextlib import contextmanager

import pytest
from web3 import HTTPProvider, Web3

from attestations.indexer import index_chain
from bindings.tracking import workflows_track
from executor_client import ReferenceExecutor, ServiceClient
from tests.conftest import deploy_eas_on, make_key, require_anvil

# anvil's well-known development accounts 1 and 2 (account 0 deploys the contracts)
KEY_A = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
ADDRESS_A = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
ADDRESS_B = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"
GWEI = 10**9


@pytest.fixture(scope="module")
def eas_node():
    """This module's anvil (chain 31337) with the EAS contracts (overrides the session's:
    what these tests do to mining must not reach other modules)."""
    from tests.anvil import Anvil

    require_anvil()
    node = Anvil(chain_id=31337).start()
    try:
        yield deploy_eas_on(node)
    finally:
        node.stop()


@pytest.fixture
def bound_chain(eas_chain):
    """The chain with its document schema registered and indexed, its base fee at 1 gwei
    (evm_revert does not take back what a test did to it); mining restored after."""
    node = eas_chain.node
    node.register_schema()
    node.anvil.rpc("anvil_setNextBlockBaseFeePerGas", [hex(GWEI)])
    node.anvil.mine(1)
    index(eas_chain)
    yield eas_chain
    node.anvil.rpc("evm_setIntervalMining", [0])
    node.anvil.rpc("evm_setAutomine", [True])


def index(eas_chain) -> None:
    report = index_chain(eas_chain.chain)
    assert report.ok, report.as_dict()


def settle(eas_chain, blocks: int = 2):
    """Mine the chain's confirmations, index, track."""
    eas_chain.node.anvil.mine(blocks)
    index(eas_chain)
    return workflows_track()


def executor(live_server, eas_chain, signer=KEY_A, *, lines: list | None = None,
             api_key: str | None = None, **options) -> ReferenceExecutor:
    service = ServiceClient(live_server.url, api_key or make_key("executor"))
    w3 = Web3(HTTPProvider(eas_chain.node.anvil.url))
    options = {"receipt_timeout": 10, "poll_seconds": 0.1, **options}
    out = lines.append if lines is not None else None
    return ReferenceExecutor(service, "anvil", signer, lambda chain_id: w3, out=out, **options)


@contextmanager
def running(ref: ReferenceExecutor):
    """`ref.run()` in a thread while inside; stopped (the job in hand finished) on leaving."""
    failures = []

    def run():
        try:
            ref.run()
        except Exception as exc:  # shown by the test, not lost in the thread
            failures.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield ref
    finally:
        ref.stop()
        thread.join(timeout=60)
    assert not thread.is_alive(), "the executor did not stop"
    assert not failures, failures


def wait_for(what: str, condition, timeout: float = 30.0, every: float = 0.1):
    """`condition()`'s first true value within `timeout` seconds, else fail naming `what`."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(every)


def bind(api, document: str, chain_id: int = 31337) -> str:
    response = api.post("/workflows", {"documentHash": document, "chainId": chain_id},
                        format="json")
    assert response.status_code == 201, response.content
    return response.json()["workflowId"]

"""A claimed batch of `multi` jobs too large for a quarter of a block is bound in several
multiAttests (issue 38, bench/field.py's multi mode): a transaction of more than half a
block shares no block with another like it, so a backlog of them left blocks half empty.
The funds rule counts the batch at all of them.
anvil's block gas limit is lowered with its own method (evm_setBlockGasLimit)."""

import pytest

from bindings.models import Workflow
from executor_client.executor import BLOCK_SHARE
from tests.executor_client.conftest import bind, executor, running, wait_for
from tests.executor_client.test_lifecycle import bound_once, confirm_all

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

DOCUMENTS = ["0x" + f"{0xB10C0000 + n:064x}" for n in range(6)]
BLOCK_GAS = 2_000_000  # six attestations (about 1.2 million gas with the margin) need three


@pytest.fixture
def small_blocks(bound_chain):
    anvil = bound_chain.node.anvil
    default = int(anvil.rpc("eth_getBlockByNumber", ["latest", False])["gasLimit"], 16)
    anvil.rpc("evm_setBlockGasLimit", [hex(BLOCK_GAS)])
    anvil.mine(1)
    bound_chain.chain.binding_mode = "multi"
    bound_chain.chain.save(update_fields=["binding_mode"])
    yield bound_chain
    anvil.rpc("evm_setBlockGasLimit", [hex(default)])
    anvil.mine(1)


def test_a_multi_batch_larger_than_a_quarter_block_is_split_and_bound_once(
        small_blocks, live_server, api):
    anvil = small_blocks.node.anvil
    ids = [bind(api, document) for document in DOCUMENTS]

    with running(executor(live_server, small_blocks, batch=len(ids))) as ref:
        wait_for("every job sent",
                 lambda: all(Workflow.objects.get(pk=i).tx_hash for i in ids))
    confirm_all(small_blocks, ids)

    sent = {Workflow.objects.get(pk=i).tx_hash for i in ids}
    assert len(sent) >= 3, sent
    limits = [int(anvil.rpc("eth_getTransactionByHash", [tx_hash])["gas"], 16) for tx_hash in sent]
    assert max(limits) <= BLOCK_GAS // BLOCK_SHARE, limits
    assert ref.batch_gas == sum(limits)  # what the funds rule counts a batch to cost
    for document, workflow_id in zip(DOCUMENTS, ids, strict=True):
        assert bound_once(document).tx_hash == Workflow.objects.get(pk=workflow_id).tx_hash

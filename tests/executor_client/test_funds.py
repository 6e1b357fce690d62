"""Funds (issue 38, item 2): the executor reports its balance in its heartbeats; below what
pays for the chain's `lowFundsBatches` batches at the current fees it reports `low_funds`
(the admin API, /metrics), and it claims nothing it cannot pay for: the documents wait in
the queue instead of failing. Balances set with anvil_setBalance."""

import pytest

from bindings.models import Workflow
from executor_client.fees import DEFAULT_BATCH_GAS, Policy, read_market
from executors.models import Executor
from tests.executor_client.conftest import ADDRESS_A, bind, executor, running, wait_for

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

DOCUMENTS = ["0x" + f"{0xF0D5 + n:064x}" for n in range(2)]


def one_batch(w3) -> int:
    """What one batch costs before the first is sent: its assumed gas at the offered fee."""
    return DEFAULT_BATCH_GAS * read_market(w3).offer(Policy()).max_fee


def set_balance(anvil, wei: int) -> None:
    anvil.rpc("anvil_setBalance", [ADDRESS_A, hex(wei)])


def shown(admin) -> dict:
    (listed,) = admin.get("/v1/admin/executors").json()["results"]
    return listed


def test_low_funds_are_reported_and_the_executor_still_binds_what_it_can_pay_for(
        bound_chain, live_server, api, admin, client):
    node = bound_chain.node
    funds = 3 * one_batch(node.w3)  # three batches: fewer than ten
    set_balance(node.anvil, funds)
    workflow_id = bind(api, DOCUMENTS[0])

    with running(executor(live_server, bound_chain)) as ref:
        wait_for("the document bound", lambda: Workflow.objects.get(
            pk=workflow_id).state == "submitted")
        wait_for("low_funds at the service", lambda: shown(admin)["status"] == "low_funds")
        balance = int(shown(admin)["balanceWei"])
        assert 0 < balance <= funds  # as its last heartbeat said
        assert ref.state == "low_funds" and ref.may_claim
        metrics = client.get("/metrics").content.decode()  # open: no METRICS_TOKEN set
        assert 'registry_executors{chain_id="31337",status="low_funds"} 1.0' in metrics

        set_balance(node.anvil, 100 * 10**18)
        node.anvil.mine(1)  # the executor looks at its balance once a block
        wait_for("healthy again", lambda: shown(admin)["status"] == "healthy")
        assert shown(admin)["balanceWei"] == str(100 * 10**18)


def test_an_executor_that_cannot_pay_for_a_batch_claims_nothing_until_it_can(
        bound_chain, live_server, api, admin):
    node = bound_chain.node
    set_balance(node.anvil, one_batch(node.w3) // 2)
    workflow_id = bind(api, DOCUMENTS[1])
    lines: list[str] = []

    with running(executor(live_server, bound_chain, lines=lines)) as ref:
        wait_for("low_funds", lambda: Executor.objects.filter(status="low_funds").exists())
        assert not ref.may_claim
        assert any(line.startswith("status low_funds: the balance of") and "pays for no batch"
                   in line for line in lines)
        wait_for("a few looks", lambda: ref.head is not None)
        assert Workflow.objects.get(pk=workflow_id).state == "queued"  # waiting, not failed

        set_balance(node.anvil, 100 * 10**18)
        node.anvil.mine(1)
        wait_for("the document bound", lambda: Workflow.objects.get(
            pk=workflow_id).state == "submitted")
    assert Workflow.objects.get(pk=workflow_id).attempts == 1
    assert Executor.objects.get(address=ADDRESS_A).balance_wei is not None

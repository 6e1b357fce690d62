"""`manage.py follow_chains` on the embedded default (no broker: index and tracking run in
its process) against the session's anvil with the real EAS contracts: each new block is
indexed and tracked as it comes, so an attestation verifies, and a submitted workflow is
confirmed, within moments of its block."""

import threading
import time
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from attestations import eas as eas_contracts
from bindings.models import Workflow
from ops.follower import STATUS_KEY, Follower, follower_status
from tests.factories import RpcEndpointFactory, TrustedAttesterFactory

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]


def wait_for(condition, what: str, timeout: float = 10) -> float:
    """Seconds until `condition()` held."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, f"{what}: not within {timeout} s"
        time.sleep(0.05)
    return time.monotonic() - started


def verified(api, document: str) -> bool:
    return api.post("/v1/verify", {"documentHash": document}, format="json").json()["verified"]


def test_each_new_block_is_indexed_and_tracked_in_process_as_it_comes(eas_chain, api):
    node, chain = eas_chain.node, eas_chain.chain
    chain.confirmations = 1
    chain.save()
    RpcEndpointFactory(chain=chain, url=f"ws://127.0.0.1:{node.anvil.port}")
    TrustedAttesterFactory(chain=chain, address=node.sender)
    schema_uid = node.register_schema()
    follower = Follower()

    def run():
        try:
            follower.run()
        finally:
            connection.close()  # this thread's

    thread = threading.Thread(target=run)
    thread.start()
    try:
        wait_for(lambda: 31337 in follower.followed
                 and follower.followed[31337][0].mode == "websocket", "following anvil")

        # anvil mines each transaction at once: its block is the new head.
        document = "0x" + "5a" * 32
        _, receipt = eas_contracts.attest(node.w3, node.deployment.eas, schema_uid=schema_uid,
                                          data=bytes.fromhex(document[2:]), sender=node.sender)
        seconds = wait_for(lambda: verified(api, document), "the attestation verifies")
        assert seconds < 2

        # Tracking rides on the same signal: the next block confirms a submitted workflow.
        workflow = Workflow.objects.create(
            chain=chain, document_hash=document, schema_uid=schema_uid, state="submitted",
            deadline=timezone.now() + timedelta(hours=1), created_by="test",
            tx_hashes=["0x" + receipt["transactionHash"].hex().removeprefix("0x")])
        node.anvil.mine()
        wait_for(lambda: Workflow.objects.get(pk=workflow.pk).state == "confirmed",
                 "the workflow is confirmed")
    finally:
        follower.stop.set()
        thread.join(timeout=20)
    assert not thread.is_alive()


def test_the_check_says_whether_a_follower_wrote_its_status_lately(eas_chain):
    from django.core.cache import cache

    with pytest.raises(CommandError, match="No follower wrote its status yet"):
        call_command("follow_chains", "--check")

    follower = Follower()
    follower.sync()  # the status of a follower that has just started its threads
    follower.close()
    age, chains = follower_status()
    assert age < 5 and set(chains) == {"31337"}
    out = StringIO()
    call_command("follow_chains", "--check", stdout=out)
    assert "Follower alive" in out.getvalue() and "chain 31337: " in out.getvalue()

    cache.set(STATUS_KEY, {"at": time.time() - 120, "chains": {}}, None)
    with pytest.raises(CommandError, match="for 120 s"):
        call_command("follow_chains", "--check")

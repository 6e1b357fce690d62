"""Finality as each chain defines it, and stalled chains (issue 38 item 4;
attestations/finality.py), on a real anvil that serves `safe` and `finalized` behind its head:
with --slots-in-an-epoch 2, safe = head - 2 and finalized = head - 4. Blocks come from
anvil_mine; a stalled chain is anvil mining nothing. A node that reports a `finalized` block
above its head is anvil behind a proxy that changes that one answer."""

import json
import threading
from datetime import timedelta

import pytest
import requests
from django.test import Client
from django.utils import timezone

from attestations import eas as eas_contracts
from attestations import finality
from attestations.indexer import forget_clients, index_chain
from attestations.models import Attestation, ChainHead, IndexCursor
from bindings.models import Workflow, WorkflowState
from bindings.tracking import workflows_track_chain
from core import events
from registry.models import Chain
from tests.anvil import Anvil, QuietHandler, QuietServer
from tests.conftest import deploy_eas_on, require_anvil
from tests.factories import ChainFactory, DeploymentFactory, ExecutorFactory, RpcEndpointFactory
from verification.services import verify_document

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

SLOTS = 2  # safe: 2 blocks behind the head; finalized: 4
HASH = "0x" + "f1" * 32


@pytest.fixture(scope="module")
def epoch_node():
    require_anvil()
    node = Anvil(chain_id=31337, args=("--slots-in-an-epoch", str(SLOTS))).start()
    try:
        yield deploy_eas_on(node)
    finally:
        node.stop()


class Site:
    def __init__(self, node, chain):
        self.node, self.chain = node, chain

    def attest(self, document_hash: str = HASH) -> tuple[str, int]:
        """An attestation of `document_hash` by the chain's executor: (uid, block)."""
        schema = self.node.register_schema()
        uid, receipt = eas_contracts.attest(
            self.node.w3, self.node.deployment.eas, schema_uid=schema,
            data=bytes.fromhex(document_hash[2:]), sender=self.node.sender)
        self.tx_hash = "0x" + bytes(receipt["transactionHash"]).hex()
        return uid, receipt["blockNumber"]

    def mine(self, blocks: int) -> None:
        self.node.anvil.mine(blocks)

    def head(self) -> int:
        return self.node.anvil.block_number()

    def index(self):
        report = index_chain(Chain.objects.get(pk=self.chain.pk))
        assert report.ok, report.as_dict()
        return report


@pytest.fixture
def site(epoch_node, settings):
    settings.CHAIN_STALL_MIN_SECONDS = 1
    snapshot = epoch_node.anvil.rpc("evm_snapshot")
    forget_clients()
    chain = ChainFactory(chain_id=31337, short_name="anvil", confirmations=1,
                         finality="finalized", stall_blocks=1)
    RpcEndpointFactory(chain=chain, url=epoch_node.anvil.url)
    DeploymentFactory(chain=chain, kind="schema_registry",
                      address=epoch_node.deployment.schema_registry,
                      start_block=epoch_node.deployment.schema_registry_block)
    DeploymentFactory(chain=chain, kind="eas", address=epoch_node.deployment.eas,
                      start_block=epoch_node.deployment.eas_block)
    ExecutorFactory(chain=chain, address=epoch_node.sender)
    yield Site(epoch_node, chain)
    forget_clients()
    epoch_node.anvil.rpc("evm_revert", [snapshot])


@pytest.fixture
def emitted(monkeypatch):
    """The events core.events is told of, as (type, data)."""
    seen = []
    monkeypatch.setattr(events, "_listeners",
                        [lambda kind, data, at, subject: seen.append((kind, data))])
    return seen


# --- finalized ---------------------------------------------------------------------------------


def test_a_finalized_chain_verifies_only_once_the_nodes_finalized_block_reaches_it(site, api):
    uid, block = site.attest()
    site.mine(2)  # 3 blocks on top of nothing: more than the 1 confirmation the chain counts
    site.index()
    head = site.head()
    answer = verify_document(HASH)
    assert (answer.verified, answer.reason) == (False, "not_final")
    assert answer.finality == {"rule": "finalized", "finalizedBlock": head - 2 * SLOTS}
    assert answer.finalized_block < block
    assert IndexCursor.objects.filter(chain=site.chain, final_block=head - 4).count() == 2

    site.mine(block + 2 * SLOTS - head)  # the node's finalized block reaches the attestation's
    site.index()
    body = api.post("/v1/verify", {"documentHash": HASH}, format="json").json()
    assert body["verified"] is True and body["attestationId"] == uid
    assert body["finality"] == {"rule": "finalized", "finalizedBlock": block}
    assert body["chainStalled"] is False


def test_a_safe_chain_is_final_at_the_nodes_safe_block(site):
    Chain.objects.filter(pk=site.chain.pk).update(finality="safe")
    _, block = site.attest()
    site.mine(SLOTS - 1)
    site.index()
    assert verify_document(HASH).reason == "not_final"
    site.mine(1)
    site.index()
    answer = verify_document(HASH)
    assert answer.verified and answer.finality == {"rule": "safe", "finalizedBlock": block}


def test_records_made_final_without_a_new_head_are_told_of_at_the_next_run(site, emitted):
    # Under `finalized` the attestation is not final yet; an administrator's switch to
    # `safe` makes it final with no new block: the next run, with nothing new to read,
    # still tells of it (document.verified), once.
    uid, block = site.attest()
    site.mine(SLOTS)
    site.index()
    assert verify_document(HASH).reason == "not_final"
    assert ("attestation.final", {"attestationUid": uid}) not in emitted

    Chain.objects.filter(pk=site.chain.pk).update(finality="safe")
    site.index()
    site.index()

    assert verify_document(HASH).verified
    assert emitted.count(("attestation.final", {"attestationUid": uid})) == 1


def test_records_made_final_by_a_switch_to_confirmations_are_told_of(site, emitted):
    uid, block = site.attest()
    site.mine(SLOTS)  # under `finalized` not final; under 1 confirmation, final
    site.index()
    assert ("attestation.final", {"attestationUid": uid}) not in emitted

    Chain.objects.filter(pk=site.chain.pk).update(finality="confirmations")
    site.index()
    site.mine(1)
    site.index()

    assert emitted.count(("attestation.final", {"attestationUid": uid})) == 1


def test_a_confirmations_chain_keeps_its_count(site):
    Chain.objects.filter(pk=site.chain.pk).update(finality="confirmations", confirmations=2)
    _, block = site.attest()
    site.mine(1)  # 2 confirmations; finalized would still be 4 blocks behind
    site.index()
    answer = verify_document(HASH)
    assert answer.verified and answer.confirmations == 2
    assert answer.finality == {"rule": "confirmations", "finalizedBlock": block}


def test_the_tracking_confirms_a_workflow_at_the_chains_finality(site):
    uid, block = site.attest()
    tx_hash = site.tx_hash
    site.mine(2)
    site.index()
    indexed = Attestation.objects.get(chain=site.chain, uid=uid)
    workflow = Workflow.objects.create(
        chain=site.chain, document_hash=HASH, schema_uid=indexed.schema_uid,
        state=WorkflowState.SUBMITTED, deadline=timezone.now() + timedelta(hours=1),
        executor=site.chain.executors.get(), tx_hash=tx_hash, tx_hashes=[tx_hash])

    workflows_track_chain(site.chain.pk)
    workflow.refresh_from_db()
    assert (workflow.state, workflow.block_number) == (WorkflowState.SUBMITTED, block)

    site.mine(2 * SLOTS)
    site.index()
    assert workflows_track_chain(site.chain.pk).confirmed == 1
    workflow.refresh_from_db()
    assert workflow.state == WorkflowState.CONFIRMED and workflow.attestation_uid == uid


# --- a node that lies ----------------------------------------------------------------------------


class FinalizedAboveHead:
    """A proxy to anvil that answers eth_getBlockByNumber("finalized") with a block number
    `ahead` blocks above the head, single or batched, while `lying` (or with a JSON-RPC
    error, with `refusing`)."""

    def __init__(self, target: str, ahead: int = 5):
        self.target, self.ahead, self.lying, self.refusing = target, ahead, True, False
        proxy = self

        class Handler(QuietHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                answer = requests.post(proxy.target, json=body, timeout=5).json()
                if proxy.lying:
                    pairs = zip(body, answer) if isinstance(body, list) else [(body, answer)]
                    for request, response in pairs:
                        proxy.bend(request, response)
                self.reply(json.dumps(answer).encode())

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/finalized-above-head"

    def bend(self, request: dict, response: dict) -> None:
        if (request.get("method") == "eth_getBlockByNumber"
                and request.get("params", [None])[0] == "finalized" and self.refusing):
            response.pop("result", None)
            response["error"] = {"code": -32000, "message": "unknown block tag"}
        elif (request.get("method") == "eth_getBlockByNumber"
                and request.get("params", [None])[0] == "finalized"
                and isinstance(response.get("result"), dict)):
            head = requests.post(self.target, json={"jsonrpc": "2.0", "id": 1,
                                                    "method": "eth_blockNumber"}, timeout=5)
            response["result"]["number"] = hex(int(head.json()["result"], 16) + self.ahead)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_finalized_block_above_the_head_is_refused_logged_and_moves_no_verdict(site, caplog):
    _, block = site.attest()
    site.mine(2 * SLOTS)
    proxy = FinalizedAboveHead(site.node.anvil.url)
    try:
        site.chain.rpc_endpoints.update(url=proxy.url)
        forget_clients()
        site.index()  # the first run: the node's answer is refused, nothing is final
        assert "the node's answer is refused" in caplog.text
        assert IndexCursor.objects.filter(chain=site.chain, final_block=None).count() == 2
        assert verify_document(HASH).reason == "not_final"

        proxy.lying = False  # an honest answer: the attestation is final
        site.index()
        assert verify_document(HASH).verified
        final = ChainHead.objects.get(pk=site.chain.pk).final_block
        assert final == block

        proxy.lying = True  # a lie again: refused, the final block stays
        caplog.clear()
        site.mine(1)
        site.index()
        assert "is above its head" in caplog.text
        assert verify_document(HASH).verified
        assert ChainHead.objects.get(pk=site.chain.pk).final_block == final
        assert set(IndexCursor.objects.filter(chain=site.chain)
                   .values_list("final_block", flat=True)) == {final}
        # The tracking refuses it too: it counts nothing final.
        w3_head, tracked_final = _head_and_final(site)
        assert tracked_final is None and w3_head == site.head()
    finally:
        proxy.stop()


def test_a_node_without_the_tag_finalises_nothing_and_the_run_goes_on(site):
    site.attest()
    site.mine(2 * SLOTS)
    proxy = FinalizedAboveHead(site.node.anvil.url)
    proxy.refusing = True
    try:
        site.chain.rpc_endpoints.update(url=proxy.url)
        forget_clients()
        report = site.index()  # ok: the attestation is read
        assert report.final is None and report.deployments[1].attestations == 1
        assert verify_document(HASH).reason == "not_final"
    finally:
        proxy.stop()


def _head_and_final(site):
    from attestations.indexer import rpc
    from registry.chain_client import chain_client

    return rpc.head_and_final(chain_client(Chain.objects.get(pk=site.chain.pk)), site.chain)


# --- stalled -------------------------------------------------------------------------------------


def test_a_chain_without_new_heads_is_stalled_until_it_moves_again(site, api, emitted, settings):
    site.attest()
    site.mine(2 * SLOTS)
    site.index()
    head = ChainHead.objects.get(pk=site.chain.pk)
    assert head.stalled_since is None

    # No block is mined: after the stall window (1 block time, at least 1 s here) the next
    # run finds the same head.
    ChainHead.objects.filter(pk=site.chain.pk).update(head_at=timezone.now() - timedelta(seconds=5))
    site.index()
    head = ChainHead.objects.get(pk=site.chain.pk)
    assert head.stalled_since is not None and head.stall_reason == finality.NO_NEW_HEAD
    stalled = [data for kind, data in emitted if kind == "chain.stalled"]
    assert stalled == [{"chainId": 31337, "shortName": "anvil", "headBlock": head.head_block,
                        "headAt": stalled[0]["headAt"], "finality": "finalized",
                        "finalizedBlock": head.head_block - 2 * SLOTS,
                        "reason": "no_new_head"}]
    answer = api.post("/v1/verify", {"documentHash": HASH}, format="json").json()
    assert answer["verified"] is True and answer["chainStalled"] is True
    miss = api.post("/v1/verify", {"documentHash": "0x" + "00" * 32, "chainId": 31337},
                    format="json").json()
    assert miss["reason"] == "not_found" and miss["chainStalled"] is True
    assert miss["finality"] == {"rule": "finalized", "finalizedBlock": head.head_block - 4}
    listed = api.get("/chains/31337").json()
    assert listed["stalled"] is True and listed["finality"] == "finalized"
    assert listed["head"]["headBlock"] == head.head_block
    assert listed["head"]["stallReason"] == "no_new_head"
    ready = api.get("/readyz").json()
    assert [c["chainId"] for c in ready["checks"]["chains"]["stalled"]] == [31337]
    html = Client().get(f"/verify/{HASH}").content.decode()
    assert 'id="chain-stalled"' in html and "Stalled" in html
    assert f"up to block {head.head_block - 4}" in html
    assert Client().get(f"/verify/{HASH}", {"format": "json"}).json()["chainStalled"] is True

    site.mine(1)  # it moves again
    site.index()
    assert ChainHead.objects.get(pk=site.chain.pk).stalled_since is None
    assert [kind for kind, _ in emitted if kind.startswith("chain.")] == [
        "chain.stalled", "chain.resumed"]
    assert api.post("/v1/verify", {"documentHash": HASH},
                    format="json").json()["chainStalled"] is False


def test_a_node_that_stops_answering_leaves_the_chain_stalled(site, emitted):
    site.mine(1)
    site.index()
    ChainHead.objects.filter(pk=site.chain.pk).update(head_at=timezone.now() - timedelta(seconds=5))
    site.chain.rpc_endpoints.update(url="http://127.0.0.1:9/gone")
    forget_clients()
    assert index_chain(Chain.objects.get(pk=site.chain.pk)).error
    assert ChainHead.objects.get(pk=site.chain.pk).stall_reason == finality.NO_NEW_HEAD
    assert [kind for kind, _ in emitted] == ["chain.stalled"]


def test_a_finalized_block_that_stops_advancing_stalls_the_chain(site):
    site.mine(2 * SLOTS)
    site.index()
    # The head moves, the finalized block has not for longer than the window and its lag.
    ChainHead.objects.filter(pk=site.chain.pk).update(
        final_at=timezone.now() - timedelta(minutes=5), final_block=0)
    head = ChainHead.objects.get(pk=site.chain.pk)
    site.mine(1)
    assert finality.stall_reason(head, site.chain, timezone.now()) == finality.FINALITY_STUCK

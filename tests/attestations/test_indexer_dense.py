"""A busy chain: more attestations in a block range, or in one block, than one answer may
hold (RPC_RESPONSE_MAX_BYTES, the transport's cap), on a real anvil with the real EAS
contracts. The cap is set small enough for a few hundred real attestations to pass it, with
sizes measured on the node, not guessed; one test runs at the real scale (20,000
attestations in one block under the real 10 MiB cap)."""

from io import StringIO
from types import SimpleNamespace

import pytest
import requests
from django.core.management import call_command
from prometheus_client.parser import text_string_to_metric_families

from attestations.eas import multi_attest, register_schema
from attestations.indexer import events, index_chain
from attestations.models import Attestation, IndexCursor
from attestations.schema import encode, parse
from tests.conftest import deploy_eas_on
from tests.dense_chain import attest_densely, document
from tests.factories import ChainFactory, DeploymentFactory, RpcEndpointFactory

pytestmark = [pytest.mark.chain, pytest.mark.django_db]


@pytest.fixture
def dense(anvil_factory):
    """An anvil of its own (the tests raise its block gas limit) with EAS and the document
    schema, registered as chain 31337."""
    node = anvil_factory()
    eas_node = deploy_eas_on(node)
    chain = ChainFactory(chain_id=31337, short_name="anvil", confirmations=1)
    RpcEndpointFactory(chain=chain, url=node.url)
    DeploymentFactory(chain=chain, kind="schema_registry",
                      address=eas_node.deployment.schema_registry,
                      start_block=eas_node.deployment.schema_registry_block)
    eas = DeploymentFactory(chain=chain, kind="eas", address=eas_node.deployment.eas,
                            start_block=eas_node.deployment.eas_block)
    return SimpleNamespace(node=node, w3=eas_node.w3, eas=eas, chain=chain,
                           sender=eas_node.sender, schema=eas_node.register_schema())


def attest(dense, **kwargs) -> list[int]:
    return attest_densely(dense.node, dense.w3, dense.eas.address, schema_uid=dense.schema,
                          sender=dense.sender, **kwargs)


def answer_bytes(dense, method: str, params: list) -> int:
    """The size of the node's answer, as the transport reads it."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    return len(requests.post(dense.node.url, json=body, timeout=30).content)


def logs_bytes(dense, first: int, last: int) -> int:
    return answer_bytes(dense, "eth_getLogs", [{
        "address": dense.eas.address, "topics": [events.EAS_TOPICS],
        "fromBlock": hex(first), "toBlock": hex(last)}])


def receipt_bytes(dense, block: int) -> list[int]:
    txs = dense.w3.eth.get_block(block)["transactions"]
    return [answer_bytes(dense, "eth_getTransactionReceipt", ["0x" + tx.hex()]) for tx in txs]


def attested_uids(dense, block: int) -> list[str]:
    logs = dense.w3.eth.get_logs({"address": dense.w3.to_checksum_address(dense.eas.address),
                                  "fromBlock": block, "toBlock": block,
                                  "topics": [events.ATTESTED]})
    return ["0x" + bytes(log["data"]).hex() for log in logs]


def indexed_documents(chain) -> set[str]:
    return set(Attestation.objects.filter(chain=chain).values_list("document_hash", flat=True))


def documents(first: int, count: int) -> set[str]:
    return {"0x" + document(n).hex() for n in range(first, first + count)}


def test_ranges_whose_logs_pass_the_cap_shrink_until_they_fit(dense, settings):
    blocks = attest(dense, count=400, per_tx=20, per_block=40)  # 10 blocks of 40
    whole = logs_bytes(dense, blocks[0], blocks[-1])
    one_block = logs_bytes(dense, blocks[0], blocks[0])
    settings.RPC_RESPONSE_MAX_BYTES = 2 * one_block  # under a fifth of the whole range
    assert whole > 4 * settings.RPC_RESPONSE_MAX_BYTES

    report = index_chain(dense.chain)

    assert report.ok, report.as_dict()
    assert indexed_documents(dense.chain) == documents(1, 400)
    cursor = IndexCursor.objects.get(deployment=dense.eas)
    assert cursor.next_block == report.head + 1 and cursor.skipped == []
    assert cursor.range_size <= 2  # what fitted, kept for the next run
    assert report.deployments[1].ranges >= 5


def test_one_block_whose_logs_pass_the_cap_is_read_from_its_receipts(dense, settings):
    [block] = attest(dense, count=200, per_tx=10)  # one block of 20 transactions
    receipts = receipt_bytes(dense, block)
    settings.RPC_RESPONSE_MAX_BYTES = 3 * max(receipts)
    assert logs_bytes(dense, block, block) > 4 * settings.RPC_RESPONSE_MAX_BYTES
    assert sum(receipts) > 4 * settings.RPC_RESPONSE_MAX_BYTES  # receipt batches halve too

    report = index_chain(dense.chain)

    assert report.ok, report.as_dict()
    assert indexed_documents(dense.chain) == documents(1, 200)
    rows = Attestation.objects.filter(chain=dense.chain).order_by("log_index")
    assert [a.log_index for a in rows] == sorted({a.log_index for a in rows})
    assert {a.block_number for a in rows} == {block}
    cursor = IndexCursor.objects.get(deployment=dense.eas)
    assert cursor.next_block == report.head + 1 and cursor.skipped == []
    assert str(block) in cursor.recent_blocks


def test_a_transaction_whose_receipt_alone_passes_the_cap_is_skipped_and_told(dense, settings,
                                                                              anon):
    [block] = attest(dense, count=90, per_tx=80)  # one transaction of 80, one of 10
    big, small = receipt_bytes(dense, block)
    settings.RPC_RESPONSE_MAX_BYTES = (big + small) // 2
    big_tx = "0x" + dense.w3.eth.get_block(block)["transactions"][0].hex()
    later = attest(dense, count=3, first=1000)  # and the chain goes on after it

    report = index_chain(dense.chain)

    assert report.ok, report.as_dict()
    assert indexed_documents(dense.chain) == documents(81, 10) | documents(1000, 3)
    cursor = IndexCursor.objects.get(deployment=dense.eas)
    assert cursor.next_block == report.head + 1 > later[-1]
    [skipped] = cursor.skipped
    assert (skipped["block"], skipped["txHash"], skipped["logIndex"]) == (block, big_tx, None)
    assert "RPC_RESPONSE_MAX_BYTES" in skipped["reason"]
    assert f"re-index from block {block}" in skipped["reason"]
    metrics = {(s.name, s.labels.get("deployment_id")): s.value
               for family in text_string_to_metric_families(anon.get("/metrics").content.decode())
               for s in family.samples}
    assert metrics[("attestations_index_skipped_records", str(dense.eas.pk))] == 1

    # With the cap raised, re-indexing from the block reads it whole.
    settings.RPC_RESPONSE_MAX_BYTES = 10 * 1024 * 1024
    assert index_chain(dense.chain, from_block=block).ok
    assert indexed_documents(dense.chain) == documents(1, 90) | documents(1000, 3)
    assert IndexCursor.objects.get(deployment=dense.eas).skipped == []


def test_getattestation_batches_halve_when_their_answers_pass_the_cap(dense, settings):
    # 1 KiB of data each: the answers of getAttestation are far larger than the logs.
    blob_schema = "bytes32 documentHash,bytes blob"
    schema_uid = register_schema(dense.w3, dense.chain.deployments.get(kind="schema_registry")
                                 .address, blob_schema, sender=dense.sender)
    data = [encode(parse(blob_schema), (document(n), bytes([n]) * 1024)) for n in range(1, 31)]
    multi_attest(dense.w3, dense.eas.address, schema_uid=schema_uid, data=data,
                 sender=dense.sender)
    head = dense.w3.eth.block_number
    settings.RPC_RESPONSE_MAX_BYTES = 2 * logs_bytes(dense, head, head)
    settings.INDEXER_CALL_BATCH_SIZE = 30
    calls = [answer_bytes(dense, "eth_call", [{"to": dense.eas.address, "data": events.uid_call(
        events.GET_ATTESTATION, uid)}, "latest"]) for uid in attested_uids(dense, head)]
    assert sum(calls) > 1.5 * settings.RPC_RESPONSE_MAX_BYTES

    report = index_chain(dense.chain)

    assert report.ok, report.as_dict()
    assert indexed_documents(dense.chain) == documents(1, 30)
    assert {bytes(a.data)[-1] for a in Attestation.objects.filter(chain=dense.chain)} == set(
        range(1, 31))


def test_index_chain_from_block_2_on_a_chain_denser_than_the_cap_exits_0(dense, settings):
    """The issue's case, scaled down: the first getLogs answer over the cap used to fail
    every retry of the same range (`index_chain ... exits 1, response too large`)."""
    blocks = attest(dense, count=300, per_tx=30, per_block=60)
    settings.RPC_RESPONSE_MAX_BYTES = logs_bytes(dense, blocks[0], blocks[-1]) // 3
    out = StringIO()

    call_command("index_chain", "31337", "--from-block", "2", stdout=out, stderr=StringIO())

    assert indexed_documents(dense.chain) == documents(1, 300)
    assert IndexCursor.objects.get(deployment=dense.eas).last_error == ""


def test_twenty_thousand_attestations_in_one_block_under_the_real_cap(dense, settings):
    """The real scale: a block whose logs are over the real 10 MiB cap."""
    [block] = attest(dense, count=20_000, per_tx=100)
    assert settings.RPC_RESPONSE_MAX_BYTES == 10 * 1024 * 1024
    assert logs_bytes(dense, block, block) > settings.RPC_RESPONSE_MAX_BYTES

    report = index_chain(dense.chain)

    assert report.ok, report.as_dict()
    assert Attestation.objects.filter(chain=dense.chain).count() == 20_000
    assert indexed_documents(dense.chain) == documents(1, 20_000)

"""The chain indexer on a real anvil with the real EAS contracts: schemas, attestations,
multi-attestations, revocations, expiry, timestamps, reorganisations and idempotency."""

from datetime import UTC, datetime

import pytest
from web3 import Web3

from attestations import eas as eas_contracts
from attestations.indexer import index_chain
from attestations.models import Attestation, IndexCursor, OffchainRevocation, Schema, Timestamp
from attestations.schema import encode, parse

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

DOCUMENT_SCHEMA = "bytes32 documentHash"
RICH_SCHEMA = "bytes32 documentHash,string name,uint256 size,(string key,uint8 level)[] tags"


def hash32(n: int) -> str:
    return "0x" + f"{n:064x}"


def document(n: int) -> bytes:
    return encode(parse(DOCUMENT_SCHEMA), (bytes.fromhex(hash32(n)[2:]),))


def register(node, schema: str = DOCUMENT_SCHEMA, **kwargs) -> str:
    return node.register_schema(schema, **kwargs)


def attest(node, schema_uid: str, data: bytes, **kwargs) -> str:
    uid, _ = eas_contracts.attest(node.w3, node.deployment.eas, schema_uid=schema_uid,
                                  data=data, sender=node.sender, **kwargs)
    return uid


def revoke(node, schema_uid: str, uid: str):
    return eas_contracts.revoke(node.w3, node.deployment.eas, schema_uid=schema_uid, uid=uid,
                                sender=node.sender)


def run(eas_chain, **kwargs):
    report = index_chain(eas_chain.chain, **kwargs)
    assert report.ok, report.as_dict()
    return report


def test_a_registered_schema_and_an_attestation_are_indexed_with_decoded_data(eas_chain):
    node = eas_chain.node
    schema_uid = register(node, RICH_SCHEMA)
    fields = parse(RICH_SCHEMA)
    data = encode(fields, (bytes.fromhex("ab" * 32), "report.pdf", 2**70,
                           [("kind", 3), ("lang", 1)]))
    uid = attest(node, schema_uid, data, recipient="0x" + "12" * 20)

    report = run(eas_chain)

    schema = Schema.objects.get(uid=schema_uid)
    assert schema.schema == RICH_SCHEMA and schema.chain_id == 31337
    assert schema.fields[0] == {"name": "documentHash", "type": "bytes32"}
    assert schema.document_hash_field == "documentHash"
    assert schema.registerer == node.sender and schema.revocable is True
    assert schema.attestation_count == 1 and schema.deployment == eas_chain.registry
    attestation = Attestation.objects.with_confirmations().get(uid=uid)
    assert attestation.schema == schema and attestation.schema_uid == schema_uid
    assert attestation.decoded == {"documentHash": "0x" + "ab" * 32, "name": "report.pdf",
                                   "size": str(2**70), "tags": [{"key": "kind", "level": 3},
                                                                {"key": "lang", "level": 1}]}
    assert attestation.document_hash == "0x" + "ab" * 32
    assert bytes(attestation.data) == data
    assert attestation.attester == node.sender and attestation.recipient == "0x" + "12" * 20
    assert attestation.revocation_time is None and attestation.expiration_time is None
    receipt_block = node.w3.eth.get_block(attestation.block_number)
    assert attestation.block_hash == "0x" + receipt_block["hash"].hex()
    assert attestation.time == datetime.fromtimestamp(receipt_block["timestamp"], UTC)
    assert attestation.deployment == eas_chain.eas
    head = node.w3.eth.block_number
    assert attestation.confirmations == head - attestation.block_number + 1
    cursor = IndexCursor.objects.get(deployment=eas_chain.eas)
    assert cursor.next_block == head + 1 and cursor.head_block == head
    assert cursor.last_error == "" and cursor.last_success_at is not None
    assert str(head) in cursor.recent_blocks
    assert report.head == head


def test_multi_attest_revoke_and_a_second_run_that_changes_nothing(eas_chain):
    node = eas_chain.node
    schema_uid = register(node)
    uids = eas_contracts.multi_attest(node.w3, node.deployment.eas, schema_uid=schema_uid,
                                      data=[document(i) for i in range(1, 6)],
                                      sender=node.sender)
    revoke(node, schema_uid, uids[2])

    first = run(eas_chain)
    second = run(eas_chain)

    rows = {a.uid: a for a in Attestation.objects.all()}
    assert set(rows) == set(uids)
    assert {rows[u].tx_hash for u in uids} == {rows[uids[0]].tx_hash}  # one transaction
    assert sorted(rows[u].log_index for u in uids) == [rows[u].log_index for u in uids]
    assert [rows[u].document_hash for u in uids] == [hash32(i) for i in range(1, 6)]
    assert rows[uids[2]].revocation_time is not None
    assert rows[uids[2]].revoked_block_number == node.w3.eth.block_number
    assert all(rows[u].revocation_time is None for u in uids if u != uids[2])
    assert Schema.objects.get(uid=schema_uid).attestation_count == 5
    eas_report = first.deployments[1]
    assert (eas_report.attestations, eas_report.revocations) == (5, 1)
    assert second.deployments[1].ranges == 0 and second.deployments[1].attestations == 0


def test_a_revocation_in_a_later_run_is_applied(eas_chain):
    node = eas_chain.node
    schema_uid = register(node)
    uid = attest(node, schema_uid, document(7))
    run(eas_chain)
    assert Attestation.objects.get(uid=uid).revocation_time is None

    revoke(node, schema_uid, uid)
    run(eas_chain)

    revoked = Attestation.objects.get(uid=uid)
    onchain = node.eas_contract().functions.getAttestation(uid).call()
    assert revoked.revocation_time == datetime.fromtimestamp(onchain[4], UTC)
    assert Schema.objects.get(uid=schema_uid).attestation_count == 1


def test_an_expiring_attestation_keeps_its_expiration_time(eas_chain):
    node = eas_chain.node
    schema_uid = register(node)
    expires = node.w3.eth.get_block("latest")["timestamp"] + 100
    uid = attest(node, schema_uid, document(8), expiration_time=expires)
    node.anvil.rpc("evm_increaseTime", [200])
    node.anvil.mine()

    run(eas_chain)

    attestation = Attestation.objects.get(uid=uid)
    assert attestation.expiration_time == datetime.fromtimestamp(expires, UTC)
    chain_now = datetime.fromtimestamp(node.w3.eth.get_block("latest")["timestamp"], UTC)
    assert attestation.expiration_time < chain_now  # expired; still indexed, not revoked
    assert attestation.revocation_time is None


def test_timestamps_and_offchain_revocations_are_indexed(eas_chain):
    node = eas_chain.node
    contract = node.eas_contract()
    sender = Web3.to_checksum_address(node.sender)
    stamp = bytes.fromhex("cd" * 32)
    node.w3.eth.wait_for_transaction_receipt(
        contract.functions.timestamp(stamp).transact({"from": sender}))
    node.w3.eth.wait_for_transaction_receipt(
        contract.functions.revokeOffchain(stamp).transact({"from": sender}))

    run(eas_chain)

    timestamp = Timestamp.objects.get()
    assert timestamp.data == "0x" + "cd" * 32 and timestamp.deployment == eas_chain.eas
    block = node.w3.eth.get_block(timestamp.block_number)
    assert timestamp.timestamp == datetime.fromtimestamp(block["timestamp"], UTC)
    revocation = OffchainRevocation.objects.get()
    assert (revocation.revoker, revocation.data) == (node.sender, "0x" + "cd" * 32)


def test_an_attestation_read_before_its_schema_gets_it_later(eas_chain):
    """The schema registry failed (or was added later): the attestation is kept, and decoded
    when its schema arrives."""
    node = eas_chain.node
    schema_uid = register(node)
    uid = attest(node, schema_uid, document(9))
    registry = eas_chain.registry
    registry.kind = "other"
    registry.save()
    run(eas_chain)
    orphan = Attestation.objects.get(uid=uid)
    assert orphan.schema is None and orphan.decoded is None and orphan.document_hash is None

    registry.kind = "schema_registry"
    registry.save()
    run(eas_chain)

    adopted = Attestation.objects.get(uid=uid)
    assert adopted.schema.uid == schema_uid and adopted.document_hash == hash32(9)
    assert adopted.schema.attestation_count == 1


def test_a_reorganisation_removes_what_the_chain_lost_and_undoes_its_revocations(eas_chain):
    node = eas_chain.node
    schema_uid = register(node)
    kept = attest(node, schema_uid, document(1))
    run(eas_chain)
    fork = node.anvil.rpc("evm_snapshot")
    attest(node, schema_uid, document(2))  # in the block the reorganisation removes
    revoke(node, schema_uid, kept)
    run(eas_chain)
    assert Attestation.objects.get(uid=kept).revocation_time is not None
    assert Schema.objects.get(uid=schema_uid).attestation_count == 2

    node.anvil.rpc("evm_revert", [fork])
    other = attest(node, schema_uid, document(3))
    report = run(eas_chain)

    assert set(Attestation.objects.values_list("uid", flat=True)) == {kept, other}
    survivor = Attestation.objects.get(uid=kept)
    assert survivor.revocation_time is None and survivor.revoked_block_number is None
    assert Schema.objects.get(uid=schema_uid).attestation_count == 2
    eas_report = report.deployments[1]
    assert eas_report.reorg and eas_report.rolled_back_from is not None
    assert IndexCursor.objects.get(deployment=eas_chain.eas).reorgs == 1
    new_block = node.w3.eth.get_block(Attestation.objects.get(uid=other).block_number)
    assert Attestation.objects.get(uid=other).block_hash == "0x" + new_block["hash"].hex()


def test_a_reorganised_schema_registration_is_removed_and_read_again(eas_chain):
    node = eas_chain.node
    run(eas_chain)
    fork = node.anvil.rpc("evm_snapshot")
    lost_schema = register(node, "bytes32 documentHash,string lost")
    run(eas_chain)
    assert Schema.objects.filter(uid=lost_schema).exists()

    node.anvil.rpc("evm_revert", [fork])
    new_schema = register(node, "bytes32 documentHash,string found")
    run(eas_chain)

    assert list(Schema.objects.values_list("uid", flat=True)) == [new_schema]


def test_re_index_from_a_block_reads_it_again_without_duplicates(eas_chain):
    node = eas_chain.node
    schema_uid = register(node)
    uid = attest(node, schema_uid, document(4))
    run(eas_chain)
    block = Attestation.objects.get(uid=uid).block_number

    report = run(eas_chain, from_block=block)

    assert Attestation.objects.filter(uid=uid).count() == 1
    assert Schema.objects.get(uid=schema_uid).attestation_count == 1
    assert report.deployments[1].rolled_back_from == block
    assert report.deployments[1].attestations == 1 and not report.deployments[1].reorg

"""The real EAS contracts on anvil, driven by attestations.eas: the ground the indexer,
verification and executors stand on. One deployment per session; each test is reverted."""

import pytest
from eth_abi.packed import encode_packed
from web3 import Web3
from web3.exceptions import ContractLogicError

from attestations import eas as eas_contracts
from attestations.schema import encode, parse
from eas_primitives.abi import ZERO_ADDRESS, schema_registry_abi
from registry.chain_client import chain_client
from tests.factories import ChainFactory

pytestmark = pytest.mark.chain

SCHEMA = "bytes32 documentHash"
DOCUMENT_HASH = "0x" + "11" * 32


def registry_contract(node):
    return node.w3.eth.contract(address=Web3.to_checksum_address(node.deployment.schema_registry),
                                abi=schema_registry_abi())


def document(hash_hex: str) -> bytes:
    return encode(parse(SCHEMA), (bytes.fromhex(hash_hex[2:]),))


@pytest.fixture
def schema_uid(eas) -> str:
    return eas_contracts.register_schema(eas.w3, eas.deployment.schema_registry, SCHEMA,
                                         sender=eas.sender)


def test_both_contracts_are_deployed_and_eas_points_at_the_registry(eas):
    deployment = eas.deployment
    for address in (deployment.schema_registry, deployment.eas):
        assert address == address.lower() and len(address) == 42
        assert eas.w3.eth.get_code(Web3.to_checksum_address(address))
    assert eas.eas_contract().functions.getSchemaRegistry().call().lower() == \
        deployment.schema_registry
    assert deployment.schema_registry_block < deployment.eas_block
    assert eas.w3.eth.get_transaction_receipt(deployment.eas_tx)["contractAddress"].lower() == \
        deployment.eas


def test_a_schema_uid_is_the_keccak_of_schema_resolver_and_revocable(eas, schema_uid):
    expected = Web3.keccak(encode_packed(["string", "address", "bool"],
                                         [SCHEMA, ZERO_ADDRESS, True]))
    assert schema_uid == "0x" + expected.hex()
    record = registry_contract(eas).functions.getSchema(schema_uid).call()
    assert record[0] == bytes.fromhex(schema_uid[2:])
    assert record[3] == SCHEMA


def test_an_attestation_stores_the_encoded_data_the_attester_and_a_time(eas, schema_uid):
    uid, receipt = eas_contracts.attest(eas.w3, eas.deployment.eas, schema_uid=schema_uid,
                                        data=document(DOCUMENT_HASH), sender=eas.sender)
    assert receipt["status"] == 1
    # (uid, schema, time, expirationTime, revocationTime, refUID, recipient, attester,
    #  revocable, data)
    stored = eas.eas_contract().functions.getAttestation(uid).call()
    assert "0x" + stored[0].hex() == uid
    assert "0x" + stored[1].hex() == schema_uid
    assert stored[2] > 0
    assert stored[4] == 0
    assert stored[7].lower() == eas.sender
    assert stored[9] == bytes.fromhex("11" * 32)


def test_multi_attest_makes_five_distinct_attestations_in_one_transaction(eas, schema_uid):
    before = eas.w3.eth.block_number
    data = [document("0x" + f"{i:02x}" * 32) for i in range(5)]
    uids = eas_contracts.multi_attest(eas.w3, eas.deployment.eas, schema_uid=schema_uid,
                                      data=data, sender=eas.sender)
    assert len(set(uids)) == 5
    # anvil mines one block per transaction: one new block holding one transaction.
    assert eas.w3.eth.block_number == before + 1
    assert len(eas.w3.eth.get_block(before + 1)["transactions"]) == 1
    contract = eas.eas_contract()
    assert [contract.functions.getAttestation(uid).call()[9] for uid in uids] == data


def test_a_revoked_attestation_has_a_revocation_time_but_stays_valid(eas, schema_uid):
    uid, _ = eas_contracts.attest(eas.w3, eas.deployment.eas, schema_uid=schema_uid,
                                  data=document(DOCUMENT_HASH), sender=eas.sender)
    eas_contracts.revoke(eas.w3, eas.deployment.eas, schema_uid=schema_uid, uid=uid,
                         sender=eas.sender)
    contract = eas.eas_contract()
    assert contract.functions.getAttestation(uid).call()[4] > 0
    # isAttestationValid means "exists", not "not revoked": the indexer must read
    # revocationTime itself.
    assert contract.functions.isAttestationValid(uid).call() is True


def test_registering_a_schema_twice_raises_the_registrys_error(eas, schema_uid):
    # The registry reverts with AlreadyExists(); web3 estimates gas first, so the revert
    # surfaces before anything is sent, and no uid comes back.
    with pytest.raises(ContractLogicError) as raised:
        eas_contracts.register_schema(eas.w3, eas.deployment.schema_registry, SCHEMA,
                                      sender=eas.sender)
    assert raised.value.data == "0x" + Web3.keccak(text="AlreadyExists()")[:4].hex()


_first_block: list[int] = []


@pytest.mark.parametrize("round_", [1, 2])
def test_each_test_starts_from_the_same_chain_state(eas, round_):
    # Both rounds register the same schema: without the revert, the second would revert.
    eas_contracts.register_schema(eas.w3, eas.deployment.schema_registry, "uint256 round",
                                  sender=eas.sender)
    _first_block.append(eas.w3.eth.block_number)
    assert len(set(_first_block)) == 1


@pytest.mark.django_db
def test_the_projects_chain_client_reads_the_contracts(eas, schema_uid):
    chain = ChainFactory(chain_id=31337)
    w3 = chain_client(chain, url=eas.anvil.url)
    assert w3.eth.chain_id == 31337
    registry = w3.eth.contract(address=Web3.to_checksum_address(eas.deployment.schema_registry),
                               abi=schema_registry_abi())
    assert registry.functions.getSchema(schema_uid).call()[3] == SCHEMA
    uid, _ = eas_contracts.attest(w3, eas.deployment.eas, schema_uid=schema_uid,
                                  data=document(DOCUMENT_HASH), sender=eas.sender)
    assert eas.eas_contract().functions.getAttestation(uid).call()[9] == document(DOCUMENT_HASH)


def test_missing_artifacts_raise_an_error_naming_the_setup_script(settings, tmp_path):
    settings.EAS_ARTIFACTS_DIR = str(tmp_path)
    with pytest.raises(eas_contracts.EasArtifactMissing, match="scripts/chain_tools.sh"):
        eas_contracts.artifact("EAS")

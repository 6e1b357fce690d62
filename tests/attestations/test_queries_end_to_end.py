"""From the chain to the API: attest on anvil with the real EAS contracts, run the indexer,
read the attestation and its schema through GET /attestations and GET /schemas."""

import pytest

from attestations import eas as eas_contracts
from attestations.indexer import index_chain
from attestations.schema import encode, parse

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

SCHEMA = "bytes32 documentHash,string name"


def test_an_attestation_on_chain_is_read_through_the_api(api, eas_chain):
    node = eas_chain.node
    schema_uid = node.register_schema(SCHEMA)
    data = encode(parse(SCHEMA), (bytes.fromhex("ab" * 32), "deed.pdf"))
    uid, receipt = eas_contracts.attest(node.w3, node.deployment.eas, schema_uid=schema_uid,
                                        data=data, recipient="0x" + "12" * 20,
                                        sender=node.sender)
    eas_contracts.revoke(node.w3, node.deployment.eas, schema_uid=schema_uid, uid=uid,
                         sender=node.sender)
    assert index_chain(eas_chain.chain).ok

    listed = api.get("/attestations", {"documentHash": "0x" + "AB" * 32, "chainId": 31337})
    assert listed.status_code == 200, listed.content
    [attestation] = listed.json()["results"]
    assert attestation == api.get(f"/attestations/{uid}").json()
    assert attestation["uid"] == uid and attestation["schemaId"] == schema_uid
    assert attestation["attester"] == node.sender
    assert attestation["recipient"] == "0x" + "12" * 20
    assert attestation["data"] == "0x" + data.hex()
    assert attestation["decoded"] == {"documentHash": "0x" + "ab" * 32, "name": "deed.pdf"}
    assert attestation["documentHash"] == "0x" + "ab" * 32
    assert attestation["txHash"] == "0x" + receipt["transactionHash"].hex().removeprefix("0x")
    assert attestation["blockNumber"] == receipt["blockNumber"]
    assert attestation["revoked"] is True and attestation["revocationTime"].endswith("Z")
    assert attestation["confirmations"] == node.w3.eth.block_number - receipt["blockNumber"] + 1
    assert api.get("/attestations", {"revoked": "false"}).json()["results"] == []

    schema = api.get(f"/schemas/{schema_uid}").json()
    assert (schema["schema"], schema["attestationCount"]) == (SCHEMA, 1)
    assert schema["fields"] == [{"name": "documentHash", "type": "bytes32"},
                                {"name": "name", "type": "string"}]
    assert schema["documentHashField"] == "documentHash"
    assert schema["registerer"] == node.sender

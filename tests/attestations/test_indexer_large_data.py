"""Attestation data over MAX_DECODED_DATA (issue 34, item 6), on a real anvil with the real
EAS contracts: a legitimate attestation with a 22 KB title and a documentHash is indexed
with its document hash read from its place in the data (as the official EAS SDK decodes
it), its JSON not stored (`decodeError` says so), and it verifies; data that does not fit
its schema names its document but verifies nothing, and the reason says so."""

import json
import subprocess
from pathlib import Path

import pytest
from web3 import Web3

from attestations import eas as eas_contracts
from attestations.indexer import index_chain
from attestations.models import Attestation, IndexCursor, Schema
from attestations.schema import MAX_DECODED_DATA, encode, parse
from tests.factories import TrustedAttesterFactory
from tests.offchain import SDK, require_sdk

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

# The document hash after a dynamic field and static ones of several words: its place in
# the head is 32 (title's offset) + 64 (the pair) + 64 (the two sizes) = 160.
SCHEMA = "string title,(uint256 a,bytes32 b) pair,uint8[2] sizes,bytes32 documentHash,string note"
DOCUMENT = "0x" + "d0c" * 21 + "5"
TITLE = "A very long title, " * 1158  # 22,002 bytes
DECODE = Path(__file__).with_name("sdk_decode.cjs")


def sdk_decode(node, schema: str, uids: list[str]) -> list[dict]:
    """What the official EAS SDK reads and decodes of each attestation, from the chain."""
    require_sdk()
    plan = {"sdkDir": str(SDK), "rpcUrl": node.anvil.url, "schema": schema, "uids": uids,
            "eas": Web3.to_checksum_address(node.deployment.eas)}
    done = subprocess.run(["node", str(DECODE)], input=json.dumps(plan), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def data(title: str = TITLE) -> bytes:
    values = (title, (7, bytes.fromhex("ee" * 32)), [1, 2], bytes.fromhex(DOCUMENT[2:]), "n")
    return encode(parse(SCHEMA), values)


@pytest.fixture
def chain(eas_chain):
    """The session's node, its first account trusted, and the schema registered."""
    TrustedAttesterFactory(chain=eas_chain.chain, address=eas_chain.node.sender)
    eas_chain.schema_uid = eas_chain.node.register_schema(SCHEMA)
    return eas_chain


def attest(chain, payload: bytes) -> str:
    uid, _ = eas_contracts.attest(chain.node.w3, chain.node.deployment.eas,
                                  schema_uid=chain.schema_uid, data=payload,
                                  sender=chain.node.sender)
    return uid


def settle(chain):
    chain.node.anvil.mine(chain.chain.confirmations)
    report = index_chain(chain.chain)
    assert report.ok, report.as_dict()


def verify(api) -> dict:
    response = api.post("/v1/verify", {"documentHash": DOCUMENT}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_22_kb_title_keeps_its_document_hash_and_verifies(chain, api):
    payload = data()
    assert len(payload) > MAX_DECODED_DATA and len(TITLE) > 22_000
    uid = attest(chain, payload)
    settle(chain)

    (sdk,) = sdk_decode(chain.node, SCHEMA, [uid])
    assert sdk["decoded"]["documentHash"] == DOCUMENT and sdk["decoded"]["title"] == TITLE
    shown = api.get(f"/attestations/{uid}").json()
    assert shown["documentHash"] == sdk["decoded"]["documentHash"]
    assert shown["data"] == sdk["data"] == "0x" + payload.hex()
    assert shown["decoded"] is None
    assert shown["decodeError"] == (
        f"Not decoded: the data is {len(payload)} bytes, longer than the {MAX_DECODED_DATA} "
        "decoded into `decoded`; its documentHash is read from its place in the data.")
    verdict = verify(api)
    assert verdict["verified"] is True and verdict["attestationId"] == uid
    assert verdict["reason"] is None


def test_the_same_record_under_the_cap_is_decoded_as_the_sdk_decodes_it(chain, api):
    uid = attest(chain, data("A short title"))
    settle(chain)
    (sdk,) = sdk_decode(chain.node, SCHEMA, [uid])
    shown = api.get(f"/attestations/{uid}").json()
    assert shown["decodeError"] is None
    assert shown["decoded"]["documentHash"] == shown["documentHash"] == sdk["decoded"]["documentHash"]
    assert shown["decoded"]["title"] == sdk["decoded"]["title"] == "A short title"
    assert verify(api)["verified"] is True


@pytest.mark.parametrize("size", [200, MAX_DECODED_DATA + 200], ids=["small", "over-the-cap"])
def test_data_not_laid_out_as_its_schema_says_is_undecodable_and_the_reason_says_so(
        chain, api, size):
    # The head holds the document hash at its place; the title's offset points past the end.
    payload = bytearray(data("x" * size))
    payload[:32] = (len(payload) + 64).to_bytes(32, "big")
    uid = attest(chain, bytes(payload))
    settle(chain)

    (sdk,) = sdk_decode(chain.node, SCHEMA, [uid])
    assert "error" in sdk  # the SDK cannot decode it either
    shown = api.get(f"/attestations/{uid}").json()
    assert shown["decoded"] is None and "does not decode with the schema" in shown["decodeError"]
    assert shown["documentHash"] == DOCUMENT
    verdict = verify(api)
    assert verdict["verified"] is False and verdict["reason"] == "undecodable"
    assert Attestation.objects.get(uid=uid).undecodable


def test_another_document_field_is_read_from_its_place_too(chain, api):
    uid = attest(chain, data())
    settle(chain)
    schema = Schema.objects.get(uid=chain.schema_uid)
    schema.document_hash_field = "pair"  # no bytes32: nothing
    schema.rederive_document_hashes()
    assert Attestation.objects.get(uid=uid).document_hash is None
    schema.document_hash_field = "documentHash"
    assert schema.rederive_document_hashes() == 1
    assert Attestation.objects.get(uid=uid).document_hash == DOCUMENT


def test_an_attestation_read_before_its_schema_gets_its_document_hash_with_it(chain, api):
    chain.registry.start_block = chain.node.w3.eth.block_number + 1  # the schema is unread
    chain.registry.save()
    uid = attest(chain, data())
    settle(chain)
    assert Attestation.objects.get(uid=uid).document_hash is None
    # Read again from the registry's first block, as an operator would re-index it.
    IndexCursor.objects.filter(deployment=chain.registry).update(
        next_block=chain.node.deployment.schema_registry_block)
    settle(chain)
    assert Attestation.objects.get(uid=uid).document_hash == DOCUMENT
    assert verify(api)["verified"] is True

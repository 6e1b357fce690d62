"""GET /timestamps, GET /timestamps/{hash} and GET /offchain-revocations: what the indexer
read of EAS's Timestamped and RevokedOffchain events, on active chains, newest first with a
cursor, filterable; the same through tRPC. The indexer's own reading of both events on anvil
is tests/attestations/test_indexer.py; here, end to end too."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from web3 import Web3

from attestations.indexer import index_chain
from attestations.models import Timestamp
from tests.conftest import assert_problem
from tests.factories import (
    ChainFactory,
    IndexCursorFactory,
    OffchainRevocationFactory,
    TimestampFactory,
)

pytestmark = pytest.mark.django_db

STAMP = "0x" + "5a" * 32
REVOKER = "0x" + "e1" * 20


@pytest.fixture
def chain():
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    IndexCursorFactory(deployment__chain=chain, head_block=100)
    return chain


def test_timestamps_newest_first_with_their_chain_block_and_confirmations(api, chain):
    now = timezone.now().replace(microsecond=0)
    old = TimestampFactory(chain=chain, timestamp=now - timedelta(hours=1), block_number=40)
    new = TimestampFactory(chain=chain, data=STAMP, timestamp=now, block_number=90)
    body = api.get("/timestamps").json()
    assert [r["data"] for r in body["results"]] == [new.data, old.data]
    assert body["results"][0] == {
        "data": STAMP, "chainId": 31337, "timestamp": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "txHash": new.tx_hash, "blockNumber": 90, "confirmations": 11}


def test_timestamps_are_cursor_paginated_and_filtered(api, chain):
    other = ChainFactory(chain_id=10, short_name="op")
    now = timezone.now().replace(microsecond=0)
    made = [TimestampFactory(chain=chain, timestamp=now - timedelta(minutes=n)) for n in range(5)]
    TimestampFactory(chain=other, data=STAMP, timestamp=now)
    first = api.get("/timestamps", {"chainId": 31337, "limit": 3}).json()
    second = api.get(first["next"]).json()
    assert [r["data"] for r in first["results"] + second["results"]] == [t.data for t in made]
    assert [r["chainId"] for r in api.get("/timestamps", {"data": STAMP.upper().replace(
        "0X", "0x")}).json()["results"]] == [10]
    window = api.get("/timestamps", {"from": (now - timedelta(minutes=2)).isoformat(),
                                     "to": now.isoformat(), "chainId": 31337}).json()
    assert [r["data"] for r in window["results"]] == [made[1].data, made[2].data]


def test_a_timestamp_by_its_hash(api, chain):
    stamp = TimestampFactory(chain=chain, data=STAMP)
    assert api.get(f"/timestamps/{STAMP.upper().replace('0X', '0x')}").json()["txHash"] == (
        stamp.tx_hash)
    assert_problem(api.get("/timestamps/0x" + "00" * 32), 404)
    problem = assert_problem(api.get("/timestamps/0x12"), 400)
    assert problem["errors"][0]["attr"] == "hash"
    TimestampFactory(chain=ChainFactory(chain_id=10, short_name="op"), data=STAMP)
    assert_problem(api.get(f"/timestamps/{STAMP}"), 409, "ambiguous_hash")
    assert api.get(f"/timestamps/{STAMP}", {"chainId": 10}).json()["chainId"] == 10


def test_inactive_chains_are_not_shown(api, chain):
    TimestampFactory(chain=ChainFactory(chain_id=5, short_name="gone", status="inactive"),
                     data=STAMP)
    OffchainRevocationFactory(chain=ChainFactory(chain_id=6, short_name="gone-too",
                                                 status="inactive"))
    assert api.get("/timestamps").json()["results"] == []
    assert_problem(api.get(f"/timestamps/{STAMP}"), 404)
    assert api.get("/offchain-revocations").json()["results"] == []


def test_offchain_revocations_listed_and_filtered(api, chain):
    now = timezone.now().replace(microsecond=0)
    mine = OffchainRevocationFactory(chain=chain, revoker=REVOKER, data=STAMP, timestamp=now,
                                     block_number=99)
    OffchainRevocationFactory(chain=chain, timestamp=now - timedelta(minutes=1))
    body = api.get("/offchain-revocations", {"revoker": REVOKER.upper().replace("0X", "0x")})
    assert body.json()["results"] == [{
        "data": STAMP, "revoker": REVOKER, "chainId": 31337,
        "timestamp": now.strftime("%Y-%m-%dT%H:%M:%SZ"), "txHash": mine.tx_hash,
        "blockNumber": 99, "confirmations": 2}]
    assert len(api.get("/offchain-revocations", {"data": STAMP}).json()["results"]) == 1
    assert len(api.get("/offchain-revocations").json()["results"]) == 2
    problem = assert_problem(api.get("/offchain-revocations", {"uid": STAMP}), 400)
    assert problem["errors"][0]["attr"] == "uid"  # not a filter here: named, not ignored


@pytest.mark.parametrize("path", ["/timestamps", "/offchain-revocations"])
def test_keys_are_needed(anon, path):
    assert_problem(anon.get(path), 401)


def test_trpc_procedures_answer_as_the_routes(api, chain):
    TimestampFactory(chain=chain, data=STAMP)
    OffchainRevocationFactory(chain=chain)
    for procedure, path, data in [
        ("timestamps.list", "/timestamps", {"chainId": 31337}),
        ("timestamps.get", f"/timestamps/{STAMP}", {"hash": STAMP}),
        ("offchainRevocations.list", "/offchain-revocations", {}),
    ]:
        answer = api.get(f"/trpc/{procedure}", {"input": json.dumps(data)})
        assert answer.status_code == 200, answer.content
        rest = api.get(path, {"chainId": 31337} if procedure == "timestamps.list" else {})
        assert answer.json() == {"result": {"data": rest.json()}}


@pytest.mark.chain
def test_end_to_end_on_anvil_through_the_indexer(api, eas_chain):
    node = eas_chain.node
    eas = node.eas_contract()
    sender = Web3.to_checksum_address(node.sender)
    stamp = bytes.fromhex(STAMP[2:])
    for call in (eas.functions.timestamp(stamp), eas.functions.revokeOffchain(stamp)):
        node.w3.eth.wait_for_transaction_receipt(call.transact({"from": sender}))
    node.anvil.mine(2)
    assert index_chain(eas_chain.chain).ok
    stamped = Timestamp.objects.get()
    answer = api.get(f"/timestamps/{STAMP}").json()
    assert answer["blockNumber"] == stamped.block_number and answer["confirmations"] >= 3
    (revocation,) = api.get("/offchain-revocations", {"revoker": node.sender}).json()["results"]
    assert revocation["data"] == STAMP and revocation["revoker"] == node.sender

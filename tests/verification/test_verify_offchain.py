"""Verification through offchain attestations (issue 21, item 2): packages signed by the real
EAS SDK, submitted to POST /attestations/offchain, their uid timestamped or revoked offchain
through the real EAS contract on anvil and read by the indexer; then POST /v1/verify (and
the batch, tRPC, the page) under the on-chain rules plus the anchor."""

import json
from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient
from web3 import Web3

from attestations.schema import encode, parse
from tests.offchain import OTHER_KEY, message, sign
from tests.verification.test_verify_e2e import DOCUMENT_SCHEMA, HASH, Site, make_site
from verification.services import revocation_of

pytestmark = [pytest.mark.chain, pytest.mark.django_db]


@pytest.fixture
def site(eas_chain, executor_key) -> Site:
    """Chain 31337 (2 confirmations), its schema indexed, anvil's account 0 an executor."""
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    cache.clear()  # the EAS version is cached per deployment
    site = make_site(eas_chain.node, eas_chain.chain, client)
    site.index()
    return site


def submit(api, site: Site, key=None, **fields) -> str:
    data = encode(parse(DOCUMENT_SCHEMA), (bytes.fromhex(HASH[2:]),))
    (package,) = sign(site.node, [message(site.schema_uid, data, **fields)],
                      **({"key": key} if key else {}))
    response = api.post("/attestations/offchain", package, format="json")
    assert response.status_code == 201, response.content
    return response.json()["uid"]


def eas_call(site: Site, name: str, uid: str, sender=None):
    eas = site.node.eas_contract()
    call = getattr(eas.functions, name)(bytes.fromhex(uid[2:]))
    receipt = site.node.w3.eth.wait_for_transaction_receipt(
        call.transact({"from": Web3.to_checksum_address(sender or site.node.sender)}))
    return site.node.w3.eth.get_block(receipt["blockNumber"])


def verify(api) -> dict:
    response = api.post("/v1/verify", {"documentHash": HASH}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_an_unanchored_offchain_attestation_does_not_verify_until_timestamped(api, site):
    uid = submit(api, site)
    assert verify(api)["reason"] == "not_timestamped"
    block = eas_call(site, "timestamp", uid)
    site.index()
    assert verify(api)["reason"] == "not_final"  # the timestamp needs the confirmations too
    site.settle()
    answer = verify(api)
    assert answer["verified"] is True and answer["offchain"] is True
    assert answer["timestampProven"] is True and answer["attestationId"] == uid
    assert answer["timestamp"] == datetime.fromtimestamp(block["timestamp"], UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ")  # the chain's time, not the signed one
    assert answer["easAddress"] == site.node.deployment.eas.lower()
    assert answer["txHash"] is None and answer["getAttestationCall"] is None


def test_a_chain_may_let_unanchored_ones_verify_with_their_time_a_claim(api, admin, site):
    submit(api, site)
    patched = admin.patch("/v1/admin/chains/31337", {"offchainUnanchored": True},
                          format="json")
    assert patched.status_code == 200, patched.content
    answer = verify(api)
    assert answer["verified"] is True and answer["timestampProven"] is False
    assert answer["timestamp"] == "2026-09-21T14:13:20Z"  # the signed time: 1,790,000,000


def test_the_attesters_offchain_revocation_unverifies_and_anyone_elses_does_not(
        api, admin, site):
    admin.patch("/v1/admin/chains/31337", {"offchainUnanchored": True}, format="json")
    uid = submit(api, site)
    eas_call(site, "revokeOffchain", uid, sender=site.node.w3.eth.accounts[1])
    site.index()
    assert verify(api)["verified"] is True
    block = eas_call(site, "revokeOffchain", uid)
    site.index()
    assert verify(api)["reason"] == "revoked"
    revocation = revocation_of(HASH)  # what the page names besides (issue 37 item 7)
    assert (revocation.attestation_id, revocation.offchain) == (uid, True)
    assert revocation.revoked_at == datetime.fromtimestamp(block["timestamp"], UTC)


def test_an_untrusted_signer_and_an_expired_one_say_why(api, admin, site):
    admin.patch("/v1/admin/chains/31337", {"offchainUnanchored": True}, format="json")
    submit(api, site, key=OTHER_KEY)
    assert verify(api)["reason"] == "untrusted_attester"
    submit(api, site, expirationTime=1_790_000_100)  # long past
    assert verify(api)["reason"] == "expired"


def test_an_on_chain_attestation_answers_first(api, admin, site):
    admin.patch("/v1/admin/chains/31337", {"offchainUnanchored": True}, format="json")
    submit(api, site)
    bound = site.attest()
    site.settle()
    answer = verify(api)
    assert answer["attestationId"] == bound.uid and answer["offchain"] is False


def test_the_batch_trpc_and_the_page_say_the_same(api, admin, site):
    admin.patch("/v1/admin/chains/31337", {"offchainUnanchored": True}, format="json")
    uid = submit(api, site)
    single = verify(api)
    (batched,) = api.post("/v1/verify/batch", {"documentHashes": [HASH]},
                          format="json").json()["results"]
    assert {k: v for k, v in batched.items() if k != "documentHash"} == single
    trpc = api.generic("POST", "/trpc/verify", json.dumps({"documentHash": HASH}),
                       content_type="application/json").json()["result"]["data"]
    assert trpc == single
    page = Client().get(f"/verify/{HASH}").content.decode()
    assert "Verified" in page and uid in page and "offchain" in page.lower()

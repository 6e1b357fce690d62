"""POST /attestations/offchain (issue 21, item 1): offchain attestations signed by the official
EAS SDK (npm, with ethers, run in node like the tRPC clients) against a real anvil chain with
the real EAS contracts, checked and stored as the SDK's own verification would; then listed
beside on-chain ones (`GET /attestations?offchain=true`), with the chain's facts about their
uid (an offchain revocation by the attester, a timestamp)."""

import json

import pytest
from django.core.cache import cache
from web3 import Web3

from attestations.indexer import index_chain
from attestations.models import OffchainAttestation
from attestations.schema import encode, parse
from tests.conftest import assert_problem
from tests.offchain import ANVIL_KEY, OTHER_KEY, message, require_sdk
from tests.offchain import sign as sign_packages

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

SCHEMA = "bytes32 documentHash,string title"
DOCUMENT = "0x" + "d0c" * 21 + "5"
URL = "/attestations/offchain"


@pytest.fixture
def site(eas_chain):
    """The chain with its EAS contracts indexed, the document schema registered."""
    require_sdk()
    cache.clear()  # the EAS version read from the chain is cached per deployment
    schema_uid = eas_chain.node.register_schema(SCHEMA)
    assert index_chain(eas_chain.chain).ok
    eas_chain.schema_uid = schema_uid
    return eas_chain


def sign(site, *, key=ANVIL_KEY, **items) -> list[dict]:
    """Packages the SDK signs: one per version by default, or `attestations=[...]`."""
    data = encode(parse(SCHEMA), (bytes.fromhex(DOCUMENT[2:]), "A diploma"))
    return sign_packages(site.node, [message(site.schema_uid, data, **a) for a in items.get(
        "attestations", [{"version": v} for v in (0, 1, 2)])], key=key)


def test_a_package_of_each_version_is_accepted_decoded_and_listed(api, site):
    for package in sign(site):
        response = api.post(URL, package, format="json")
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["uid"] == package["sig"]["uid"] and body["version"] == package["sig"]["version"]
        assert response["Location"] == f"/attestations/offchain/{body['uid']}"
        assert body["attester"] == package["signer"].lower() and body["chainId"] == 31337
        assert body["decoded"] == {"documentHash": DOCUMENT, "title": "A diploma"}
        assert body["documentHash"] == DOCUMENT and body["offchain"] is True
        assert body["timestampProven"] is False and body["revoked"] is False
        assert body["easAddress"] == site.node.deployment.eas.lower()
        again = api.post(URL, package, format="json")  # the same uid: the stored one
        assert again.status_code == 200 and again.json() == body
    listed = api.get("/attestations", {"offchain": "true", "documentHash": DOCUMENT}).json()
    assert {r["version"] for r in listed["results"]} == {0, 1, 2}
    assert api.get("/attestations", {"documentHash": DOCUMENT}).json()["results"] == []
    uid = listed["results"][0]["uid"]
    assert api.get(f"/attestations/offchain/{uid}").json()["uid"] == uid


@pytest.mark.parametrize("tamper, attr, code", [
    (lambda p: p["sig"]["signature"].update(s="0x" + "11" * 32), "sig.signature",
     "wrong_signature"),
    (lambda p: p.update(signer="0x" + "ab" * 20), "sig.signature", "wrong_signature"),
    (lambda p: p["sig"].update(uid="0x" + "22" * 32), "sig.uid", "wrong_uid"),
    (lambda p: p["sig"]["message"].update(data="0x" + "33" * 64), "sig.uid", "wrong_uid"),
    (lambda p: p["sig"]["domain"].update(version="0.26"), "sig.domain.version", "wrong_domain"),
    (lambda p: p["sig"]["domain"].update(chainId="1"), "sig.domain.chainId", "wrong_domain"),
    (lambda p: p["sig"]["domain"].update(verifyingContract="0x" + "44" * 20),
     "sig.domain.verifyingContract", "wrong_domain"),
    (lambda p: p["sig"].update(primaryType="Attestation"), "sig.types", "invalid_types"),
    (lambda p: p["sig"]["message"].update(time="-1"), "sig.message.time", "invalid"),
])
def test_a_tampered_package_is_refused_naming_what(api, site, tamper, attr, code):
    (package,) = sign(site, attestations=[{"version": 2}])
    tamper(package)
    problem = assert_problem(api.post(URL, package, format="json"), 400, "validation_error")
    assert [(e["attr"], e["code"]) for e in problem["errors"]] == [(attr, code)]
    assert not OffchainAttestation.objects.exists()


def test_a_package_signed_for_another_domain_is_refused(api, site):
    (package,) = sign(site, attestations=[{"version": 2, "domainVersion": "1.3.0"}])
    problem = assert_problem(api.post(URL, package, format="json"), 400)
    assert problem["errors"][0]["attr"] == "sig.domain.version"


def test_an_unknown_schema_is_refused(api, site):
    (package,) = sign(site, attestations=[{"version": 2, "schema": "0x" + "55" * 32}])
    problem = assert_problem(api.post(URL, package, format="json"), 400)
    assert [(e["attr"], e["code"]) for e in problem["errors"]] == [
        ("sig.message.schema", "unknown_schema")]


@pytest.mark.parametrize("body", [[], {"sig": []}, {"signer": "0x12"}, {"sig": {}, "signer": 5}])
def test_a_body_that_is_not_a_package_is_a_400(api, site, body):
    assert_problem(api.post(URL, body, format="json"), 400)


def test_the_attesters_offchain_revocation_and_a_timestamp_are_shown(api, site):
    (package,) = sign(site, attestations=[{"version": 2}])
    uid = api.post(URL, package, format="json").json()["uid"]
    eas = site.node.eas_contract()
    other = site.node.w3.eth.accounts[1]
    stamp = bytes.fromhex(uid[2:])
    for call, sender in [(eas.functions.revokeOffchain(stamp), other),  # not the attester
                         (eas.functions.timestamp(stamp), other)]:
        site.node.w3.eth.wait_for_transaction_receipt(call.transact({"from": sender}))
    assert index_chain(site.chain).ok
    body = api.get(f"/attestations/offchain/{uid}").json()
    assert body["revoked"] is False and body["timestampProven"] is True
    assert body["timestampedAt"] is not None
    attester = Web3.to_checksum_address(package["signer"])
    site.node.w3.eth.wait_for_transaction_receipt(
        eas.functions.revokeOffchain(stamp).transact({"from": attester}))
    assert index_chain(site.chain).ok
    body = api.get(f"/attestations/offchain/{uid}").json()
    assert body["revoked"] is True and body["revocationTime"] is not None
    assert [r["uid"] for r in api.get("/attestations", {"offchain": "true", "revoked": "true"})
            .json()["results"]] == [uid]


def test_another_signer_is_another_attester(api, site):
    (package,) = sign(site, key=OTHER_KEY, attestations=[{"version": 1}])
    body = api.post(URL, package, format="json").json()
    assert body["attester"] == Web3.to_checksum_address(package["signer"]).lower()
    assert body["attester"] == site.node.w3.eth.accounts[1].lower()


def test_trpc_submits_and_reads_an_offchain_attestation(api, site):
    (package,) = sign(site, attestations=[{"version": 2}])
    submitted = api.generic("POST", "/trpc/attestations.submitOffchain", json.dumps(package),
                            content_type="application/json")
    assert submitted.status_code == 200, submitted.content
    uid = submitted.json()["result"]["data"]["uid"]
    read = api.get("/trpc/attestations.getOffchain", {"input": json.dumps({"uid": uid})})
    assert read.json()["result"]["data"] == submitted.json()["result"]["data"]


@pytest.mark.parametrize("tamper", [
    lambda p: p["sig"].update(version=2.0),
    lambda p: p["sig"].update(version="2"),
    lambda p: p["sig"]["signature"].update(v="x"),
    lambda p: p["sig"]["signature"].update(r=None),
    lambda p: p["sig"].pop("signature"),
    lambda p: p["sig"].update(types=[1, 2]),
    lambda p: p["sig"]["message"].update(data="0xzz"),
    lambda p: p["sig"]["message"].update(extra="field"),
    lambda p: p["sig"]["message"].update(revocable="yes"),
    lambda p: p["sig"]["message"].update(expirationTime=2**64),
    lambda p: p["sig"]["domain"].update(chainId=True),
    lambda p: p["sig"]["domain"].pop("name"),
    lambda p: p["sig"].update(domain="EAS"),
    lambda p: p["sig"].update(message=None),
])
def test_any_malformed_package_is_a_400_never_a_500(api, site, tamper):
    (package,) = sign(site, attestations=[{"version": 2}])
    tamper(package)
    assert_problem(api.post(URL, package, format="json"), 400)
    assert not OffchainAttestation.objects.exists()

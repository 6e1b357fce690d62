"""An issuer's identity is proven by its domain, read from real servers: a DNS server and
an HTTPS server with a test CA (tests/issuers/conftest.py). Each check is kept with what it
saw and why; a proof that disappears makes the issuer lapsed, with a webhook event."""

import pytest
from django.core.management import call_command

from issuers.models import IdentityCheck, Issuer
from tests.factories import ChainFactory
from tests.issuers.conftest import DID_WEB_DOMAIN, did_document
from tests.webhooks.conftest import client_for, deliver_all, receiver, subscribe  # noqa: F401

pytestmark = pytest.mark.django_db
ADDRESS = "0x" + "ab" * 20
OTHER = "0x" + "cd" * 20


@pytest.fixture
def chain():
    return ChainFactory()


def create(admin, chain, domain, *addresses, name="Example University") -> dict:
    response = admin.post("/v1/admin/issuers", {
        "name": name, "domain": domain,
        "addresses": [{"chainId": chain.chain_id, "address": a} for a in addresses or [ADDRESS]],
    }, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def check(admin, issuer: dict) -> dict:
    response = admin.post(f"/v1/admin/issuers/{issuer['id']}/check")
    assert response.status_code == 200, response.content
    return response.json()


def checks(admin, issuer: dict, method: str) -> list[dict]:
    response = admin.get(f"/v1/admin/issuers/{issuer['id']}/checks")
    assert response.status_code == 200
    return [c for c in response.json() if c["method"] == method]


def test_an_openattestation_txt_record_proves_the_address(admin, chain, identity):
    identity.txt("example.edu", f"openatts net=ethereum netId={chain.chain_id} addr={ADDRESS}")
    issuer = check(admin, create(admin, chain, "example.edu"))
    assert issuer["identity"] == "proven"
    [address] = issuer["addresses"]
    assert address["identity"] == "proven"
    assert [p["method"] for p in address["proofs"]] == ["dns"]
    [record] = checks(admin, issuer, "dns")
    assert record["proven"] and record["dnssec"] is False
    assert "openatts" in record["seen"] and "not DNSSEC-authenticated" in record["reason"]


def test_our_own_txt_format_proves_the_address_and_dnssec_is_reported(admin, chain, identity):
    identity.authenticated()
    identity.txt("example.org", "v=spf1 -all",
                 f"eas-attester=eip155:{chain.chain_id}:{ADDRESS.upper().replace('X', 'x')}")
    issuer = check(admin, create(admin, chain, "example.org"))
    assert issuer["identity"] == "proven"
    [record] = checks(admin, issuer, "dns")
    assert record["proven"] and record["dnssec"] is True
    assert "not DNSSEC" not in record["reason"]


def test_a_did_web_document_proves_the_address(admin, chain, identity):
    identity.did_document(did_document(DID_WEB_DOMAIN, f"eip155:{chain.chain_id}:{ADDRESS}"))
    issuer = check(admin, create(admin, chain, DID_WEB_DOMAIN))
    assert issuer["identity"] == "proven"
    assert [p["method"] for p in issuer["addresses"][0]["proofs"]] == ["did_web"]
    [record] = checks(admin, issuer, "did_web")
    assert record["proven"] and "did:web:localhost" in record["seen"]


def test_a_proof_that_disappears_makes_the_issuer_lapsed_with_a_webhook_event(
        admin, admin_key, chain, identity, receiver, settings):  # noqa: F811
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # the receiver is on 127.0.0.1
    _, secret = subscribe(client_for(admin_key), receiver.url, ["issuer.identity_lapsed"])
    identity.txt("example.edu", f"openatts net=ethereum netId={chain.chain_id} addr={ADDRESS}")
    issuer = create(admin, chain, "example.edu")
    assert check(admin, issuer)["identity"] == "proven"

    identity.txt("example.edu")  # the record is gone
    lapsed = check(admin, issuer)
    assert lapsed["identity"] == "lapsed" and lapsed["addresses"][0]["proofs"] == []
    assert check(admin, issuer)["identity"] == "lapsed"  # one event, at the transition

    deliver_all()
    [payload] = [r.verified(secret) for r in receiver.received]
    assert payload["type"] == "issuer.identity_lapsed"
    assert payload["data"]["domain"] == "example.edu"
    [gone] = payload["data"]["addresses"]
    assert gone["address"] == ADDRESS and "has no TXT record" in " ".join(gone["reasons"])
    assert IdentityCheck.objects.filter(issuer_id=issuer["id"], method="dns").count() == 3


def test_a_proof_that_comes_back_proves_again(admin, chain, identity):
    identity.did_document(did_document(DID_WEB_DOMAIN, f"eip155:{chain.chain_id}:{ADDRESS}"))
    issuer = create(admin, chain, DID_WEB_DOMAIN)
    check(admin, issuer)
    identity.did_document(None)
    assert check(admin, issuer)["identity"] == "lapsed"
    assert "HTTP 404" in checks(admin, issuer, "did_web")[0]["reason"]
    identity.did_document(did_document(DID_WEB_DOMAIN, f"eip155:{chain.chain_id}:{ADDRESS}"))
    assert check(admin, issuer)["identity"] == "proven"


@pytest.mark.parametrize("record, reason", [
    ("openatts net=ethereum netId=1 addr={address}", "names {address} on chain 1, not on {chain}"),
    ("openatts net=ethereum netId={chain} addr=" + OTHER,
     "names other addresses on chain {chain}: " + OTHER),
    ("eas-attester=eip155:{chain}:0x1234", "names no attester address"),
])
def test_a_txt_record_naming_something_else_proves_nothing(admin, chain, identity, record,
                                                          reason):
    values = {"chain": chain.chain_id, "address": ADDRESS}
    identity.txt("example.edu", record.format(**values))
    issuer = check(admin, create(admin, chain, "example.edu"))
    assert issuer["identity"] == "unproven"
    [found] = checks(admin, issuer, "dns")
    assert not found["proven"] and reason.format(**values) in found["reason"]


@pytest.mark.parametrize("setup, reason", [
    (lambda identity: None, "does not exist (NXDOMAIN)"),
    (lambda identity: identity.slow("example.edu"), "timed out after 1 s"),
])
def test_a_domain_that_does_not_answer_proves_nothing(admin, chain, identity, setup, reason):
    setup(identity)
    issuer = check(admin, create(admin, chain, "example.edu"))
    assert issuer["identity"] == "unproven"
    [found] = checks(admin, issuer, "dns")
    assert not found["proven"] and reason in found["reason"]
    [web] = checks(admin, issuer, "did_web")
    assert not web["proven"] and "does not resolve" in web["reason"]


def test_a_did_document_of_10_mb_is_refused(admin, chain, identity):
    document = did_document(DID_WEB_DOMAIN, f"eip155:{chain.chain_id}:{ADDRESS}")
    document["padding"] = "x" * (10 * 1024 * 1024)
    identity.did_document(document)
    issuer = check(admin, create(admin, chain, DID_WEB_DOMAIN))
    assert issuer["identity"] == "unproven"
    [found] = checks(admin, issuer, "did_web")
    assert "response too large" in found["reason"]


def test_a_did_document_that_redirects_to_the_metadata_service_is_refused(admin, chain, identity):
    identity.redirect("http://169.254.169.254/latest/meta-data/")
    issuer = check(admin, create(admin, chain, DID_WEB_DOMAIN))
    assert issuer["identity"] == "unproven"
    [found] = checks(admin, issuer, "did_web")
    assert "redirect refused (to http://169.254.169.254/" in found["reason"]


def test_a_did_document_of_another_did_proves_nothing(admin, chain, identity):
    identity.did_document(did_document("example.edu", f"eip155:{chain.chain_id}:{ADDRESS}"))
    issuer = check(admin, create(admin, chain, DID_WEB_DOMAIN))
    [found] = checks(admin, issuer, "did_web")
    assert not found["proven"] and "is not the DID document of did:web:localhost" in found["reason"]


def test_private_addresses_are_refused_unless_allowed(admin, chain, identity, settings):
    settings.IDENTITY_ALLOW_PRIVATE = False
    identity.did_document(did_document(DID_WEB_DOMAIN, f"eip155:{chain.chain_id}:{ADDRESS}"))
    issuer = check(admin, create(admin, chain, DID_WEB_DOMAIN))
    assert issuer["identity"] == "unproven"
    [found] = checks(admin, issuer, "did_web")
    assert "address refused" in found["reason"]


def test_a_server_whose_certificate_is_not_trusted_proves_nothing(admin, chain, identity,
                                                                  settings):
    settings.IDENTITY_HTTPS_CA_BUNDLE = ""  # the system's authorities: not the test CA
    identity.did_document(did_document(DID_WEB_DOMAIN, f"eip155:{chain.chain_id}:{ADDRESS}"))
    issuer = check(admin, create(admin, chain, DID_WEB_DOMAIN))
    [found] = checks(admin, issuer, "did_web")
    assert not found["proven"] and "TLS certificate not trusted" in found["reason"]


def test_every_address_must_be_proven_for_the_issuer_to_be(admin, chain, identity):
    identity.txt("example.edu", f"openatts net=ethereum netId={chain.chain_id} addr={ADDRESS}")
    issuer = check(admin, create(admin, chain, "example.edu", ADDRESS, OTHER))
    assert issuer["identity"] == "unproven"
    assert {a["address"]: a["identity"] for a in issuer["addresses"]} == {
        ADDRESS: "proven", OTHER: "unproven"}


def test_saving_an_issuer_checks_it_and_the_command_checks_those_due(
        admin, chain, identity, django_capture_on_commit_callbacks, settings):
    identity.txt("example.edu", f"openatts net=ethereum netId={chain.chain_id} addr={ADDRESS}")
    with django_capture_on_commit_callbacks(execute=True):
        issuer = create(admin, chain, "example.edu")
    assert Issuer.objects.get(pk=issuer["id"]).identity == "proven"

    identity.txt("example.edu")
    call_command("check_issuers")  # not due yet: checked just now
    assert Issuer.objects.get(pk=issuer["id"]).identity == "proven"
    settings.IDENTITY_CHECK_INTERVAL_SECONDS = 1
    Issuer.objects.filter(pk=issuer["id"]).update(checked_at="2020-01-01T00:00:00Z")
    call_command("check_issuers")
    assert Issuer.objects.get(pk=issuer["id"]).identity == "lapsed"

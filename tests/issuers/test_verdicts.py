"""Verdicts name the issuer: POST /v1/verify, its batch, tRPC, manage.py verify_document and
the public page carry `issuer` (the issuer of the attester, with how its identity stands),
proven by a real DNS server (tests/issuers/conftest.py); never the executor's own name."""

import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from executors.models import Executor
from tests.factories import TrustedAttesterFactory
from tests.verification.conftest import EXECUTOR, attest_by_the_executor, indexed_chain

pytestmark = pytest.mark.django_db
HASH = "0x" + "d1" * 32
CHECKED_AT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


@pytest.fixture
def chain():
    chain = indexed_chain(chain_id=31337, short_name="anvil", name="Anvil Local",
                          confirmations=12)
    attest_by_the_executor(chain, document_hash=HASH, block_number=950)
    return chain


@pytest.fixture
def proven(admin, chain, identity) -> dict:
    """Example University, proven by a DNS TXT record of example.edu naming the executor."""
    identity.txt("example.edu", f"openatts net=ethereum netId=31337 addr={EXECUTOR}")
    issuer = admin.post("/v1/admin/issuers", {
        "name": "Example University", "domain": "example.edu",
        "addresses": [{"chainId": 31337, "address": EXECUTOR}]}, format="json").json()
    answer = admin.post(f"/v1/admin/issuers/{issuer['id']}/check").json()
    assert answer["identity"] == "proven"
    return answer


def verify(api) -> dict:
    response = api.post("/v1/verify", {"documentHash": HASH}, format="json")
    assert response.status_code == 200
    return response.json()


def page() -> str:
    response = Client().get(f"/verify/{HASH}")
    assert response.status_code == 200
    return response.content.decode()


def test_a_verdict_names_the_proven_issuer_of_its_attester(api, proven):
    answer = verify(api)
    assert answer["verified"] is True
    issuer = answer["issuer"]
    assert {k: issuer[k] for k in ("name", "domain", "identity")} == {
        "name": "Example University", "domain": "example.edu", "identity": "proven"}
    [proof] = issuer["proofs"]
    assert proof["method"] == "dns" and CHECKED_AT.match(proof["checkedAt"])


def test_the_batch_trpc_and_the_json_page_name_the_same_issuer(api, proven):
    single = verify(api)
    [batched] = api.post("/v1/verify/batch", {"documentHashes": [HASH]},
                         format="json").json()["results"]
    assert batched["issuer"] == single["issuer"]
    trpc = api.generic("POST", "/trpc/verify", json.dumps({"documentHash": HASH}),
                       content_type="application/json").json()["result"]["data"]
    assert trpc["issuer"] == single["issuer"]
    assert Client().get(f"/verify/{HASH}?format=json").json()["issuer"] == single["issuer"]


def test_a_removed_record_lapses_the_issuer_in_the_verdict_at_the_next_check(
        admin, api, proven, identity):
    identity.txt("example.edu")
    admin.post(f"/v1/admin/issuers/{proven['id']}/check")
    answer = verify(api)
    assert answer["verified"] is True  # `verified` keeps its meaning
    assert answer["issuer"]["identity"] == "lapsed" and answer["issuer"]["proofs"] == []
    html = page()
    assert "identity <strong>no longer proven</strong>" in html
    assert "Warning: The identity of this issuer is no longer proven" in html


def test_an_attester_without_an_issuer_names_none(api, chain):
    assert verify(api)["issuer"] is None
    assert "<strong>not identified</strong>" in page()


def test_the_page_says_who_issued_it_and_how_that_is_proven(proven):
    html = page()
    assert ('<strong id="issuer-name">Example University</strong> (<span id="issuer-domain">'
            'example.edu</span>) — identity proven by DNS, checked just now') in html
    assert 'id="issuer-warning"' not in html


def test_an_executor_named_like_a_proven_issuer_is_not_shown_as_it(admin, api, chain, identity):
    """Impersonation: the executor calls itself "Example University"; the real one is proven
    for another address. The page names no issuer and warns."""
    identity.txt("example.edu", "openatts net=ethereum netId=31337 addr=0x" + "aa" * 20)
    issuer = admin.post("/v1/admin/issuers", {
        "name": "Example University", "domain": "example.edu",
        "addresses": [{"chainId": 31337, "address": "0x" + "aa" * 20}]}, format="json").json()
    admin.post(f"/v1/admin/issuers/{issuer['id']}/check")
    Executor.objects.filter(address=EXECUTOR).update(name="Example University")
    assert verify(api)["issuer"] is None
    html = page()
    assert "Example University" not in html
    assert "No organisation has proven that it issued this document" in html


def test_an_issuer_claiming_an_address_its_domain_does_not_name_is_unproven(admin, api, chain,
                                                                          identity):
    """An administrator's record alone proves nothing: the domain must name the address."""
    identity.txt("example.edu", "openatts net=ethereum netId=31337 addr=0x" + "aa" * 20)
    issuer = admin.post("/v1/admin/issuers", {
        "name": "Example University", "domain": "example.edu",
        "addresses": [{"chainId": 31337, "address": EXECUTOR}]}, format="json").json()
    admin.post(f"/v1/admin/issuers/{issuer['id']}/check")
    assert verify(api)["issuer"]["identity"] == "unproven"
    assert "Warning: The identity of this issuer is not proven" in page()


def test_a_deployment_may_require_a_proven_issuer(admin, api, proven, identity, settings):
    settings.VERIFY_REQUIRE_PROVEN_ISSUER = True
    assert verify(api)["verified"] is True
    identity.txt("example.edu")
    admin.post(f"/v1/admin/issuers/{proven['id']}/check")
    answer = verify(api)
    assert (answer["verified"], answer["reason"]) == (False, "unproven_issuer")
    assert answer["attestationId"] is None and answer["issuer"] is None
    [batched] = api.post("/v1/verify/batch", {"documentHashes": [HASH]},
                         format="json").json()["results"]
    assert batched["reason"] == "unproven_issuer"
    assert "whose issuer has proven its identity" in page()
    settings.VERIFY_REQUIRE_PROVEN_ISSUER = False  # `verified` keeps its meaning by default
    assert verify(api)["verified"] is True


def test_with_the_requirement_a_later_attestation_by_a_proven_issuer_answers(
        admin, api, chain, identity, settings):
    """The requirement is a rule: the earliest attestation (its attester has no issuer)
    does not verify, the next one (a trusted attester proven by example.org) does."""
    other = "0x" + "bb" * 20
    TrustedAttesterFactory(chain=chain, address=other)
    later = attest_by_the_executor(chain, document_hash=HASH, block_number=960, attester=other,
                                   time=timezone.now() + timedelta(minutes=1))
    identity.txt("example.org", f"eas-attester=eip155:31337:{other}")
    issuer = admin.post("/v1/admin/issuers", {
        "name": "Example Org", "domain": "example.org",
        "addresses": [{"chainId": 31337, "address": other}]}, format="json").json()
    admin.post(f"/v1/admin/issuers/{issuer['id']}/check")
    assert verify(api)["attester"] == EXECUTOR  # the earliest, whoever issued it
    settings.VERIFY_REQUIRE_PROVEN_ISSUER = True
    answer = verify(api)
    assert answer["attestationId"] == later.uid and answer["issuer"]["name"] == "Example Org"


def test_the_command_prints_the_issuer(proven, capsys):
    call_command("verify_document", HASH)
    out = capsys.readouterr().out
    assert re.search(r"issuer +Example University \(example\.edu\), identity proven: dns "
                     r"checked \d{4}-", out), out

"""The admin API of issuers: /v1/admin/issuers (admin keys only; strict input; a failed
request writes nothing). Their proofs are tested in test_identity_proofs.py."""

import pytest

from issuers.models import Issuer, IssuerAddress
from tests.conftest import assert_problem
from tests.factories import ChainFactory

pytestmark = pytest.mark.django_db
URL = "/v1/admin/issuers"
ADDRESS = "0x" + "ab" * 20


@pytest.fixture
def chain():
    return ChainFactory()


def body(chain, **fields) -> dict:
    return {"name": "Example University", "domain": "example.edu",
            "addresses": [{"chainId": chain.chain_id, "address": ADDRESS}], **fields}


def test_an_admin_creates_an_issuer_and_reads_it_back(admin, chain):
    response = admin.post(URL, body(chain, domain="Example.EDU."), format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    assert response["Location"] == f"{URL}/{created['id']}"
    assert created["domain"] == "example.edu" and created["identity"] == "unproven"
    assert created["addresses"] == [{"chainId": chain.chain_id, "address": ADDRESS,
                                     "identity": "unproven", "proofs": []}]
    assert admin.get(f"{URL}/{created['id']}").json() == created
    assert [i["id"] for i in admin.get(URL, {"identity": "unproven"}).json()["results"]] == [
        created["id"]]


def test_other_keys_cannot_see_or_change_issuers(api_key, chain):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_key}")
    assert_problem(client.get(URL), 403)
    assert_problem(client.post(URL, body(chain), format="json"), 403)
    assert not Issuer.objects.exists()


@pytest.mark.parametrize("domain", ["https://example.edu", "example.edu:443", "10.0.0.1",
                                    "exa mple.edu", "-bad.edu", "example.edu/path", ""])
def test_a_domain_that_is_not_a_name_is_refused(admin, chain, domain):
    problem = assert_problem(admin.post(URL, body(chain, domain=domain), format="json"), 400)
    assert problem["errors"][0]["attr"] == "domain"
    assert not Issuer.objects.exists()


def test_an_address_of_another_issuer_is_a_conflict_naming_it(admin, chain):
    assert admin.post(URL, body(chain), format="json").status_code == 201
    problem = assert_problem(admin.post(URL, body(chain, domain="other.edu"), format="json"),
                             409)
    assert "belongs to issuer example.edu" in str(problem), problem
    assert Issuer.objects.count() == 1


def test_one_issuer_per_domain(admin, chain):
    admin.post(URL, body(chain), format="json")
    assert_problem(admin.post(URL, body(chain, addresses=[]), format="json"), 409)


def test_a_patch_replaces_the_addresses_and_keeps_the_kept_ones_proofs(admin, chain):
    created = admin.post(URL, body(chain), format="json").json()
    IssuerAddress.objects.update(identity="proven")
    other = "0x" + "cd" * 20
    response = admin.patch(f"{URL}/{created['id']}", {"addresses": [
        {"chainId": chain.chain_id, "address": ADDRESS.upper().replace("X", "x")},
        {"chainId": chain.chain_id, "address": other}]}, format="json")
    assert response.status_code == 200, response.content
    assert {a["address"]: a["identity"] for a in response.json()["addresses"]} == {
        ADDRESS: "proven", other: "unproven"}


def test_bad_addresses_are_refused_and_nothing_is_written(admin, chain):
    twice = [{"chainId": chain.chain_id, "address": ADDRESS}] * 2
    assert_problem(admin.post(URL, body(chain, addresses=twice), format="json"), 400)
    assert_problem(admin.post(URL, body(chain, addresses=[
        {"chainId": chain.chain_id, "address": "0x1234"}]), format="json"), 400)
    assert_problem(admin.post(URL, body(chain, addresses=[
        {"chainId": 999_999_999, "address": ADDRESS}]), format="json"), 400)
    assert_problem(admin.post(URL, body(chain, unknown=1), format="json"), 400)
    assert not Issuer.objects.exists() and not IssuerAddress.objects.exists()


def test_the_identity_is_not_writable(admin, chain):
    created = admin.post(URL, body(chain, identity="proven"), format="json").json()
    assert created["identity"] == "unproven"


def test_deleting_an_issuer_removes_its_addresses(admin, chain):
    created = admin.post(URL, body(chain), format="json").json()
    assert admin.delete(f"{URL}/{created['id']}").status_code == 204
    assert not IssuerAddress.objects.exists()

"""Deployments through the admin API: /v1/admin/deployments."""

import pytest

from registry.models import Chain, Deployment
from tests.conftest import assert_problem
from tests.factories import (
    ChainFactory,
    ContractNameFactory,
    ContractVersionFactory,
    DeploymentFactory,
)

URL = "/v1/admin/deployments"

# EIP-55's own examples: a checksummed address, and its lowercase form.
CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
LOWER = CHECKSUMMED.lower()
BAD_CHECKSUM = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"  # one letter's case flipped
TX_HASH = "0x" + "Ab" * 32

pytestmark = pytest.mark.django_db


@pytest.fixture
def chain():
    return ChainFactory(chain_id=31337, short_name="anvil")


@pytest.fixture
def version():
    return ContractVersionFactory(contract_name=ContractNameFactory(name="eas"), version="1.3.0")


def deployment_body(chain, version, /, **overrides) -> dict:
    body = {"chainId": chain.chain_id, "contractVersion": version.pk, "address": CHECKSUMMED,
            "startBlock": 1234, "txHash": TX_HASH, "kind": "eas"}
    body.update(overrides)
    return {k: v for k, v in body.items() if v is not ...}


def attrs(body: dict) -> set[str]:
    return {error["attr"] for error in body["errors"]}


# --- create -------------------------------------------------------------------------------


def test_creating_a_deployment_returns_it_and_stores_hex_in_lowercase(admin, chain, version):
    response = admin.post(URL, deployment_body(chain, version), format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body == {
        "id": body["id"], "chainId": 31337, "contractVersion": version.pk, "contractName": "eas",
        "address": LOWER, "startBlock": 1234, "txHash": TX_HASH.lower(), "kind": "eas",
        "createdAt": body["createdAt"],
    }
    assert body["createdAt"].endswith("Z")
    stored = Deployment.objects.get(pk=body["id"])
    assert (stored.chain_id, stored.contract_version_id) == (31337, version.pk)
    assert (stored.address, stored.tx_hash) == (LOWER, TX_HASH.lower())
    assert (stored.start_block, stored.kind) == (1234, "eas")


def test_a_deployment_gets_defaults_for_what_is_not_given(admin, chain, version):
    response = admin.post(URL, {"chainId": 31337, "contractVersion": version.pk, "address": LOWER},
                          format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["kind"], body["startBlock"], body["txHash"]) == ("other", 0, None)
    assert Deployment.objects.get().kind == "other"


@pytest.mark.parametrize("address", [LOWER, "0x" + LOWER[2:].upper(), CHECKSUMMED,
                                     "0X" + LOWER[2:], "0X" + CHECKSUMMED[2:]])
def test_an_address_in_one_case_or_checksummed_is_accepted(admin, chain, version, address):
    response = admin.post(URL, deployment_body(chain, version, address=address), format="json")

    assert response.status_code == 201, response.content
    assert response.json()["address"] == LOWER
    assert Deployment.objects.get().address == LOWER


@pytest.mark.parametrize("kind", ["eas", "schema_registry", "other"])
def test_every_kind_is_accepted(admin, chain, version, kind):
    response = admin.post(URL, deployment_body(chain, version, kind=kind), format="json")

    assert response.status_code == 201
    assert Deployment.objects.get().kind == kind


def test_a_deployment_on_an_inactive_chain_can_be_registered(admin, version):
    inactive = ChainFactory(status=Chain.Status.INACTIVE)

    response = admin.post(URL, deployment_body(inactive, version), format="json")

    assert response.status_code == 201
    assert Deployment.objects.get().chain_id == inactive.chain_id


INVALID_DEPLOYMENTS = [
    # (overrides, attr)
    ({"address": ...}, "address"),
    ({"address": None}, "address"),
    ({"address": ""}, "address"),
    ({"address": BAD_CHECKSUM}, "address"),
    ({"address": LOWER[2:]}, "address"),              # no 0x
    ({"address": LOWER[:-1]}, "address"),              # 39 digits
    ({"address": LOWER + "0"}, "address"),             # 41 digits
    ({"address": "0x" + "g" * 40}, "address"),
    ({"address": " " + LOWER}, "address"),
    ({"address": "0x" + "ab" * 32}, "address"),        # a 32-byte value, not an address
    ({"address": int(LOWER, 16)}, "address"),
    ({"txHash": "0x1234"}, "txHash"),
    ({"txHash": "0x" + "a" * 63}, "txHash"),
    ({"txHash": "0x" + "a" * 65}, "txHash"),
    ({"txHash": "a" * 64}, "txHash"),
    ({"txHash": "0x" + "z" * 64}, "txHash"),
    ({"txHash": LOWER}, "txHash"),
    ({"txHash": 5}, "txHash"),
    ({"chainId": ...}, "chainId"),
    ({"chainId": 424242}, "chainId"),                 # not registered
    ({"chainId": 0}, "chainId"),
    ({"chainId": -31337}, "chainId"),
    ({"chainId": 9223372036854775772}, "chainId"),
    ({"chainId": 2**70}, "chainId"),
    ({"chainId": "31337"}, "chainId"),
    ({"chainId": True}, "chainId"),
    ({"chainId": 31337.0}, "chainId"),
    ({"chainId": None}, "chainId"),
    ({"contractVersion": ...}, "contractVersion"),
    ({"contractVersion": 424242}, "contractVersion"),
    ({"contractVersion": "1"}, "contractVersion"),
    ({"contractVersion": True}, "contractVersion"),
    ({"contractVersion": 1.5}, "contractVersion"),
    ({"contractVersion": "eas@1.3.0"}, "contractVersion"),
    ({"startBlock": -1}, "startBlock"),
    ({"startBlock": "100"}, "startBlock"),
    ({"startBlock": 1.5}, "startBlock"),
    ({"startBlock": 2**63}, "startBlock"),
    ({"startBlock": True}, "startBlock"),
    ({"kind": "proxy"}, "kind"),
    ({"kind": "EAS"}, "kind"),
    ({"kind": ""}, "kind"),
    ({"kind": 1}, "kind"),
    ({"abi": []}, "abi"),
    ({"chain": 31337}, "chain"),
]


@pytest.mark.parametrize(("overrides", "attr"), INVALID_DEPLOYMENTS)
def test_creating_a_deployment_with_an_invalid_field_is_a_400_naming_it(
    admin, chain, version, overrides, attr
):
    response = admin.post(URL, deployment_body(chain, version, **overrides), format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attr in attrs(body), body
    assert Deployment.objects.count() == 0


def test_a_mixed_case_address_failing_its_checksum_says_so(admin, chain, version):
    response = admin.post(URL, deployment_body(chain, version, address=BAD_CHECKSUM), format="json")

    body = assert_problem(response, 400, "validation_error")
    assert body["errors"][0]["attr"] == "address"
    assert "EIP-55" in body["errors"][0]["detail"]


def test_the_same_address_twice_on_a_chain_is_a_409_naming_the_address(admin, chain, version):
    existing = DeploymentFactory(chain=chain, address=LOWER, kind="eas", start_block=1)

    response = admin.post(URL, deployment_body(chain, version, kind="other"), format="json")

    body = assert_problem(response, 409, "duplicate")
    assert attrs(body) == {"address"}
    assert Deployment.objects.count() == 1
    existing.refresh_from_db()
    assert (existing.kind, existing.start_block) == ("eas", 1)


@pytest.mark.parametrize("spelling", [LOWER, "0x" + LOWER[2:].upper(), CHECKSUMMED])
def test_an_address_is_the_same_in_any_case(admin, chain, version, spelling):
    DeploymentFactory(chain=chain, address=LOWER)

    response = admin.post(URL, deployment_body(chain, version, address=spelling), format="json")

    assert_problem(response, 409, "duplicate")
    assert Deployment.objects.count() == 1


def test_the_same_address_on_another_chain_is_fine(admin, chain, version):
    DeploymentFactory(chain=ChainFactory(chain_id=1), address=LOWER)

    response = admin.post(URL, deployment_body(chain, version), format="json")

    assert response.status_code == 201, response.content
    assert set(Deployment.objects.values_list("chain_id", flat=True)) == {1, 31337}


# --- read ---------------------------------------------------------------------------------


def test_retrieving_a_deployment(admin):
    deployment = DeploymentFactory(address=LOWER, kind="schema_registry", start_block=7)

    response = admin.get(f"{URL}/{deployment.pk}")

    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["chainId"]) == (deployment.pk, deployment.chain_id)
    assert body["address"] == LOWER
    assert (body["kind"], body["startBlock"]) == ("schema_registry", 7)
    assert body["contractName"] == deployment.contract_version.contract_name.name


@pytest.mark.parametrize("pk", ["424242", "99999999999999999999999", "abc"])
def test_an_unknown_deployment_is_a_404(admin, pk):
    DeploymentFactory()

    assert_problem(admin.get(f"{URL}/{pk}"), 404, "not_found")


@pytest.fixture
def several():
    """Deployments on two chains, of two contracts and several kinds."""
    one, anvil = ChainFactory(chain_id=1), ChainFactory(chain_id=31337)
    eas = ContractVersionFactory(contract_name=ContractNameFactory(name="eas"))
    registry = ContractVersionFactory(contract_name=ContractNameFactory(name="schema-registry"))
    return {
        "eas-1": DeploymentFactory(chain=one, contract_version=eas, kind="eas", address=LOWER),
        "reg-1": DeploymentFactory(chain=one, contract_version=registry, kind="schema_registry"),
        "eas-anvil": DeploymentFactory(chain=anvil, contract_version=eas, kind="eas"),
        "other-anvil": DeploymentFactory(chain=anvil, contract_version=eas, kind="other"),
    }


@pytest.mark.parametrize(("params", "expected"), [
    ({}, ["eas-1", "reg-1", "eas-anvil", "other-anvil"]),
    ({"chainId": "1"}, ["eas-1", "reg-1"]),
    ({"chainId": "31337"}, ["eas-anvil", "other-anvil"]),
    ({"chainId": "5"}, []),
    ({"kind": "eas"}, ["eas-1", "eas-anvil"]),
    ({"kind": "schema_registry"}, ["reg-1"]),
    ({"chainId": "31337", "kind": "eas"}, ["eas-anvil"]),
    ({"address": LOWER}, ["eas-1"]),
    ({"address": CHECKSUMMED}, ["eas-1"]),
    ({"contractName": "schema-registry"}, ["reg-1"]),
    ({"contractName": "eas", "chainId": "1"}, ["eas-1"]),
    ({"contractName": "nope"}, []),
])
def test_deployments_are_filtered(admin, several, params, expected):
    response = admin.get(URL, params)

    assert response.status_code == 200
    ids = [d["id"] for d in response.json()["results"]]
    assert ids == [several[name].pk for name in expected]


def test_deployments_are_filtered_by_contract_version(admin, several):
    version = several["reg-1"].contract_version

    response = admin.get(URL, {"contractVersion": version.pk})

    assert [d["id"] for d in response.json()["results"]] == [several["reg-1"].pk]


@pytest.mark.parametrize(("params", "attr"), [
    ({"kind": "proxy"}, "kind"), ({"chainId": "mainnet"}, "chainId"),
    ({"contractVersion": "x"}, "contractVersion"),
    # The one address filter (core/filters.py): checked, not matched against nothing.
    ({"address": LOWER[:-1]}, "address"), ({"address": BAD_CHECKSUM}, "address"),
])
def test_an_invalid_deployment_filter_is_a_400_naming_it(admin, several, params, attr):
    response = admin.get(URL, params)

    body = assert_problem(response, 400, "validation_error")
    assert attr in attrs(body)


def test_listing_deployments_is_paginated(admin, several):
    first = admin.get(URL, {"limit": 3}).json()
    second = admin.get(first["next"]).json()

    assert len(first["results"]) == 3
    assert "offset=3" in first["next"]
    assert [d["id"] for d in second["results"]] == [several["other-anvil"].pk]
    assert second["next"] is None


# --- update -------------------------------------------------------------------------------


def test_patching_kind_start_block_and_tx_hash(admin):
    deployment = DeploymentFactory(kind="other", start_block=0, tx_hash=None)

    response = admin.patch(f"{URL}/{deployment.pk}",
                           {"kind": "eas", "startBlock": 99, "txHash": TX_HASH}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["kind"], body["startBlock"], body["txHash"]) == ("eas", 99, TX_HASH.lower())
    deployment.refresh_from_db()
    assert (deployment.kind, deployment.start_block) == ("eas", 99)
    assert deployment.tx_hash == TX_HASH.lower()


def test_patching_the_contract_version_of_a_deployment(admin):
    deployment = DeploymentFactory()
    newer = ContractVersionFactory(contract_name=ContractNameFactory(name="eas-v2"))

    response = admin.patch(f"{URL}/{deployment.pk}", {"contractVersion": newer.pk}, format="json")

    assert response.status_code == 200
    assert response.json()["contractName"] == "eas-v2"
    deployment.refresh_from_db()
    assert deployment.contract_version_id == newer.pk


@pytest.mark.parametrize(("field", "value"), [
    ("address", "0x" + "1" * 40),
    ("chainId", 1),
])
def test_the_chain_and_address_of_a_deployment_are_immutable(admin, chain, field, value):
    ChainFactory(chain_id=1)
    deployment = DeploymentFactory(chain=chain, address=LOWER, start_block=5)

    response = admin.patch(f"{URL}/{deployment.pk}", {field: value, "startBlock": 6}, format="json")

    body = assert_problem(response, 400, "validation_error")
    assert [(e["attr"], e["code"]) for e in body["errors"]] == [(field, "immutable")]
    deployment.refresh_from_db()
    assert (deployment.chain_id, deployment.address, deployment.start_block) == (31337, LOWER, 5)


def test_sending_the_address_back_checksummed_is_not_a_change(admin, chain):
    deployment = DeploymentFactory(chain=chain, address=LOWER)

    response = admin.patch(f"{URL}/{deployment.pk}",
                           {"address": CHECKSUMMED, "chainId": 31337, "kind": "eas"}, format="json")

    assert response.status_code == 200, response.content
    deployment.refresh_from_db()
    assert (deployment.address, deployment.kind) == (LOWER, "eas")


@pytest.mark.parametrize(("payload", "attr"), [
    ({"startBlock": -5}, "startBlock"),
    ({"txHash": "0xabc"}, "txHash"),
    ({"kind": "proxy"}, "kind"),
    ({"contractVersion": 424242}, "contractVersion"),
    ({"address": BAD_CHECKSUM}, "address"),
    ({"label": "x"}, "label"),
])
def test_patching_with_an_invalid_field_is_a_400_and_changes_nothing(admin, payload, attr):
    deployment = DeploymentFactory(kind="other", start_block=5)
    before = Deployment.objects.values().get(pk=deployment.pk)

    response = admin.patch(f"{URL}/{deployment.pk}", {"kind": "eas", **payload}, format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attr in attrs(body)
    assert Deployment.objects.values().get(pk=deployment.pk) == before


def test_patching_an_unknown_deployment_is_a_404(admin):
    assert_problem(admin.patch(f"{URL}/424242", {"kind": "eas"}, format="json"), 404, "not_found")


# --- delete -------------------------------------------------------------------------------


def test_deleting_a_deployment_lets_its_chain_be_deleted(admin, chain):
    deployment = DeploymentFactory(chain=chain)

    assert admin.delete(f"/v1/admin/chains/{chain.chain_id}").status_code == 409
    response = admin.delete(f"{URL}/{deployment.pk}")

    assert response.status_code == 204
    assert not Deployment.objects.exists()
    assert admin.delete(f"/v1/admin/chains/{chain.chain_id}").status_code == 204
    assert not Chain.objects.filter(pk=chain.chain_id).exists()


def test_deleting_an_unknown_deployment_is_a_404(admin):
    DeploymentFactory()

    assert_problem(admin.delete(f"{URL}/424242"), 404, "not_found")
    assert Deployment.objects.count() == 1

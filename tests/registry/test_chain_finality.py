"""A chain's finality rule and stall setting (issue 38 item 4): an administrator's choice
through the admin API, which import_chains leaves alone."""

import json

import pytest

from registry.models import Chain
from tests.conftest import assert_problem
from tests.factories import ChainFactory
from tests.registry.test_import_chains import MAINNET, run_import

pytestmark = pytest.mark.django_db


def test_an_administrator_sets_the_finality_rule_and_the_stall_blocks(admin):
    ChainFactory(chain_id=1, short_name="eth")
    response = admin.patch("/v1/admin/chains/1", {"finality": "finalized", "stallBlocks": 30},
                           format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["finality"], response.json()["stallBlocks"]) == ("finalized", 30)
    assert Chain.objects.filter(pk=1, finality="finalized", stall_blocks=30).exists()
    assert admin.get("/v1/admin/chains/1").json()["finality"] == "finalized"


@pytest.mark.parametrize("body", [{"finality": "probably"}, {"stallBlocks": 0},
                                  {"finality": None}])
def test_a_wrong_rule_is_a_400_that_changes_nothing(admin, body):
    ChainFactory(chain_id=1, short_name="eth")
    response = admin.patch("/v1/admin/chains/1", body, format="json")
    assert_problem(response, 400)
    assert response.json()["errors"][0]["attr"] == next(iter(body))
    assert Chain.objects.filter(pk=1, finality="confirmations", stall_blocks=None).exists()


def test_a_new_chain_counts_confirmations_by_default(admin):
    response = admin.post("/v1/admin/chains", {"chainId": 5, "name": "Five",
                                               "shortName": "five"}, format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["finality"], response.json()["stallBlocks"]) == (
        "confirmations", None)


def test_an_import_leaves_the_finality_rule_alone(tmp_path):
    ChainFactory(chain_id=1, short_name="eth", finality="safe", stall_blocks=5,
                 edited_fields=[])  # every listed field the list's to overwrite
    path = tmp_path / "eip155-1.json"
    path.write_text(json.dumps(MAINNET))
    run_import(path, "--overwrite")
    chain = Chain.objects.get(pk=1)
    assert (chain.name, chain.finality, chain.stall_blocks) == ("Ethereum Mainnet", "safe", 5)

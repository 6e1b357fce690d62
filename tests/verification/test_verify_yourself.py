"""docs/verify-yourself.md's script, read from the doc and run as a reader would (a separate
Python process with web3.py, talking only to the chain's node), against a real anvil chain
with the EAS contracts whose attestations the service indexed: it confirms a verified answer,
and it catches an answer that the chain does not back."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.verification.test_verify_e2e import HASH, Bound, Site, make_site

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

DOC = Path(__file__).resolve().parents[2] / "docs" / "verify-yourself.md"


@pytest.fixture(scope="module")
def script(tmp_path_factory) -> Path:
    (code,) = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    path = tmp_path_factory.mktemp("reader") / "verify_yourself.py"
    path.write_text(code)
    return path


@pytest.fixture
def site(eas_chain, executor_key) -> Site:
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    return make_site(eas_chain.node, eas_chain.chain, client)


def run(script: Path, site: Site, answer: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(script), site.node.anvil.url, HASH],
                          input=json.dumps(answer), capture_output=True, text=True, timeout=60)


def verified_answer(api, site: Site) -> tuple[dict, Bound]:
    bound = site.attest()
    site.settle()
    answer = api.post("/v1/verify", {"documentHash": HASH}, format="json").json()
    assert answer["verified"], answer
    return answer, bound


def test_the_script_confirms_a_verified_answer_on_the_chain(api, site, script):
    answer, _ = verified_answer(api, site)
    done = run(script, site, answer)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok  its data carries the document hash" in done.stdout
    assert f"ok  log {answer['logIndex']} is its Attested event" in done.stdout
    assert "ok  that block is still the chain's" in done.stdout
    # The batch's answer for the hash is the same evidence.
    (result,) = api.post("/v1/verify/batch", {"documentHashes": [HASH]},
                         format="json").json()["results"]
    assert run(script, site, result).returncode == 0


def test_the_script_sees_a_revocation_the_service_has_not_indexed_yet(api, site, script):
    answer, bound = verified_answer(api, site)
    site.revoke(bound)
    done = run(script, site, answer)
    assert done.returncode == 1
    assert "NOT CONFIRMED: not revoked" in done.stderr


@pytest.mark.parametrize("field, value, failure", [
    ("blockHash", "0x" + "ab" * 32, "that block is still the chain's"),
    ("logIndex", 7, "is its Attested event"),
    ("attester", "0x" + "ab" * 20, "made by"),
    ("timestamp", "2001-01-01T00:00:00Z", "at 20"),
    ("chainId", 1, "the node is on chain 1"),
])
def test_the_script_refuses_an_answer_the_chain_does_not_back(api, site, script, field, value,
                                                               failure):
    answer = {**verified_answer(api, site)[0], field: value}
    done = run(script, site, answer)
    assert done.returncode != 0
    assert failure in done.stderr or failure in done.stdout

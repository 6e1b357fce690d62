"""The EAS ABI the service calls is built from signatures in code: equal to the contracts'
own (their npm artifacts), and enough for live verification and the reference executor on a
machine without the artifacts."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from eth_utils import event_abi_to_log_topic, function_abi_to_4byte_selector
from web3 import HTTPProvider, Web3

from attestations import eas as eas_contracts
from attestations.indexer import index_chain
from attestations.models import Attestation
from eas_primitives.abi import GET_ATTESTATION_SELECTOR, eas_abi, schema_registry_abi
from executor_client import ReferenceExecutor, ServiceClient
from tests.bindings.conftest import bind
from tests.conftest import make_key, missing

KEY_A = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"  # anvil's #1
DOCUMENT = "0x" + "ab1" * 21 + "c"


def artifact_abi(name: str) -> list[dict]:
    path = Path(settings.EAS_ARTIFACTS_DIR) / f"{name}.json"
    if not path.exists():
        missing(f"{path} is missing", "run scripts/chain_tools.sh")
    return json.loads(path.read_text())["abi"]


def comparable(entry: dict) -> dict:
    """An ABI entry without what does not reach the wire: internalType, and the names of
    tuple components (the top-level names stay: events are read by them)."""
    def param(p: dict, top: bool) -> dict:
        kept = {"type": p["type"], "name": p.get("name", "") if top else ""}
        if "indexed" in p:
            kept["indexed"] = p["indexed"]
        if "components" in p:
            kept["components"] = [param(c, False) for c in p["components"]]
        return kept

    kept = {key: entry[key] for key in ("type", "name", "stateMutability", "anonymous")
            if key in entry}
    for key in ("inputs", "outputs"):
        if key in entry:
            kept[key] = [param(p, True) for p in entry[key]]
    return kept


@pytest.mark.parametrize("name, built_in", [("EAS", eas_abi),
                                            ("SchemaRegistry", schema_registry_abi)])
def test_the_built_in_abi_is_the_contracts_own(name, built_in):
    real = {(e["type"], e.get("name")): e for e in artifact_abi(name)
            if e["type"] in ("function", "event")}
    for entry in built_in():
        theirs = real[(entry["type"], entry["name"])]
        assert comparable(entry) == comparable(theirs)
        # Hence the same selector or topic, computed from each.
        wire_id = (function_abi_to_4byte_selector if entry["type"] == "function"
                   else event_abi_to_log_topic)
        assert wire_id(entry) == wire_id(theirs)


def test_the_get_attestation_selector_is_the_contracts_own():
    (entry,) = [e for e in artifact_abi("EAS") if e.get("name") == "getAttestation"]
    assert "0x" + function_abi_to_4byte_selector(entry).hex() == GET_ATTESTATION_SELECTOR


@pytest.mark.chain
@pytest.mark.django_db(transaction=True)
def test_live_verification_and_the_reference_executor_need_no_artifacts(
    eas_chain, live_server, api, settings, tmp_path,
):
    node = eas_chain.node  # deployed from the artifacts, as the tests do
    node.register_schema()
    assert index_chain(eas_chain.chain).ok
    settings.EAS_ARTIFACTS_DIR = str(tmp_path)  # empty, as in an image without npm
    eas_abi.cache_clear()
    schema_registry_abi.cache_clear()
    with pytest.raises(eas_contracts.EasArtifactMissing):
        eas_contracts.artifact("EAS")

    workflow = bind(api, document=DOCUMENT).json()
    w3 = Web3(HTTPProvider(node.anvil.url))
    executor = ReferenceExecutor(ServiceClient(live_server.url, make_key("executor")), "anvil",
                                 KEY_A, lambda chain_id: w3, receipt_timeout=10,
                                 poll_seconds=0.1)
    [sent] = executor.run(once=True)
    assert sent.tx_hash, workflow
    node.anvil.rpc("anvil_mine", [2])
    assert index_chain(eas_chain.chain).ok

    response = api.post("/v1/verify", {"documentHash": DOCUMENT, "live": True}, format="json")
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["verified"] is True
    assert answer["attestationId"] == Attestation.objects.get(document_hash=DOCUMENT).uid
    assert answer["txHash"] == sent.tx_hash

"""Offchain attestation packages signed by the official EAS SDK (npm, with ethers; installed by
scripts/client_tools.sh), through tests/attestations/offchain_sign.cjs, for the tests of
POST /attestations/offchain and of verification through offchain attestations."""

import json
import subprocess
from pathlib import Path

from web3 import Web3

from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[1]
SIGN = ROOT / "tests" / "attestations" / "offchain_sign.cjs"
SDK = ROOT / ".cache" / "clients" / "eas-sdk"
ANVIL_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"  # account 0
OTHER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"  # account 1


def require_sdk() -> None:
    if not (SDK / "node_modules" / "@ethereum-attestation-service" / "eas-sdk").exists():
        missing("the EAS SDK is not installed", "run scripts/client_tools.sh (needs npm)")


def sign(node, items: list[dict], *, key: str = ANVIL_KEY) -> list[dict]:
    """One SDK package per item (the fields of offchain_sign.cjs's plan), on `node`'s EAS."""
    require_sdk()
    plan = {"sdkDir": str(SDK), "rpcUrl": node.anvil.url,
            "eas": Web3.to_checksum_address(node.deployment.eas), "privateKey": key,
            "attestations": items}
    done = subprocess.run(["node", str(SIGN)], input=json.dumps(plan), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def message(schema_uid: str, data: bytes, **fields) -> dict:
    """An offchain attestation's message: version 2, now-ish, never expiring, revocable."""
    return {"version": 2, "schema": schema_uid, "recipient": "0x" + "00" * 20,
            "time": 1_790_000_000, "expirationTime": 0, "revocable": True,
            "refUID": "0x" + "00" * 32, "data": "0x" + data.hex(), **fields}

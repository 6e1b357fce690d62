"""The real EAS contracts (eas-contracts 1.9.0): the ABI of what the service calls, and small
helpers to deploy them, register a schema, attest and revoke from an account the node manages.

The service needs no npm: the ABI it calls (eas_abi, schema_registry_abi) is built in
eas_primitives/abi.py from the functions' and events' signatures, the way Solidity declares them; a
test holds it equal to the artifacts'. Only deploying needs the artifacts (hardhat JSON: "abi"
and "bytecode"), extracted by scripts/chain_tools.sh into settings.EAS_ARTIFACTS_DIR: the demo
and the tests on anvil. The helpers take a Web3 from registry.chain_client (or a test's own)
and send unsigned transactions, for anvil's unlocked accounts.

Addresses come back as lowercase 0x-hex, uids as 0x-hex (SPEC section 1).
"""

import json
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from web3 import Web3
from web3.logs import DISCARD

from eas_primitives.abi import ZERO_ADDRESS, ZERO_UID, eas_abi, schema_registry_abi


class EasArtifactMissing(Exception):
    """The contract artifacts are not where settings.EAS_ARTIFACTS_DIR says."""


class TransactionFailed(Exception):
    """A transaction was mined but reverted (receipt status 0)."""


@dataclass(frozen=True)
class EasDeployment:
    schema_registry: str
    eas: str
    schema_registry_block: int
    eas_block: int
    schema_registry_tx: str
    eas_tx: str


def artifact(name: str) -> dict:
    """The hardhat artifact `name` ("EAS", "SchemaRegistry"): a dict with "abi" and "bytecode"."""
    path = Path(settings.EAS_ARTIFACTS_DIR) / f"{name}.json"
    try:
        loaded = json.loads(path.read_text())
    except FileNotFoundError:
        raise EasArtifactMissing(
            f"{path} is missing: run scripts/chain_tools.sh to extract the EAS contracts "
            "(or point EAS_ARTIFACTS_DIR at them)."
        ) from None
    return {"abi": loaded["abi"], "bytecode": loaded["bytecode"]}


def _hex(value: bytes) -> str:
    return "0x" + bytes(value).hex()


def _uid_bytes(uid: str) -> bytes:
    return bytes.fromhex(uid.removeprefix("0x"))


def _eas(w3: Web3, address: str):
    return w3.eth.contract(address=Web3.to_checksum_address(address), abi=eas_abi())


def _registry(w3: Web3, address: str):
    return w3.eth.contract(address=Web3.to_checksum_address(address), abi=schema_registry_abi())


def _mined(w3: Web3, tx_hash: bytes, what: str):
    """The receipt of `tx_hash`; a revert raises instead of passing for success."""
    receipt = w3.eth.wait_for_transaction_receipt(tx_hash)
    if receipt["status"] != 1:
        raise TransactionFailed(f"{what} reverted in transaction {_hex(tx_hash)}.")
    return receipt


def _send(w3: Web3, call, sender: str, what: str, value: int = 0):
    return _mined(w3, call.transact({"from": Web3.to_checksum_address(sender), "value": value}),
                  what)


def _deploy(w3: Web3, name: str, sender: str, *args):
    built = artifact(name)
    contract = w3.eth.contract(abi=built["abi"], bytecode=built["bytecode"])
    return _send(w3, contract.constructor(*args), sender, f"Deploying {name}")


def deploy_eas(w3: Web3, *, sender: str) -> EasDeployment:
    """Deploy a SchemaRegistry, then an EAS over it (its only constructor argument)."""
    registry = _deploy(w3, "SchemaRegistry", sender)
    eas = _deploy(w3, "EAS", sender, registry["contractAddress"])
    return EasDeployment(
        schema_registry=registry["contractAddress"].lower(), eas=eas["contractAddress"].lower(),
        schema_registry_block=registry["blockNumber"], eas_block=eas["blockNumber"],
        schema_registry_tx=_hex(registry["transactionHash"]), eas_tx=_hex(eas["transactionHash"]),
    )


def register_schema(w3: Web3, registry_address: str, schema: str, *,
                    resolver: str = ZERO_ADDRESS, revocable: bool = True, sender: str) -> str:
    """Register `schema`; returns its uid, as the Registered event reports it.

    The registry reverts when the same (schema, resolver, revocable) is registered twice.
    """
    contract = _registry(w3, registry_address)
    call = contract.functions.register(schema, Web3.to_checksum_address(resolver), revocable)
    receipt = _send(w3, call, sender, "Registering the schema")
    (event,) = contract.events.Registered().process_receipt(receipt, errors=DISCARD)
    return _hex(event["args"]["uid"])


def _request_data(data: bytes, recipient: str, expiration_time: int, revocable: bool,
                  ref_uid: str, value: int) -> tuple:
    """An AttestationRequestData: (recipient, expirationTime, revocable, refUID, data, value)."""
    return (Web3.to_checksum_address(recipient), expiration_time, revocable,
            _uid_bytes(ref_uid), data, value)


def _attested_uids(contract, receipt) -> list[str]:
    # In log order, which is the order of the request's data items.
    return [_hex(e["args"]["uid"])
            for e in contract.events.Attested().process_receipt(receipt, errors=DISCARD)]


def attest(w3: Web3, eas_address: str, *, schema_uid: str, data: bytes,
           recipient: str = ZERO_ADDRESS, expiration_time: int = 0, revocable: bool = True,
           ref_uid: str = ZERO_UID, value: int = 0, sender: str):
    """Attest `data` (ABI-encoded for the schema) on-chain; returns (uid, receipt)."""
    contract = _eas(w3, eas_address)
    request = (_uid_bytes(schema_uid),
               _request_data(data, recipient, expiration_time, revocable, ref_uid, value))
    receipt = _send(w3, contract.functions.attest(request), sender, "Attesting", value)
    (uid,) = _attested_uids(contract, receipt)
    return uid, receipt


def multi_attest_call(w3: Web3, eas_address: str, *, schema_uid: str, data: list[bytes],
                      recipient: str = ZERO_ADDRESS, expiration_time: int = 0,
                      revocable: bool = True, ref_uid: str = ZERO_UID):
    """The multiAttest call of each item of `data` under one schema, to send."""
    items = [_request_data(item, recipient, expiration_time, revocable, ref_uid, 0)
             for item in data]
    return _eas(w3, eas_address).functions.multiAttest([(_uid_bytes(schema_uid), items)])


def multi_attest(w3: Web3, eas_address: str, *, schema_uid: str, data: list[bytes],
                 sender: str, **options):
    """Attest each item of `data` under one schema in one transaction; returns their uids.
    `options`: multi_attest_call's."""
    call = multi_attest_call(w3, eas_address, schema_uid=schema_uid, data=data, **options)
    return _attested_uids(_eas(w3, eas_address), _send(w3, call, sender, "Attesting many"))


def revoke(w3: Web3, eas_address: str, *, schema_uid: str, uid: str, sender: str):
    """Revoke the attestation `uid` (only its attester may); returns the receipt."""
    contract = _eas(w3, eas_address)
    request = (_uid_bytes(schema_uid), (_uid_bytes(uid), 0))
    return _send(w3, contract.functions.revoke(request), sender, "Revoking")

"""The real EAS contracts (eas-contracts 1.9.0): the ABI of what the service calls, and small
helpers to deploy them, register a schema, attest and revoke from an account the node manages.

The service needs no npm: the ABI it calls (eas_abi, schema_registry_abi) is built here from
the functions' and events' signatures, the way Solidity declares them; a test holds it equal
to the artifacts'. Only deploying needs the artifacts (hardhat JSON: "abi" and "bytecode"),
extracted by scripts/chain_tools.sh into settings.EAS_ARTIFACTS_DIR: the demo and the tests on
anvil. The helpers take a Web3 from registry.chain_client (or a test's own) and send unsigned
transactions, for anvil's unlocked accounts.

Addresses come back as lowercase 0x-hex, uids as 0x-hex (SPEC section 1).
"""

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from eth_abi.grammar import TupleType
from eth_abi.grammar import parse as parse_type
from web3 import Web3
from web3.logs import DISCARD

ZERO_ADDRESS = "0x" + "00" * 20
ZERO_UID = "0x" + "00" * 32


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


def _abi_type(node) -> dict:
    if isinstance(node, TupleType):
        arrays = "".join(f"[{''.join(map(str, dims))}]" for dims in node.arrlist or ())
        return {"type": "tuple" + arrays,
                "components": [{"name": "", **_abi_type(part)} for part in node.components]}
    return {"type": node.to_type_str()}


def _params(declared: str, *, event: bool = False) -> list[dict]:
    """ABI parameters from "type [indexed] [name], ...": tuple types written without spaces
    ("(bytes32,address)[]"), so that ", " separates the parameters."""
    params = []
    for param in filter(None, declared.split(", ")):
        type_string, *words = param.split()
        entry = {"name": next((w for w in words if w != "indexed"), ""),
                 **_abi_type(parse_type(type_string))}
        if event:
            entry["indexed"] = "indexed" in words
        params.append(entry)
    return params


def _function(name: str, inputs: str, *, returns: str = "", mutability: str) -> dict:
    return {"type": "function", "name": name, "inputs": _params(inputs),
            "outputs": _params(returns), "stateMutability": mutability}


def _event(name: str, inputs: str) -> dict:
    return {"type": "event", "name": name, "inputs": _params(inputs, event=True),
            "anonymous": False}


_ATTESTATION = "(bytes32,bytes32,uint64,uint64,uint64,bytes32,address,address,bool,bytes)"
_REQUEST_DATA = "(address,uint64,bool,bytes32,bytes,uint256)"
_SCHEMA_RECORD = "(bytes32,address,bool,string)"
_EAS_EVENT = "address indexed recipient, address indexed attester, bytes32 uid, " \
             "bytes32 indexed schemaUID"


@cache
def eas_abi() -> list[dict]:
    """The EAS functions and events the service and its helpers use."""
    return [
        _function("getAttestation", "bytes32 uid", returns=_ATTESTATION, mutability="view"),
        _function("attest", f"(bytes32,{_REQUEST_DATA}) request", returns="bytes32",
                  mutability="payable"),
        _function("multiAttest", f"(bytes32,{_REQUEST_DATA}[])[] multiRequests",
                  returns="bytes32[]", mutability="payable"),
        _function("revoke", "(bytes32,(bytes32,uint256)) request", mutability="payable"),
        _event("Attested", _EAS_EVENT),
        _event("Revoked", _EAS_EVENT),
    ]


@cache
def schema_registry_abi() -> list[dict]:
    """The SchemaRegistry functions and events the service and its helpers use."""
    return [
        _function("register", "string schema, address resolver, bool revocable",
                  returns="bytes32", mutability="nonpayable"),
        _function("getSchema", "bytes32 uid", returns=_SCHEMA_RECORD, mutability="view"),
        _event("Registered", f"bytes32 indexed uid, address indexed registerer, "
                             f"{_SCHEMA_RECORD} schema"),
    ]


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


def multi_attest(w3: Web3, eas_address: str, *, schema_uid: str, data: list[bytes],
                 recipient: str = ZERO_ADDRESS, expiration_time: int = 0,
                 revocable: bool = True, ref_uid: str = ZERO_UID, sender: str):
    """Attest each item of `data` under one schema in one transaction; returns their uids."""
    contract = _eas(w3, eas_address)
    items = [_request_data(item, recipient, expiration_time, revocable, ref_uid, 0)
             for item in data]
    call = contract.functions.multiAttest([(_uid_bytes(schema_uid), items)])
    return _attested_uids(contract, _send(w3, call, sender, "Attesting many"))


def revoke(w3: Web3, eas_address: str, *, schema_uid: str, uid: str, sender: str):
    """Revoke the attestation `uid` (only its attester may); returns the receipt."""
    contract = _eas(w3, eas_address)
    request = (_uid_bytes(schema_uid), (_uid_bytes(uid), 0))
    return _send(w3, contract.functions.revoke(request), sender, "Revoking")

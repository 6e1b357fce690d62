"""The ABI of the EAS contracts (eas-contracts 1.9.0) the service and the reference executor
call, built from the functions' and events' signatures the way Solidity declares them: no npm
artifacts needed at run time (tests/attestations/test_eas_abi.py holds it equal to theirs).

Pure: it imports no Django and no app of the project, so that executor_client can use it.
"""

from functools import cache

from eth_abi.grammar import TupleType
from eth_abi.grammar import parse as parse_type

ZERO_ADDRESS = "0x" + "00" * 20
ZERO_UID = "0x" + "00" * 32
# The 4-byte selector of getAttestation(bytes32): keccak-256 of the signature's first bytes
# (tests/attestations/test_eas_abi.py computes it); calldata is it + the uid's 32 bytes.
GET_ATTESTATION_SELECTOR = "0xa3112a64"


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
        # The EIP-712 domain version of offchain attestations (attestations/offchain.py).
        _function("version", "", returns="string", mutability="view"),
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

"""EAS offchain attestations: the package the EAS SDK signs (`signOffchainAttestation`), checked
as the SDK's own `verifyOffchainAttestationSignature` checks it, and against this service's
registry (issue 21).

A package is `{"sig": {version, uid, domain, primaryType, types, message, signature: {v, r,
s}}, "signer": address}`. It is accepted when:
- its domain is an EAS deployment of a registered active chain: name "EAS Attestation",
  `chainId` a chain here, `verifyingContract` that chain's EAS deployment, `version` what
  that contract's `version()` answers (read once from the chain, then cached);
- its `primaryType` and `types` are one of the EIP-712 types of its offchain version
  (0, the legacy one in its three historical spellings; 1, with `version`; 2, with `salt`);
- its `uid` is the one the SDK computes from the message for that version;
- its signature recovers to `signer`, not the zero address;
- its schema is registered on that chain (the indexer holds it).
`check_package` raises OffchainRefused naming the field and why; it writes nothing.
"""

from dataclasses import dataclass
from datetime import UTC, datetime

from django.core.cache import cache
from eth_abi.packed import encode_packed
from eth_account import Account
from eth_account.messages import encode_typed_data
from eth_utils import keccak

from attestations.models import Schema
from core.errors import ServiceUnavailable
from core.validators import InvalidHex, normalize_address, normalize_bytes32
from eas_primitives.abi import ZERO_ADDRESS, eas_abi
from registry.chain_client import NoEndpointAvailable, endpoint_clients
from registry.models import Chain, Deployment

DOMAIN_NAME = "EAS Attestation"
_ATTEST = [{"name": "schema", "type": "bytes32"}, {"name": "recipient", "type": "address"},
           {"name": "time", "type": "uint64"}, {"name": "expirationTime", "type": "uint64"},
           {"name": "revocable", "type": "bool"}, {"name": "refUID", "type": "bytes32"},
           {"name": "data", "type": "bytes"}]
_VERSION = [{"name": "version", "type": "uint16"}]
_SALT = [{"name": "salt", "type": "bytes32"}]
# (primaryType, types) a package of each version may carry: the SDK's
# OFFCHAIN_ATTESTATION_TYPES, the legacy version's historical spellings included.
VERSION_TYPES = {
    0: [("Attestation", {"Attestation": _ATTEST}), ("Attestation", {"Attest": _ATTEST}),
        ("Attest", {"Attest": _ATTEST})],
    1: [("Attest", {"Attest": _VERSION + _ATTEST})],
    2: [("Attest", {"Attest": _VERSION + _ATTEST + _SALT})],
}
EIP712_DOMAIN = [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                 {"name": "chainId", "type": "uint256"},
                 {"name": "verifyingContract", "type": "address"}]
UINT64 = 2**64 - 1
EAS_VERSION_SECONDS = 24 * 3600  # a deployed contract's version() does not change


class OffchainRefused(ValueError):
    """A package that is not a valid offchain attestation here: `attr` names the part."""

    def __init__(self, attr: str, message: str, code: str = "invalid"):
        super().__init__(message)
        self.attr, self.code = attr, code


@dataclass(frozen=True)
class CheckedPackage:
    chain: Chain
    deployment: Deployment
    schema: Schema
    version: int
    uid: str
    attester: str
    recipient: str
    ref_uid: str
    time: int
    expiration_time: int
    revocable: bool
    data: bytes
    salt: str | None
    signature: dict


def check_package(package) -> CheckedPackage:
    """The package's attestation, checked (see the module's docstring)."""
    if not isinstance(package, dict):
        _refuse("", "Expected a JSON object.")
    sig = _object(package, "sig", "sig")
    signer = _address(package.get("signer"), "signer")
    version = sig.get("version", 0)
    if type(version) is not int or version not in VERSION_TYPES:
        _refuse("sig.version", "Expected an offchain attestation version: 0, 1 or 2.")
    message = _object(sig, "message", "sig.message")
    if (sig.get("primaryType"), sig.get("types")) not in VERSION_TYPES[version]:
        _refuse("sig.types", f"Not the EIP-712 types of an offchain attestation of version "
                f"{version}.", "invalid_types")
    if version and message.get("version") != version:
        _refuse("sig.message.version", f"Expected {version}, the package's version.")
    (signed,) = sig["types"].values()
    names = {field["name"] for field in signed}
    # The SDK writes `version` in every message, signed from version 1 on only.
    if not names <= set(message) <= names | {"version"}:
        _refuse("sig.message", "Its fields are not the ones its types sign.")
    fields = _message_fields(message, version)
    chain, deployment = _domain(_object(sig, "domain", "sig.domain"))
    uid = _uid(version, message, fields)
    if sig.get("uid") != uid and str(sig.get("uid", "")).lower() != uid:
        _refuse("sig.uid", "The uid is not the one the message makes.", "wrong_uid")
    signature = _object(sig, "signature", "sig.signature")
    recovered = _recover(sig, signature)
    if signer == ZERO_ADDRESS or recovered != signer:
        _refuse("sig.signature", "The signature is not the signer's.", "wrong_signature")
    schema = Schema.objects.filter(chain=chain, uid=fields["schema"]).first()
    if schema is None:
        _refuse("sig.message.schema", f"No schema with this uid is registered on chain "
                f"{chain.chain_id} (or indexed yet).", "unknown_schema")
    return CheckedPackage(
        chain=chain, deployment=deployment, schema=schema, version=version, uid=uid,
        attester=signer, recipient=fields["recipient"], ref_uid=fields["refUID"],
        time=fields["time"], expiration_time=fields["expirationTime"],
        revocable=fields["revocable"], data=fields["data"], salt=fields.get("salt"),
        signature={"v": signature["v"], "r": signature["r"], "s": signature["s"]})


def _refuse(attr: str, message: str, code: str = "invalid"):
    raise OffchainRefused(attr, message, code)


def _object(parent: dict, name: str, attr: str) -> dict:
    value = parent.get(name)
    if not isinstance(value, dict):
        _refuse(attr, "Expected a JSON object.")
    return value


def _hex(normalize, value, attr: str, expected: str) -> str:
    """`value` normalised by core.validators' `normalize`, or refused naming `attr`."""
    if not isinstance(value, str):
        _refuse(attr, f"Expected {expected}.")
    try:
        return normalize(value)
    except InvalidHex as exc:
        _refuse(attr, str(exc))


def _address(value, attr: str) -> str:
    return _hex(normalize_address, value, attr, "an address")


def _bytes32(value, attr: str) -> str:
    return _hex(normalize_bytes32, value, attr, "0x and 64 hex digits")


def _uint64(value, attr: str) -> int:
    # The SDK writes bigints as decimal strings; a JSON integer is taken too.
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= UINT64:
        _refuse(attr, "Expected an unsigned 64-bit integer.")
    return value


def _message_fields(message: dict, version: int) -> dict:
    attr = "sig.message."
    data = message.get("data")
    if not isinstance(data, str) or not data.startswith("0x"):
        _refuse(attr + "data", "Expected 0x-hex bytes.")
    try:
        raw = bytes.fromhex(data[2:])
    except ValueError:
        _refuse(attr + "data", "Expected 0x-hex bytes.")
    if not isinstance(message.get("revocable"), bool):
        _refuse(attr + "revocable", "Expected true or false.")
    fields = {
        "schema": _bytes32(message.get("schema"), attr + "schema"),
        "recipient": _address(message.get("recipient"), attr + "recipient"),
        "time": _uint64(message.get("time"), attr + "time"),
        "expirationTime": _uint64(message.get("expirationTime"), attr + "expirationTime"),
        "revocable": message["revocable"],
        "refUID": _bytes32(message.get("refUID"), attr + "refUID"),
        "data": raw,
    }
    if version == 2:
        fields["salt"] = _bytes32(message.get("salt"), attr + "salt")
    return fields


def _domain(domain: dict) -> tuple[Chain, Deployment]:
    attr = "sig.domain."
    if domain.get("name") != DOMAIN_NAME:
        _refuse(attr + "name", f"Expected {DOMAIN_NAME!r}.", "wrong_domain")
    chain_id = domain.get("chainId")
    if isinstance(chain_id, str) and chain_id.isdigit():
        chain_id = int(chain_id)
    chain = (Chain.objects.filter(pk=chain_id, status=Chain.Status.ACTIVE).first()
             if isinstance(chain_id, int) and not isinstance(chain_id, bool) else None)
    if chain is None:
        _refuse(attr + "chainId", "Not an active chain here.", "wrong_domain")
    address = _address(domain.get("verifyingContract"), attr + "verifyingContract")
    deployment = Deployment.objects.filter(chain=chain, address=address,
                                           kind=Deployment.Kind.EAS).first()
    if deployment is None:
        _refuse(attr + "verifyingContract", f"Not an EAS deployment of chain "
                f"{chain.chain_id}.", "wrong_domain")
    if domain.get("version") != eas_version(deployment):
        _refuse(attr + "version", "Not the version of this EAS contract.", "wrong_domain")
    return chain, deployment


def eas_version(deployment: Deployment) -> str:
    """The EIP-712 domain version of an EAS deployment: its contract's `version()`, read
    through the chain's endpoints (failover) once a day. ServiceUnavailable when none
    answers: a package cannot be checked without it."""
    key = f"eas-version:{deployment.chain_id}:{deployment.address}"
    version = cache.get(key)
    if version is None:
        version = _read_version(deployment)
        cache.set(key, version, EAS_VERSION_SECONDS)
    return version


def _read_version(deployment: Deployment) -> str:
    for _endpoint, w3 in endpoint_clients(deployment.chain):
        try:
            contract = w3.eth.contract(address=w3.to_checksum_address(deployment.address),
                                       abi=eas_abi())
            return contract.functions.version().call()
        except (NoEndpointAvailable, Exception):  # noqa: BLE001 - the next endpoint is asked
            continue
    raise ServiceUnavailable(f"No RPC endpoint of chain {deployment.chain_id} answered; the "
                             "EAS contract's version cannot be read: try again later.",
                             code="chain_unavailable")


def offchain_uid(version: int, message: dict) -> str:
    """The uid the EAS SDK gives an offchain attestation of `version` with this `message`."""
    return _uid(version, message, _message_fields(message, version))


def _uid(version: int, message: dict, fields: dict) -> str:
    """The SDK's getOffchainUID: abi.encodePacked of the message, with the schema uid as the
    UTF-8 bytes of its text as given (the SDK's own way), hashed with keccak-256."""
    schema_text = message["schema"].encode()
    common = [("bytes", schema_text), ("address", fields["recipient"]),
              ("address", ZERO_ADDRESS), ("uint64", fields["time"]),
              ("uint64", fields["expirationTime"]), ("bool", fields["revocable"]),
              ("bytes32", bytes.fromhex(fields["refUID"][2:])), ("bytes", fields["data"])]
    if version >= 1:
        common.insert(0, ("uint16", version))
    if version == 2:
        common.append(("bytes32", bytes.fromhex(fields["salt"][2:])))
    common.append(("uint32", 0))
    types, values = zip(*common)
    return "0x" + keccak(encode_packed(list(types), list(values))).hex()


def _recover(sig: dict, signature: dict) -> str:
    """The address that signed the package's typed data; the primary type is the one its
    `types` declare (as ethers reads them, whatever `primaryType` says)."""
    (primary,) = sig["types"]
    domain = sig["domain"]
    try:
        v, r, s = signature["v"], signature["r"], signature["s"]
        signable = encode_typed_data(full_message={
            "types": {"EIP712Domain": EIP712_DOMAIN, **sig["types"]},
            "primaryType": primary,
            "domain": {"name": domain["name"], "version": domain["version"],
                       "chainId": int(domain["chainId"]),
                       "verifyingContract": domain["verifyingContract"]},
            "message": {**sig["message"], "time": int(sig["message"]["time"]),
                        "expirationTime": int(sig["message"]["expirationTime"])},
        })
        return Account.recover_message(signable, vrs=(int(v), int(r, 16), int(s, 16))).lower()
    except (KeyError, TypeError, ValueError) as exc:
        _refuse("sig.signature", f"Not a signature of this message ({type(exc).__name__}).",
                "wrong_signature")


def store(checked: CheckedPackage, package: dict):
    """The checked package as an OffchainAttestation: (record, created). The same uid on the
    same chain is the same attestation (a uid commits to every field of its message): it is
    kept as first submitted, and a second submission changes nothing."""
    from attestations.indexer.store import decode_data, expiration_of
    from attestations.models import OffchainAttestation

    existing = OffchainAttestation.objects.filter(chain=checked.chain, uid=checked.uid).first()
    if existing is not None:
        return existing, False
    try:
        time = datetime.fromtimestamp(checked.time, UTC)
    except (OverflowError, ValueError, OSError):
        _refuse("sig.message.time", "The time is beyond 9999-12-31.")
    expiration_time, expiration_raw = expiration_of(checked.expiration_time)
    decoded = decode_data(checked.schema, checked.data)
    record, created = OffchainAttestation.objects.get_or_create(
        chain=checked.chain, uid=checked.uid, defaults={
            "deployment": checked.deployment, "version": checked.version,
            "schema_uid": checked.schema.uid, "schema": checked.schema,
            "attester": checked.attester, "recipient": checked.recipient,
            "ref_uid": checked.ref_uid, "time": time, "expiration_time": expiration_time,
            "expiration_time_raw": expiration_raw, "revocable": checked.revocable,
            "data": checked.data, "salt": checked.salt or "", "decoded": decoded.decoded,
            "decode_error": decoded.error, "document_hash": decoded.document_hash,
            "undecodable": decoded.undecodable, "package": package})
    return record, created

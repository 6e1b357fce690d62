"""The EAS and SchemaRegistry events the indexer follows, decoded from raw logs, and the two
calls it makes (getAttestation, getSchema), encoded and decoded by hand: the layouts are
fixed, and this is the hot path (thousands of logs per range).

Events (eas-contracts 1.4.0):
  Attested(address indexed recipient, address indexed attester, bytes32 uid,
           bytes32 indexed schemaUID)                              and Revoked, same shape
  Timestamped(bytes32 indexed data, uint64 indexed timestamp)
  RevokedOffchain(address indexed revoker, bytes32 indexed data, uint64 indexed timestamp)
  Registered(bytes32 indexed uid, address indexed registerer, (bytes32,address,bool,string))
  Registered(bytes32 indexed uid, address registerer)       older registries (mainnet, OP)
"""

from dataclasses import dataclass

import eth_abi
from eth_utils import keccak


def _topic(signature: str) -> str:
    return "0x" + keccak(text=signature).hex()


ATTESTED = _topic("Attested(address,address,bytes32,bytes32)")
REVOKED = _topic("Revoked(address,address,bytes32,bytes32)")
TIMESTAMPED = _topic("Timestamped(bytes32,uint64)")
REVOKED_OFFCHAIN = _topic("RevokedOffchain(address,bytes32,uint64)")
REGISTERED = _topic("Registered(bytes32,address,(bytes32,address,bool,string))")
REGISTERED_OLD = _topic("Registered(bytes32,address)")
EAS_TOPICS = [ATTESTED, REVOKED, TIMESTAMPED, REVOKED_OFFCHAIN]
REGISTRY_TOPICS = [REGISTERED, REGISTERED_OLD]

# A SchemaRecord (uid, resolver, revocable, schema), its string read as the bytes it is
# (the same encoding): the registry takes any bytes, UTF-8 or not (the store escapes them).
SCHEMA_RECORD = "(bytes32,address,bool,bytes)"

GET_ATTESTATION = "0x" + keccak(text="getAttestation(bytes32)")[:4].hex()
GET_SCHEMA = "0x" + keccak(text="getSchema(bytes32)")[:4].hex()


class MalformedLog(ValueError):
    """A log with a known topic but not the event's shape."""


@dataclass(frozen=True)
class Position:
    """Where an event was logged."""

    tx_hash: str
    block_number: int
    block_hash: str
    log_index: int


@dataclass(frozen=True)
class Event:
    kind: str  # attested, revoked, timestamped, revoked_offchain, registered
    position: Position
    uid: str = ""  # the attestation's or the schema's
    schema_uid: str = ""
    address: str = ""  # attester, revoker or registerer
    data: str = ""  # Timestamped / RevokedOffchain: the bytes32
    timestamp: int = 0
    # Registered (new shape): (resolver, revocable, schema as bytes); None for the old shape.
    schema_record: tuple | None = None


def _word_address(word: str) -> str:
    return "0x" + word[-40:].lower()


def _int(hex_value: str) -> int:
    return int(hex_value, 16)


def decode_log(log: dict) -> Event | None:
    """The event of a raw log (eth_getLogs), None for events the indexer does not follow."""
    topics = [t.lower() for t in log["topics"]]
    if not topics:
        return None
    position = Position(log["transactionHash"].lower(), _int(log["blockNumber"]),
                        log["blockHash"].lower(), _int(log["logIndex"]))
    data = log["data"][2:]
    kind = topics[0]
    try:
        if kind in (ATTESTED, REVOKED):
            _expect(topics, 4, data, 64)
            return Event("attested" if kind == ATTESTED else "revoked", position,
                         uid="0x" + data.lower(), schema_uid=topics[3],
                         address=_word_address(topics[2]))
        if kind == TIMESTAMPED:
            _expect(topics, 3, data, 0)
            return Event("timestamped", position, data=topics[1], timestamp=_int(topics[2]))
        if kind == REVOKED_OFFCHAIN:
            _expect(topics, 4, data, 0)
            return Event("revoked_offchain", position, address=_word_address(topics[1]),
                         data=topics[2], timestamp=_int(topics[3]))
        if kind == REGISTERED:
            if len(topics) != 3:
                raise MalformedLog("Registered needs 3 topics")
            ((_, resolver, revocable, schema),) = eth_abi.decode(
                [SCHEMA_RECORD], bytes.fromhex(data))
            return Event("registered", position, uid=topics[1],
                         address=_word_address(topics[2]),
                         schema_record=(resolver.lower(), revocable, schema))
        if kind == REGISTERED_OLD:
            _expect(topics, 2, data, 64)
            return Event("registered", position, uid=topics[1], address=_word_address(data))
    except MalformedLog:
        raise
    except Exception as exc:  # eth_abi's decoding errors
        raise MalformedLog(f"{exc}") from None
    return None


def _expect(topics: list, count: int, data: str, hex_digits: int) -> None:
    if len(topics) != count or len(data) != hex_digits:
        raise MalformedLog(f"expected {count} topics and {hex_digits // 2} bytes of data")


def uid_call(selector: str, uid: str) -> str:
    return selector + uid[2:]


@dataclass(frozen=True)
class OnChainAttestation:
    """getAttestation(uid)'s answer."""

    uid: str
    schema_uid: str
    time: int
    expiration_time: int
    revocation_time: int
    ref_uid: str
    recipient: str
    attester: str
    revocable: bool
    data: bytes


_WORD = 32


def decode_attestation(raw: bytes) -> OnChainAttestation:
    """Decode `getAttestation`'s return data: one dynamic tuple, so an offset, then ten head
    words (the last the offset of `data` inside the tuple), then data's length and bytes."""
    try:
        base = int.from_bytes(raw[:_WORD], "big")
        words = [raw[base + i * _WORD: base + (i + 1) * _WORD] for i in range(10)]
        start = base + int.from_bytes(words[9], "big")
        length = int.from_bytes(raw[start:start + _WORD], "big")
        data = raw[start + _WORD: start + _WORD + length]
        if len(data) != length or any(len(w) != _WORD for w in words):
            raise ValueError("truncated")
    except (ValueError, IndexError):
        raise MalformedLog("getAttestation returned malformed data") from None
    number = lambda w: int.from_bytes(w, "big")  # noqa: E731
    return OnChainAttestation(
        uid="0x" + words[0].hex(), schema_uid="0x" + words[1].hex(), time=number(words[2]),
        expiration_time=number(words[3]), revocation_time=number(words[4]),
        ref_uid="0x" + words[5].hex(), recipient="0x" + words[6][12:].hex(),
        attester="0x" + words[7][12:].hex(), revocable=bool(number(words[8])), data=data,
    )


def decode_schema_record(raw: bytes) -> tuple[str, str, bool, bytes]:
    """getSchema(uid)'s answer: (uid, resolver, revocable, schema as bytes)."""
    ((uid, resolver, revocable, schema),) = eth_abi.decode([SCHEMA_RECORD], raw)
    return "0x" + uid.hex(), resolver.lower(), revocable, schema


def attested_uids(receipt, eas_addresses) -> list[str]:
    """The uids of the `Attested` logs that an EAS contract of `eas_addresses` (lower-case)
    itself emitted in a web3.py receipt, in log order: a schema's resolver runs inside the
    transaction and can emit look-alikes, which are not attestations."""
    uids = []
    for log in receipt["logs"]:
        topics, data = log["topics"], bytes(log["data"])
        if (log["address"].lower() in eas_addresses and topics and len(data) >= _WORD
                and "0x" + bytes(topics[0]).hex() == ATTESTED):
            uids.append("0x" + data[:_WORD].hex())
    return uids

"""Reading one block range of one deployment from the chain: its logs, decoded, and what the
events do not carry (attestation data, old-style schema records), fetched in batches."""

import logging
from dataclasses import dataclass, field

from django.conf import settings
from web3 import Web3

from attestations.indexer import events, rpc
from attestations.indexer.events import Event, OnChainAttestation
from registry.models import Deployment

logger = logging.getLogger(__name__)
ZERO_UID = "0x" + "00" * 32


class ChainMoved(Exception):
    """What the logs announced is not in the chain's state: the chain changed under the read
    (a reorganisation in progress). Nothing is written; the next run checks the hashes."""


@dataclass
class RangeRead:
    """Everything one range holds, ready to be written."""

    start: int
    end: int
    end_hash: str
    logs: int = 0
    # (event, the schema record (uid, resolver, revocable, schema))
    schemas: list[tuple[Event, tuple]] = field(default_factory=list)
    attested: list[tuple[Event, OnChainAttestation]] = field(default_factory=list)
    revoked: list[tuple[Event, OnChainAttestation]] = field(default_factory=list)
    timestamps: list[Event] = field(default_factory=list)
    offchain_revocations: list[Event] = field(default_factory=list)
    # Block hashes seen in this range (the logs' blocks and its last block), for reorg checks.
    block_hashes: dict[int, str] = field(default_factory=dict)
    # Logs that could not be read, as IndexCursor.skipped records them.
    skipped: list[dict] = field(default_factory=list)

    @property
    def holds_records(self) -> bool:
        """Whether writing it stores more than the cursor's move."""
        return any((self.schemas, self.attested, self.revoked, self.timestamps,
                    self.offchain_revocations, self.skipped))


def skipped_record(block: int, log_index: int | None, tx_hash: str, uid: str,
                   reason: str) -> dict:
    """An entry of IndexCursor.skipped (log index None: the whole transaction)."""
    return {"block": block, "logIndex": log_index, "txHash": tx_hash, "uid": uid,
            "reason": reason[:500].replace("\x00", "\\x00")}  # jsonb holds no NUL


def topics_for(deployment: Deployment) -> list[str]:
    if deployment.kind == Deployment.Kind.SCHEMA_REGISTRY:
        return events.REGISTRY_TOPICS
    return events.EAS_TOPICS


def read_range(w3: Web3, deployment: Deployment, start: int, end: int,
               end_hash: str | None = None, logs: list[dict] | None = None) -> RangeRead:
    """Read blocks start..end. The last block's hash (`end_hash`, when the caller read it
    with the head) is read before the logs (`logs`, when the caller fetched them after it):
    if the chain reorganises in between, the stored hash is the older one and the next run
    notices."""
    if end_hash is None:
        (end_hash,) = rpc.block_hashes(w3, [end]).values()
        if end_hash is None:
            raise ChainMoved(f"Block {end} is no longer on the chain.")
    read = RangeRead(start, end, end_hash, block_hashes={end: end_hash})
    if logs is None:
        logs = _logs(w3, deployment, read)
    read.logs = len(logs)
    decoded = []
    for log in logs:
        if log.get("removed"):
            continue
        if log["address"].lower() != deployment.address:  # the filter is the node's promise
            continue
        try:
            event = events.decode_log(log)
        except events.MalformedLog as exc:
            logger.warning("Skipping a malformed log of %s at block %s: %s", deployment,
                           int(log["blockNumber"], 16), exc)
            read.skipped.append(skipped_record(
                int(log["blockNumber"], 16), int(log["logIndex"], 16),
                log["transactionHash"].lower(), "", f"malformed log: {exc}"))
            continue
        if event is not None:
            decoded.append(event)
            read.block_hashes[event.position.block_number] = event.position.block_hash
    if deployment.kind == Deployment.Kind.SCHEMA_REGISTRY:
        _read_schemas(w3, deployment, decoded, read)
    else:
        _read_eas(w3, deployment, decoded, read)
    return read


def prefetch_logs(w3: Web3, ranges: list[tuple[Deployment, int, int]]) -> list[list[dict]]:
    """The logs of several deployments' ranges in one JSON-RPC batch (one round trip for an
    index run that follows the head); [] when any fails: each range is then read alone."""
    try:
        return rpc.batch(w3, [("eth_getLogs", rpc.logs_filter(d.address, topics_for(d), s, e))
                              for d, s, e in ranges])
    except Exception as exc:
        logger.info("Reading %s ranges in one batch failed (%s); one at a time.", len(ranges),
                    exc)
        return []


def _logs(w3: Web3, deployment: Deployment, read: RangeRead) -> list[dict]:
    """The range's logs of the deployment's events. One block whose logs are more than one
    answer may hold (over RPC_RESPONSE_MAX_BYTES, or a provider's limit) is read in parts:
    from its transactions' receipts (`_logs_from_receipts`)."""
    topics = topics_for(deployment)
    try:
        return rpc.get_logs(w3, deployment.address, topics, read.start, read.end)
    except Exception as exc:
        if read.start != read.end or not rpc.is_range_too_large(exc):
            raise
        logger.warning("%s: the logs of block %s are too many for one answer (%s); reading "
                       "them from the block's receipts.", deployment, read.start, exc)
    return _logs_from_receipts(w3, deployment, read, set(topics))


def _logs_from_receipts(w3: Web3, deployment: Deployment, read: RangeRead,
                        topics: set[str]) -> list[dict]:
    """The deployment's logs of one block, from the receipts of the block's transactions,
    fetched in batches that halve while an answer is too large. A transaction whose receipt
    alone is over RPC_RESPONSE_MAX_BYTES cannot be read: it is skipped and recorded on the
    cursor (IndexCursor.skipped, counted in /metrics), with what the operator can do."""
    number = read.start
    block = rpc.call(w3, "eth_getBlockByNumber", [hex(number), False])
    if not block or block["hash"].lower() != read.end_hash:
        raise ChainMoved(f"Block {number} changed while it was read.")
    tx_hashes = [h.lower() for h in block["transactions"]]
    logs = []
    for tx_hash, receipt in zip(tx_hashes, rpc.receipts(w3, tx_hashes,
                                                        settings.INDEXER_CALL_BATCH_SIZE)):
        if receipt is rpc.OVERSIZED:
            reason = (f"the receipt of this transaction is larger than RPC_RESPONSE_MAX_BYTES "
                      f"({settings.RPC_RESPONSE_MAX_BYTES} bytes): raise it and re-index from "
                      f"block {number} to read its records")
            logger.error("%s: block %s, transaction %s: %s.", deployment, number, tx_hash,
                         reason)
            read.skipped.append(skipped_record(number, None, tx_hash, "", reason))
            continue
        if not receipt or receipt["blockHash"].lower() != read.end_hash:
            raise ChainMoved(f"Transaction {tx_hash} is no longer in block {number}.")
        logs += [log for log in receipt["logs"]
                 if log["address"].lower() == deployment.address
                 and log["topics"] and log["topics"][0].lower() in topics]
    return logs


def _read_schemas(w3: Web3, deployment: Deployment, decoded: list[Event], read: RangeRead):
    old_style = [e for e in decoded if e.schema_record is None]
    records = rpc.eth_calls(w3, deployment.address,
                            [events.uid_call(events.GET_SCHEMA, e.uid) for e in old_style],
                            settings.INDEXER_CALL_BATCH_SIZE)
    fetched = {}
    for event, raw in zip(old_style, records):
        if raw is rpc.OVERSIZED:
            continue
        record = events.decode_schema_record(raw)
        if record[0] != event.uid:
            raise ChainMoved(f"Schema {event.uid} is not in the registry's state.")
        fetched[event.uid] = record[1:]
    for event in decoded:
        record = event.schema_record or fetched.get(event.uid)
        if record is None:
            _skip_oversized(read, event, "getSchema")
            continue
        read.schemas.append((event, record))


def _read_eas(w3: Web3, deployment: Deployment, decoded: list[Event], read: RangeRead):
    uids = list(dict.fromkeys(e.uid for e in decoded if e.kind in ("attested", "revoked")))
    answers = rpc.eth_calls(w3, deployment.address,
                            [events.uid_call(events.GET_ATTESTATION, uid) for uid in uids],
                            settings.INDEXER_CALL_BATCH_SIZE)
    onchain = {}
    for uid, raw in zip(uids, answers):
        if raw is rpc.OVERSIZED:
            continue
        attestation = events.decode_attestation(raw)
        if attestation.uid != uid:
            raise ChainMoved(f"Attestation {uid} is not in the contract's state.")
        onchain[uid] = attestation
    for event in decoded:
        if event.kind in ("attested", "revoked") and event.uid not in onchain:
            _skip_oversized(read, event, "getAttestation")
        elif event.kind == "attested":
            read.attested.append((event, onchain[event.uid]))
        elif event.kind == "revoked":
            if not onchain[event.uid].revocation_time:
                raise ChainMoved(f"Attestation {event.uid} is not revoked in the state.")
            read.revoked.append((event, onchain[event.uid]))
        elif event.kind == "timestamped":
            read.timestamps.append(event)
        elif event.kind == "revoked_offchain":
            read.offchain_revocations.append(event)


def _skip_oversized(read: RangeRead, event: Event, call: str) -> None:
    """A record whose state (`call`'s answer) alone is over RPC_RESPONSE_MAX_BYTES."""
    reason = (f"{call}'s answer is larger than RPC_RESPONSE_MAX_BYTES "
              f"({settings.RPC_RESPONSE_MAX_BYTES} bytes): raise it and re-index from block "
              f"{event.position.block_number} to read this record")
    logger.error("Block %s, uid %s: %s.", event.position.block_number, event.uid, reason)
    p = event.position
    read.skipped.append(skipped_record(p.block_number, p.log_index, p.tx_hash, event.uid, reason))

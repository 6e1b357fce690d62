"""Document verification (SPEC section 6): is this document hash bound on a chain?

A hash verifies through an attestation that carries it in its schema's document-hash field
(the indexer fills `Attestation.document_hash` from that field only) and fails none of the
rules of verification/rules.py. The earliest such attestation answers; when none does, the
answer says why (the most telling reason of the document's attestations).

The usual answer is one indexed query (verification/sql.py), with no write and no chain
call. `live=True` asks the chain itself (see `_live`). Only a miss costs a second query: the
reason's (over the document's Merkle batches too), and its offchain attestations' when it has
some.
"""

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from django.utils import timezone
from eth_abi.exceptions import DecodingError
from web3.exceptions import TransactionNotFound, Web3Exception

from attestations import finality
from attestations.confirmations import confirmations as count_confirmations
from attestations.indexer import rpc
from attestations.indexer.events import ATTESTED
from attestations.models import Attestation, ChainHead, OffchainRevocation
from core.errors import ServiceUnavailable
from eas_primitives.abi import GET_ATTESTATION_SELECTOR, ZERO_UID, eas_abi
from eas_primitives.merkle import root_of
from registry.chain_client import NoEndpointAvailable, endpoint_clients, record_failure
from registry.models import Chain
from verification import rules
from verification.issuer_naming import naming_issuers
from verification.replica_check import checked_on_primary, each_checked_on_primary
from verification.rules import RANK, REASONS, VALID, Row
from verification.sql import (
    earliest_valid,
    every_ranked,
    most_telling,
    most_telling_of_each,
    most_telling_offchain,
    most_telling_root,
)

logger = logging.getLogger(__name__)
# How many of the index's candidates a live verification asks the chain about, earliest
# first, before it answers "not verified".
LIVE_CANDIDATES = 10
@dataclass(slots=True)  # not frozen: a frozen one costs each request 2 us to build
class Verification:
    verified: bool
    attestation_id: str | None = None
    timestamp: datetime | None = None
    chain_id: int | None = None
    attester: str | None = None
    schema_id: str | None = None
    tx_hash: str | None = None
    block_number: int | None = None
    confirmations: int | None = None
    # The rest of the evidence a third party needs to re-check a verified answer on the
    # chain (docs/verify-yourself.md): where the Attested log is, and the EAS contract.
    block_hash: str | None = None
    log_index: int | None = None
    eas_address: str | None = None
    # What "final" meant (attestations/finality.py): the chain's rule and its newest final
    # block; and whether the chain is stalled (the answer may be out of date).
    finality_rule: str | None = None
    finalized_block: int | None = None
    chain_stalled: bool = False
    reason: str | None = None  # why not, when not verified (verification/rules.py)
    document_hash: str | None = None  # named by a batch's answers only
    # Verified through an offchain attestation (verification/sql.py OFFCHAIN_SQL); whether the
    # chain proves its time (on-chain answers: always).
    offchain: bool | None = None
    timestamp_proven: bool | None = None
    # Verified through the attested root of a Merkle batch (binding mode `merkle`): the
    # attestation is the root's, and `proof` leads from the document's leaf to it.
    merkle_root: str | None = None
    proof: list[str] | None = None
    # The issuer of the attester (issuers/), named after the rules chose the answer
    # (verification/issuer_naming.py).
    issuer: object | None = None

    @property
    def finality(self) -> dict | None:
        if self.finality_rule is None:
            return None
        return {"rule": self.finality_rule, "finalizedBlock": self.finalized_block}

    @property
    def get_attestation_call(self) -> dict | None:
        """The eth_call that reads the attestation from its EAS contract: `to` and `data`
        as eth_call takes them, so that anyone can ask the chain rather than us."""
        if self.eas_address is None or self.attestation_id is None or self.offchain:
            return None  # an offchain attestation is not in the contract's storage
        return {"to": self.eas_address,
                "data": GET_ATTESTATION_SELECTOR + self.attestation_id[2:]}


NOT_VERIFIED = Verification(verified=False, reason=rules.NOT_FOUND)


def not_verified(rank: int, **fields) -> Verification:
    return Verification(verified=False, reason=REASONS[rank], **fields)


def finality_facts(row: Row | None) -> dict:
    """An answer's finality facts, from the row of the attestation that gave it; none
    without one."""
    if row is None:
        return {}
    return {"finality_rule": row.finality_rule, "finalized_block": row.finalized_block,
            "chain_stalled": bool(row.chain_stalled)}


def chain_facts(chain_id: int | None) -> dict:
    """The asked chain's finality facts, for an answer that found nothing there (a stalled
    chain's indexer may not have read the document's attestation yet); none when no chain
    (or an unknown one) was asked. The reference of MISS_SQL's last columns."""
    row = None if chain_id is None else (
        Chain.objects.filter(pk=chain_id)
        .values_list("finality", "head__final_block", "head__stalled_since").first())
    return {} if row is None else asked_facts((row[0], row[1], row[2] is not None))


def asked_facts(asked: tuple) -> dict:
    rule, block, stalled = asked
    if rule is None:
        return {}
    return {"finality_rule": rule, "finalized_block": block, "chain_stalled": bool(stalled)}


def verified(row: Row, **fields) -> Verification:
    """A verified answer from an attestation's row: on-chain, offchain (verification/sql.py's
    OFFCHAIN_SQL), or through its Merkle root's attestation (with root and proof)."""
    return Verification(
        verified=True, attestation_id=row.uid, timestamp=row.time, chain_id=row.chain_id,
        attester=row.attester, schema_id=row.schema_uid, tx_hash=row.tx_hash,
        block_number=row.block_number, confirmations=row.confirmations,
        block_hash=row.block_hash, log_index=row.log_index, eas_address=row.eas_address,
        **finality_facts(row), offchain=bool(row.offchain), timestamp_proven=bool(row.time_proven),
        merkle_root=row.root, proof=row.proof, **fields)


@dataclass(frozen=True)
class Revocation:
    """The revoked attestation behind a `revoked` answer, as the public page names it."""

    attestation_id: str
    chain_id: int
    attester: str
    revoked_at: datetime | None
    offchain: bool = False


def revocation_of(document_hash: str, *, chain_id: int | None = None,
                  now: datetime | None = None) -> Revocation | None:
    """Which attestation made `document_hash` `revoked`: the earliest of its attestations
    whose own reason is `revoked` (directly, or the root's of a Merkle batch holding it), else
    its revoked offchain one; None when none is. The answer's reason says only `revoked`,
    and only a miss asks this (the page, for its verdict)."""
    now = now or timezone.now()
    revoked = RANK[rules.REVOKED]
    row = next((row for row, _ in every_ranked(document_hash, chain_id=chain_id, now=now)
                if row.rank == revoked), None)
    if row is not None:
        revoked_at = (Attestation.objects.filter(chain_id=row.chain_id, uid=row.uid)
                      .values_list("revocation_time", flat=True).first())
        return Revocation(row.uid, row.chain_id, row.attester, revoked_at)
    row = most_telling_offchain([document_hash], chain_id=chain_id, now=now).get(document_hash)
    if row is None or row.rank != revoked:
        return None
    revoked_at = (OffchainRevocation.objects
                  .filter(chain_id=row.chain_id, deployment__address=row.eas_address,
                          revoker=row.attester, data=row.uid)
                  .values_list("timestamp", flat=True).first())
    return Revocation(row.uid, row.chain_id, row.attester, revoked_at, offchain=True)


@naming_issuers
@checked_on_primary  # a replica's young `true`, asked again of the primary
def verify_document(document_hash: str, *, chain_id: int | None = None, live: bool = False,
                    now: datetime | None = None, proof: list[str] | None = None,
                    merkle_root: str | None = None) -> Verification:
    """Verify a normalised (0x + 64 lowercase hex) document hash. `live` re-reads the
    candidates from their chains: ServiceUnavailable when a chain does not answer. With a
    Merkle `proof` (and its `merkle_root`), the answer is that proof's: see `_by_proof`."""
    now = now or timezone.now()
    if proof is not None:
        return _by_proof(document_hash, proof, merkle_root, chain_id=chain_id, now=now)
    if live:
        return _live(document_hash, chain_id=chain_id, now=now)
    row = earliest_valid(document_hash, chain_id=chain_id, now=now)
    if row is not None:
        return verified(row)
    # A miss: the query that says why, over the document's Merkle batches too, and whether
    # it has offchain attestations.
    row, has_offchain, asked = most_telling(document_hash, chain_id=chain_id, now=now)
    if row is not None and row.rank == VALID:  # made valid between the two queries
        return verified(row)
    offchain = (most_telling_offchain([document_hash], chain_id=chain_id, now=now)
                .get(document_hash) if has_offchain else None)
    return _answer_off_chain(offchain, row.rank if row else RANK[rules.NOT_FOUND],
                             facts=finality_facts(row) if row else asked_facts(asked))


def _by_proof(document_hash: str, proof: list[str], merkle_root: str | None, *,
              chain_id: int | None, now: datetime) -> Verification:
    """What a holder's Merkle proof shows: verified when it leads from the document to a
    root (`merkle_root`, when given) that a batch bound here, and that root's attestation
    passes the rules; `invalid_proof` when it leads nowhere known."""
    root = root_of(document_hash, proof)
    if merkle_root is not None and root != merkle_root:
        return not_verified(RANK[rules.INVALID_PROOF])
    row = most_telling_root(root, chain_id=chain_id, now=now)
    if row is None:
        return not_verified(RANK[rules.INVALID_PROOF])
    if row.rank != VALID:
        return not_verified(row.rank, **finality_facts(row))
    return verified(row._replace(proof=list(proof)))


def _answer_off_chain(offchain: Row | None, on_chain_rank: int, facts: dict | None = None,
                      **fields) -> Verification:
    """The answer when no on-chain attestation verifies: the offchain one if it does, else
    the most telling reason of both kinds (with the on-chain one's finality `facts`)."""
    if offchain is not None and offchain.rank == VALID:
        return verified(offchain, **fields)
    rank = max(on_chain_rank, offchain.rank if offchain else RANK[rules.NOT_FOUND])
    return not_verified(rank, **(facts or {}), **fields)


@naming_issuers
@each_checked_on_primary
def verify_documents(document_hashes: list[str], *, chain_id: int | None = None,
                     now: datetime | None = None) -> list[Verification]:
    """Verify many normalised document hashes in one database statement: each distinct hash
    once, in the order of its first appearance, answered as verify_document answers it
    (each answer names its `document_hash`)."""
    now = now or timezone.now()
    distinct = list(dict.fromkeys(document_hashes))
    found = most_telling_of_each(distinct, chain_id=chain_id, now=now)
    missed = [h for h in distinct if h not in found or found[h].rank != VALID]
    offchain = most_telling_offchain(missed, chain_id=chain_id, now=now) if missed else {}
    answers, asked = [], None
    for document_hash in distinct:
        row = found.get(document_hash)
        if row is not None and row.rank == VALID:
            answers.append(verified(row, document_hash=document_hash))
            continue
        if row is None and asked is None:
            asked = chain_facts(chain_id)  # once per batch
        answers.append(_answer_off_chain(
            offchain.get(document_hash), row.rank if row else RANK[rules.NOT_FOUND],
            facts=finality_facts(row) if row else asked, document_hash=document_hash))
    return answers


# Live verification ---------------------------------------------------------------------------


def _live(document_hash: str, *, chain_id: int | None, now: datetime) -> Verification:
    """Ask the chain about the index's candidates, earliest first; the first the chain says
    is valid answers. Revocation and confirmations are the chain's own, not the index's (a
    revocation or a reorganisation the indexer has not read yet counts). A hash the index
    has never seen is not asked about: live re-reads attestations, it does not search.

    The reason, when none verifies: the most telling of what the chain said of the
    candidates asked and of what the index says of the other attestations (those the
    policy rules out, and candidates beyond the first LIVE_CANDIDATES unless the index
    thinks them valid: they were not asked)."""
    ranked = every_ranked(document_hash, chain_id=chain_id, now=now)
    direct = [(row, candidate) for row, candidate in ranked if row.root is None]
    asked = [row for row, candidate in direct if candidate][:LIVE_CANDIDATES]
    # The Merkle batches' most telling root attestation (the earliest of the highest rank).
    merkle = max((row for row, _ in ranked if row.root is not None),
                 key=lambda row: row.rank, default=None)
    chains = Chain.objects.in_bulk({row.chain_id for row in [*asked, merkle] if row})
    clients = {}  # chain id -> its endpoints' clients, made once per chain

    def read(row: Row) -> Verification:
        chain = chains[row.chain_id]
        if row.chain_id not in clients:
            clients[row.chain_id] = endpoint_clients(chain)
        return _read_anywhere(clients[row.chain_id], row, chain, now)

    best = RANK[rules.NOT_FOUND]
    for row in asked:
        answer = read(row)
        if answer.verified:
            return answer
        best = max(best, RANK[answer.reason])
    if merkle is not None and merkle.rank == VALID:  # the root's attestation, re-read
        answer = read(merkle)
        if answer.verified:
            answer.merkle_root, answer.proof = merkle.root, merkle.proof
            return answer
        best = max(best, RANK[answer.reason])
    elif merkle is not None:
        best = max(best, merkle.rank)
    if best < RANK[rules.NOT_FINAL]:  # something else might tell more
        others = [row.rank for row, _ in direct if row not in asked and row.rank < VALID]
        best = max([best, *others])
    # Offchain attestations as the index knows them (their revocations and timestamps are
    # indexed events): nothing on chain to re-read for them.
    offchain = most_telling_offchain([document_hash], chain_id=chain_id, now=now)
    return _answer_off_chain(offchain.get(document_hash), best)


# What a provider's error or nonsense answer raises on the way to a Verification (a JSON-RPC
# error, bytes that do not decode, a receipt without a block, a time beyond datetime): the
# next endpoint is asked. getAttestation never reverts, so no error here is an answer.
_UNUSABLE_ANSWER = (Web3Exception, DecodingError, ValueError, TypeError, KeyError,
                    OverflowError, RecursionError)


def _read_anywhere(clients: list, row: Row, chain: Chain, now: datetime) -> Verification:
    """The attestation read from the first endpoint that answers usably (it goes first for
    the next candidate); ServiceUnavailable, naming no endpoint, when none does: the
    earliest candidate cannot be checked, and any other answer could be wrong."""
    for index, (endpoint, w3) in enumerate(clients):
        try:
            answer = _read_on_chain(w3, row, chain, now)
        except NoEndpointAvailable:
            continue  # a connection error, a timeout, a page: recorded by the client
        except _UNUSABLE_ANSWER as exc:
            record_failure(endpoint, "invalid response")
            logger.warning("Live verification on chain %s: %s answered unusably (%s); "
                           "failing over.", row.chain_id, endpoint.masked_url,
                           type(exc).__name__)
            continue
        clients.insert(0, clients.pop(index))
        return answer
    raise ServiceUnavailable(
        f"No RPC endpoint of chain {row.chain_id} gave a usable answer; "
        "try again later, or without live.", code="chain_unavailable",
    )


def _read_on_chain(w3, row: Row, chain: Chain, now: datetime) -> Verification:
    """The attestation as its EAS contract holds it now: verified, or why not."""
    eas = w3.eth.contract(address=w3.to_checksum_address(row.eas_address), abi=eas_abi())
    (uid, schema, time, expiration, revocation, _ref, _recipient, attester, *_rest) = (
        eas.functions.getAttestation(bytes.fromhex(row.uid[2:])).call()
    )
    if "0x" + uid.hex() == ZERO_UID:
        return NOT_VERIFIED  # reorganised away: the chain has no such attestation
    if revocation:
        return not_verified(RANK[rules.REVOKED])
    if expiration and expiration <= int(now.timestamp()):
        return not_verified(RANK[rules.EXPIRED])
    try:
        receipt = w3.eth.get_transaction_receipt(row.tx_hash)
    except TransactionNotFound:
        # The index's transaction is not on the chain (yet): no block to count from.
        return not_verified(RANK[rules.NOT_FINAL])
    head, final = rpc.head_and_final(w3, chain)  # the chain's own, now
    confirmations = count_confirmations(head, receipt["blockNumber"])
    facts = {"finality_rule": chain.finality, "finalized_block": final,
             "chain_stalled": ChainHead.objects.filter(
                 pk=chain.pk, stalled_since__isnull=False).exists()}
    is_final = (confirmations >= chain.confirmations if finality.tag(chain) is None
                else finality.is_final(chain, receipt["blockNumber"], final))
    if not is_final:
        return not_verified(RANK[rules.NOT_FINAL], **facts)
    return Verification(
        verified=True, offchain=False, timestamp_proven=True, attestation_id=row.uid,
        timestamp=datetime.fromtimestamp(time, UTC), chain_id=row.chain_id,
        attester=attester.lower(), schema_id="0x" + schema.hex(), tx_hash=row.tx_hash,
        block_number=receipt["blockNumber"], confirmations=confirmations,
        block_hash="0x" + bytes(receipt["blockHash"]).hex(),
        log_index=_attested_log_index(receipt, row), eas_address=eas.address.lower(),
        **facts,
    )


def _attested_log_index(receipt, row: Row) -> int:
    """Where the receipt holds the attestation's Attested log (emitted by its EAS contract,
    the uid as the log's data): the chain's position, which a reorganisation that re-mined
    the transaction may have moved; the index's when no log matches."""
    uid = bytes.fromhex(row.uid[2:])
    for log in receipt["logs"]:
        topics = log["topics"]
        if (log["address"].lower() == row.eas_address and topics
                and "0x" + bytes(topics[0]).hex() == ATTESTED and bytes(log["data"])[:32] == uid):
            return log["logIndex"]
    return row.log_index

"""Document verification (SPEC section 6): is this document hash bound on a chain?

A hash verifies through an attestation that carries it in its schema's document-hash field
(the indexer fills `Attestation.document_hash` from that field only), on an active chain,
not revoked, not expired now, made by a trusted attester of its chain, with at least the
chain's confirmations. The earliest such attestation answers; when none does, the answer
says why (verification/reasons.py).

The usual answer is one indexed query (the trusted attesters are subqueries in it),
with no write and no chain call: `verification_query` below says it with the ORM, and
verification/sql.py runs the same query written in SQL. `live=True` asks the chain itself
(see `_live`). Only a miss costs a second query: the reason's (`reason_query`, and the
document's Merkle batches and offchain attestations; verification/sql.py's MISS_SQL).
"""

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import (
    BooleanField,
    Case,
    ExpressionWrapper,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from eth_abi.exceptions import DecodingError
from web3.exceptions import TransactionNotFound, Web3Exception

from attestations.confirmations import confirmations as count_confirmations
from attestations.indexer.events import ATTESTED
from attestations.models import Attestation, MerkleBatch, OffchainRevocation
from core.errors import ServiceUnavailable
from eas_primitives.abi import GET_ATTESTATION_SELECTOR, ZERO_UID, eas_abi
from eas_primitives.merkle import root_of
from executors.models import Executor, TrustedAttester
from registry.chain_client import NoEndpointAvailable, endpoint_clients, record_failure
from registry.models import Chain
from verification import reasons
from verification.issuer_naming import naming_issuers
from verification.offchain import ranked_offchain
from verification.reasons import RANK, REASONS, VALID
from verification.replica_check import checked_on_primary, each_checked_on_primary
from verification.sql import (
    earliest_valid,
    most_telling,
    most_telling_merkle,
    most_telling_of_each,
    most_telling_root,
    with_offchain,
)

logger = logging.getLogger(__name__)
# How many of the index's candidates a live verification asks the chain about, earliest
# first, before it answers "not verified".
LIVE_CANDIDATES = 10
# Earliest first; the rest only breaks ties (two chains, one second).
EARLIEST = ("time", "chain_id", "block_number", "log_index")
# A verified answer's row, in the order of Verification's fields after `verified`.
ROW = ("uid", "time", "chain_id", "attester", "schema_uid", "tx_hash", "block_number",
       "confirmations", "block_hash", "log_index", "deployment__address")


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
    reason: str | None = None  # why not, when not verified (verification/reasons.py)
    document_hash: str | None = None  # named by a batch's answers only
    # Verified through an offchain attestation (verification/offchain.py); whether the
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
    def get_attestation_call(self) -> dict | None:
        """The eth_call that reads the attestation from its EAS contract: `to` and `data`
        as eth_call takes them, so that anyone can ask the chain rather than us."""
        if self.eas_address is None or self.attestation_id is None or self.offchain:
            return None  # an offchain attestation is not in the contract's storage
        return {"to": self.eas_address,
                "data": GET_ATTESTATION_SELECTOR + self.attestation_id[2:]}


NOT_VERIFIED = Verification(verified=False, reason=reasons.NOT_FOUND)


def not_verified(rank: int, **fields) -> Verification:
    return Verification(verified=False, reason=REASONS[rank], **fields)


def on_chain(row, **fields) -> Verification:
    """A verified answer from an on-chain attestation's row (ROW)."""
    return Verification(True, *row, offchain=False, timestamp_proven=True, **fields)


def through_offchain(attestation, **fields) -> Verification:
    """A verified answer from an offchain attestation (verification/offchain.py)."""
    proven = attestation.proven_at is not None
    return Verification(
        verified=True, attestation_id=attestation.uid,
        timestamp=attestation.proven_at if proven else attestation.time,
        chain_id=attestation.chain_id, attester=attestation.attester,
        schema_id=attestation.schema_uid, eas_address=attestation.deployment.address,
        offchain=True, timestamp_proven=proven, **fields)


def trusted_attester() -> Coalesce:
    """The attestation's attester is trusted on its chain. An executor registered there is,
    whatever its liveness, unless an administrator revoked its trust (then it is not, even
    if also listed as a trusted attester); any other address is when an administrator added
    it. Two unique-index probes: each a scalar subquery with LIMIT 1, which PostgreSQL runs
    as an index probe (an EXISTS here became a hashed subplan, which reads the whole table
    of trusted attesters into a hash for each verification that reaches it)."""
    executor_trust = Executor.objects.filter(  # unique (chain, address): no order needed
        chain_id=OuterRef("chain_id"), address=OuterRef("attester"),
    ).order_by().values(trusted=ExpressionWrapper(Q(trust_revoked_at__isnull=True),
                                       output_field=BooleanField()))[:1]
    added = TrustedAttester.objects.filter(
        chain_id=OuterRef("chain_id"), address=OuterRef("attester"),
    ).order_by().values(trusted=Value(True, output_field=BooleanField()))[:1]
    return Coalesce(Subquery(executor_trust), Subquery(added), Value(False),
                    output_field=BooleanField())


def candidates(document_hash: str, *, chain_id: int | None = None, now: datetime):
    """Attestations of `document_hash` that pass every rule that a chain cannot undo
    (active chain, trusted attester, data as its schema says, not expired at `now`),
    earliest first."""
    found = Attestation.objects.filter(
        Q(expiration_time__isnull=True) | Q(expiration_time__gt=now),
        trusted_attester(),
        document_hash=document_hash,
        chain__status=Chain.Status.ACTIVE,
        undecodable=False,
    )
    if chain_id is not None:
        found = found.filter(chain_id=chain_id)
    return found.order_by(*EARLIEST)


def verification_query(document_hash: str, *, chain_id: int | None = None, now: datetime):
    """The hot query: the earliest valid attestation, as one row in Verification's order.
    The reference for verification/sql.py's VERIFICATION_SQL, which is what runs."""
    return (
        candidates(document_hash, chain_id=chain_id, now=now)
        .filter(revocation_time__isnull=True)
        .with_confirmations()
        .filter(confirmations__gte=F("chain__confirmations"))
        .values_list(*ROW)[:1]
    )


def reason_rank(now: datetime) -> Case:
    """Each attestation's first failing rule, as its rank in verification/reasons.py (VALID
    when none fails). Needs `confirmations` annotated (`with_confirmations`)."""
    return Case(
        When(~Q(chain__status=Chain.Status.ACTIVE), then=Value(RANK[reasons.CHAIN_INACTIVE])),
        When(~Q(trusted_attester()), then=Value(RANK[reasons.UNTRUSTED_ATTESTER])),
        When(undecodable=True, then=Value(RANK[reasons.UNDECODABLE])),
        When(revocation_time__isnull=False, then=Value(RANK[reasons.REVOKED])),
        When(expiration_time__lte=now, then=Value(RANK[reasons.EXPIRED])),
        When(confirmations__lt=F("chain__confirmations"), then=Value(RANK[reasons.NOT_FINAL])),
        default=Value(VALID), output_field=IntegerField(),
    )


def ranked(document_hash: str, *, chain_id: int | None = None, now: datetime):
    """Every attestation of `document_hash` (on `chain_id`), annotated with `rank`."""
    found = Attestation.objects.filter(document_hash=document_hash)
    if chain_id is not None:
        found = found.filter(chain_id=chain_id)
    return found.with_confirmations().annotate(rank=reason_rank(now))


def reason_query(document_hash: str, *, chain_id: int | None = None, now: datetime):
    """The most telling attestation of `document_hash`, as one row: its rank, then the row
    `verification_query` gives. The reference for verification/sql.py's MISS_SQL."""
    return (
        ranked(document_hash, chain_id=chain_id, now=now)
        .order_by("-rank", *EARLIEST)
        .values_list("rank", *ROW)[:1]
    )


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
    roots = Q()
    for root_chain, uid in (MerkleBatch.objects.filter(leaves__document_hash=document_hash)
                            .exclude(attestation_uid="")
                            .values_list("chain_id", "attestation_uid")):
        roots |= Q(chain_id=root_chain, uid=uid)
    found = Attestation.objects.filter(Q(document_hash=document_hash) | roots)
    if chain_id is not None:
        found = found.filter(chain_id=chain_id)
    row = (found.with_confirmations().annotate(rank=reason_rank(now))
           .filter(rank=RANK[reasons.REVOKED]).order_by(*EARLIEST)
           .values_list("uid", "chain_id", "attester", "revocation_time").first())
    if row is not None:
        return Revocation(*row)
    ranked_one = ranked_offchain([document_hash], chain_id=chain_id, now=now).get(document_hash)
    if ranked_one is None or ranked_one[0] != RANK[reasons.REVOKED]:
        return None
    attestation = ranked_one[1]
    revoked_at = (OffchainRevocation.objects
                  .filter(deployment_id=attestation.deployment_id, revoker=attestation.attester,
                          data=attestation.uid)
                  .values_list("timestamp", flat=True).first())
    return Revocation(attestation.uid, attestation.chain_id, attestation.attester, revoked_at,
                      offchain=True)


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
        return on_chain(row)
    # A miss: the query that says why, over the document's Merkle batches too, and whether
    # it has offchain attestations.
    row, has_offchain = most_telling(document_hash, chain_id=chain_id, now=now)
    if row is not None and row[0] == VALID:  # made valid between the two queries
        return verified_by(row)
    offchain = (ranked_offchain([document_hash], chain_id=chain_id, now=now).get(document_hash)
                if has_offchain else None)
    return _answer_off_chain(offchain, row[0] if row else RANK[reasons.NOT_FOUND])


def verified_by(row, **fields) -> Verification:
    """A verified answer from a ranked row (rank, ROW..., root, proof): through its Merkle
    root's attestation when it has a proof, else directly."""
    if row[-1] is not None:
        return through_merkle(row, **fields)
    return on_chain(row[1:-2], **fields)


def through_merkle(row, **fields) -> Verification:
    """A verified answer through a Merkle root's attestation: (rank, ROW..., root, proof)."""
    *attestation, root, proof = row[1:]
    return on_chain(attestation, merkle_root=root, proof=proof, **fields)


def _by_proof(document_hash: str, proof: list[str], merkle_root: str | None, *,
              chain_id: int | None, now: datetime) -> Verification:
    """What a holder's Merkle proof shows: verified when it leads from the document to a
    root (`merkle_root`, when given) that a batch bound here, and that root's attestation
    passes the rules; `invalid_proof` when it leads nowhere known."""
    root = root_of(document_hash, proof)
    if merkle_root is not None and root != merkle_root:
        return not_verified(RANK[reasons.INVALID_PROOF])
    row = most_telling_root(root, chain_id=chain_id, now=now)
    if row is None:
        return not_verified(RANK[reasons.INVALID_PROOF])
    if row[0] != VALID:
        return not_verified(row[0])
    return on_chain(row[1:-1], merkle_root=root, proof=list(proof))


def _answer_off_chain(offchain, on_chain_rank: int, **fields) -> Verification:
    """The answer when no on-chain attestation verifies: the offchain one if it does, else
    the most telling reason of both kinds."""
    if offchain is not None and offchain[0] == VALID:
        return through_offchain(offchain[1], **fields)
    rank = max(on_chain_rank, offchain[0] if offchain else RANK[reasons.NOT_FOUND])
    return not_verified(rank, **fields)


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
    missed = [h for h in distinct if h not in found or found[h][0] != VALID]
    # The offchain attestations of the misses: which have some (one probe), then those ranked.
    holders = with_offchain(missed, chain_id=chain_id) if missed else set()
    offchain = (ranked_offchain(list(holders), chain_id=chain_id, now=now) if holders
                else {})
    answers = []
    for document_hash in distinct:
        row = found.get(document_hash)
        if row is not None and row[0] == VALID:
            answers.append(verified_by(row, document_hash=document_hash))
        else:
            answers.append(_answer_off_chain(
                offchain.get(document_hash), row[0] if row else RANK[reasons.NOT_FOUND],
                document_hash=document_hash))
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
    found = list(candidates(document_hash, chain_id=chain_id, now=now)
                 .select_related("chain", "deployment")[:LIVE_CANDIDATES])
    clients = {}
    best = RANK[reasons.NOT_FOUND]
    for attestation in found:
        chain = attestation.chain
        if chain.pk not in clients:
            clients[chain.pk] = endpoint_clients(chain)
        answer = _read_anywhere(clients[chain.pk], attestation, now)
        if answer.verified:
            return answer
        best = max(best, RANK[answer.reason])
    merkle = most_telling_merkle(document_hash, chain_id=chain_id, now=now)
    if merkle is not None and merkle[0] == VALID:  # the root's attestation, re-read
        root = (Attestation.objects.select_related("chain", "deployment")
                .get(chain_id=merkle[3], uid=merkle[1]))
        answer = _read_anywhere(endpoint_clients(root.chain), root, now)
        if answer.verified:
            answer.merkle_root, answer.proof = merkle[-2:]
            return answer
        best = max(best, RANK[answer.reason])
    elif merkle is not None:
        best = max(best, merkle[0])
    if best < RANK[reasons.NOT_FINAL]:  # something else might tell more
        others = (ranked(document_hash, chain_id=chain_id, now=now)
                  .exclude(pk__in=[attestation.pk for attestation in found])
                  .filter(rank__lt=VALID).aggregate(best=Max("rank"))["best"])
        best = max(best, others or RANK[reasons.NOT_FOUND])
    # Offchain attestations as the index knows them (their revocations and timestamps are
    # indexed events): nothing on chain to re-read for them.
    offchain = ranked_offchain([document_hash], chain_id=chain_id, now=now).get(document_hash)
    return _answer_off_chain(offchain, best)


# What a provider's error or nonsense answer raises on the way to a Verification (a JSON-RPC
# error, bytes that do not decode, a receipt without a block, a time beyond datetime): the
# next endpoint is asked. getAttestation never reverts, so no error here is an answer.
_UNUSABLE_ANSWER = (Web3Exception, DecodingError, ValueError, TypeError, KeyError,
                    OverflowError, RecursionError)


def _read_anywhere(clients: list, attestation: Attestation, now: datetime) -> Verification:
    """The attestation read from the first endpoint that answers usably (it goes first for
    the next candidate); ServiceUnavailable, naming no endpoint, when none does: the
    earliest candidate cannot be checked, and any other answer could be wrong."""
    for index, (endpoint, w3) in enumerate(clients):
        try:
            answer = _read_on_chain(w3, attestation, now)
        except NoEndpointAvailable:
            continue  # a connection error, a timeout, a page: recorded by the client
        except _UNUSABLE_ANSWER as exc:
            record_failure(endpoint, "invalid response")
            logger.warning("Live verification on chain %s: %s answered unusably (%s); "
                           "failing over.", attestation.chain_id, endpoint.masked_url,
                           type(exc).__name__)
            continue
        clients.insert(0, clients.pop(index))
        return answer
    raise ServiceUnavailable(
        f"No RPC endpoint of chain {attestation.chain_id} gave a usable answer; "
        "try again later, or without live.", code="chain_unavailable",
    )


def _read_on_chain(w3, attestation: Attestation, now: datetime) -> Verification:
    """The attestation as its EAS contract holds it now: verified, or why not."""
    eas = w3.eth.contract(address=w3.to_checksum_address(attestation.deployment.address),
                          abi=eas_abi())
    (uid, schema, time, expiration, revocation, _ref, _recipient, attester, *_rest) = (
        eas.functions.getAttestation(bytes.fromhex(attestation.uid[2:])).call()
    )
    if "0x" + uid.hex() == ZERO_UID:
        return NOT_VERIFIED  # reorganised away: the chain has no such attestation
    if revocation:
        return not_verified(RANK[reasons.REVOKED])
    if expiration and expiration <= int(now.timestamp()):
        return not_verified(RANK[reasons.EXPIRED])
    try:
        receipt = w3.eth.get_transaction_receipt(attestation.tx_hash)
    except TransactionNotFound:
        # The index's transaction is not on the chain (yet): no block to count from.
        return not_verified(RANK[reasons.NOT_FINAL])
    confirmations = count_confirmations(w3.eth.block_number, receipt["blockNumber"])
    if confirmations < attestation.chain.confirmations:
        return not_verified(RANK[reasons.NOT_FINAL])
    return Verification(
        verified=True, offchain=False, timestamp_proven=True, attestation_id=attestation.uid,
        timestamp=datetime.fromtimestamp(time, UTC), chain_id=attestation.chain_id,
        attester=attester.lower(), schema_id="0x" + schema.hex(), tx_hash=attestation.tx_hash,
        block_number=receipt["blockNumber"], confirmations=confirmations,
        block_hash="0x" + bytes(receipt["blockHash"]).hex(),
        log_index=_attested_log_index(receipt, attestation), eas_address=eas.address.lower(),
    )


def _attested_log_index(receipt, attestation: Attestation) -> int:
    """Where the receipt holds the attestation's Attested log (emitted by its EAS contract,
    the uid as the log's data): the chain's position, which a reorganisation that re-mined
    the transaction may have moved; the index's when no log matches."""
    uid = bytes.fromhex(attestation.uid[2:])
    for log in receipt["logs"]:
        topics = log["topics"]
        if (log["address"].lower() == attestation.deployment.address and topics
                and "0x" + bytes(topics[0]).hex() == ATTESTED and bytes(log["data"])[:32] == uid):
            return log["logIndex"]
    return attestation.log_index

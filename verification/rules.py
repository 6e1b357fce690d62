"""The verification rules, each written once: what makes an attestation of a document verify,
and, when one fails, which reason the answer gives (docs/decisions.md "Reasons").

An attestation verifies when it fails none of RULES. Its reason, when it fails some, is the
first it fails in RULES' order (an untrusted attester's revocation says nothing, so the
policy's rules come first). A document's reason is the most telling of its attestations'
reasons, by RANK: the higher, the more a holder learns from it (not yet final: wait;
revoked: the attester took it back; ...). `not_found` when the document has no attestation
at all (on the asked chain). verification/sql.py builds every statement from RULES; a new
rule is one more `Rule` below (its reason in REASONS, at its precedence) and a test.

Each rule's predicate is SQL that is true when the attestation fails it, over `a` (the
attestation, on-chain or offchain: both tables name these columns alike), `c` (its chain),
`cur` (its deployment's index cursor, LEFT JOINed) and the parameters `%(now)s` and those of
`parameters()`. One text serves PostgreSQL and SQLite (standard SQL: CASE, not GREATEST). A
predicate is never NULL: the hot statement keeps a row by `NOT (predicate)`.
"""

from typing import Any, NamedTuple

from django.conf import settings

# The reasons, least telling first. Three are no rule of an attestation: `not_found` (no
# attestation), `invalid_proof` (a Merkle proof given with the document leads from it to no
# attested root the service knows: another document's, another batch's, a forgery), and
# `not_timestamped` (offchain only, below).
NOT_FOUND = "not_found"
INVALID_PROOF = "invalid_proof"
CHAIN_INACTIVE = "chain_inactive"
UNTRUSTED_ATTESTER = "untrusted_attester"
UNPROVEN_ISSUER = "unproven_issuer"
UNDECODABLE = "undecodable"
NOT_TIMESTAMPED = "not_timestamped"
EXPIRED = "expired"
REVOKED = "revoked"
NOT_FINAL = "not_final"
REASONS = (NOT_FOUND, INVALID_PROOF, CHAIN_INACTIVE, UNTRUSTED_ATTESTER, UNPROVEN_ISSUER,
           UNDECODABLE, NOT_TIMESTAMPED, EXPIRED, REVOKED, NOT_FINAL)
RANK = {reason: rank for rank, reason in enumerate(REASONS)}
VALID = len(REASONS)  # the rank of an attestation that verifies


def confirmations(block: str) -> str:
    """Blocks from `block` to the head its deployment's cursor last saw, both included; 0
    while the head is unknown or behind it (attestations/confirmations.py in Python)."""
    return f"""CASE WHEN cur.head_block >= {block}
            THEN cur.head_block - {block} + 1 ELSE 0 END"""


def final(block: str) -> str:
    """A record in `block` is final as its chain's rule says (attestations/finality.py): it
    has the chain's confirmations; or, under a tag (`safe`, `finalized`), it is at or below
    the final block its cursor last stored (none stored: not final)."""
    return f"""CASE WHEN c.finality = 'confirmations' THEN {confirmations(block)} >= c.confirmations
            ELSE COALESCE({block} <= cur.final_block, FALSE) END"""


# For the answer: the chain's newest final block as its rule says, and whether the chain is
# stalled (a primary-key probe).
FINALIZED_BLOCK = """CASE WHEN c.finality <> 'confirmations' THEN cur.final_block
            WHEN cur.head_block >= c.confirmations
            THEN cur.head_block + 1
                 - (CASE WHEN c.confirmations > 0 THEN c.confirmations ELSE 1 END)
            END"""
STALLED = """EXISTS (SELECT 1 FROM attestations_chainhead h
                WHERE h.chain_id = a.chain_id AND h.stalled_since IS NOT NULL)"""
FINALITY = f"""c.finality AS finality_rule, {FINALIZED_BLOCK} AS finalized_block,
       {STALLED} AS chain_stalled"""


# The attester is trusted on the chain: an executor registered there is (whatever its
# liveness) unless an administrator revoked its trust, even if also listed; any other
# address is when an administrator added it. Two unique-index probes, each a scalar subquery
# with LIMIT 1 (an EXISTS here became a hashed subplan, which reads the whole table of
# trusted attesters for each verification that reaches it).
TRUSTED = """COALESCE(
        (SELECT e.trust_revoked_at IS NULL FROM executors_executor e
         WHERE e.chain_id = a.chain_id AND e.address = a.attester LIMIT 1),
        (SELECT TRUE FROM executors_trustedattester t
         WHERE t.chain_id = a.chain_id AND t.address = a.attester LIMIT 1),
        FALSE)"""

# The attester's issuer (issuers/) is proven: its domain names this address on this chain
# (a DNS TXT record or its did:web document, at the latest check). A probe of the unique
# index of issuer addresses.
PROVEN_ISSUER = """EXISTS (SELECT 1 FROM issuers_issueraddress ia
         WHERE ia.chain_id = a.chain_id AND ia.address = a.attester AND ia.identity = 'proven')"""

# An offchain attestation's uid timestamped on its EAS contract (Timestamped, as indexed),
# and that timestamp final: the chain proves its time (`_STAMP` + a condition).
_STAMP = """SELECT {what} FROM attestations_timestamp ts
         WHERE ts.deployment_id = a.deployment_id AND ts.data = a.uid"""
STAMPED = f"EXISTS ({_STAMP.format(what='1')})"
PROVEN_AT = f"""({_STAMP.format(what='ts.timestamp')}
           AND {final('ts.block_number')})"""


class Rule(NamedTuple):
    reason: str
    fails: str | None  # of an on-chain attestation; None: not a rule for them
    offchain: str | None  # of an offchain one (verification/sql.py OFFCHAIN_SQL)
    live: bool = False  # live verification asks the chain rather than the index

    @property
    def rank(self) -> int:
        return RANK[self.reason]


def rule(reason: str, fails: str | None, *, offchain: Any = ..., live: bool = False) -> Rule:
    """A rule; its offchain predicate is the on-chain one unless given."""
    return Rule(reason, fails, fails if offchain is ... else offchain, live)


RULES = (
    rule(CHAIN_INACTIVE, "c.status <> 'active'"),
    rule(UNTRUSTED_ATTESTER, f"NOT {TRUSTED}"),
    # Only where VERIFY_REQUIRE_PROVEN_ISSUER is set (a parameter: false, it costs nothing).
    rule(UNPROVEN_ISSUER, f"%(require_proven_issuer)s AND NOT {PROVEN_ISSUER}"),
    # Its data is not laid out as its schema says (attestations.indexer.store.decode_data):
    # the EAS SDK could not decode it, so it binds nothing.
    rule(UNDECODABLE, "a.undecodable"),
    # Offchain: the attester's own RevokedOffchain of its uid on its EAS contract.
    rule(REVOKED, "a.revocation_time IS NOT NULL", live=True,
         offchain="""EXISTS (SELECT 1 FROM attestations_offchainrevocation r
                     WHERE r.deployment_id = a.deployment_id AND r.revoker = a.attester
                       AND r.data = a.uid)"""),
    rule(EXPIRED, "a.expiration_time IS NOT NULL AND a.expiration_time <= %(now)s"),
    # Offchain: timestamped, but not yet final.
    rule(NOT_FINAL, f"NOT ({final('a.block_number')})", live=True,
         offchain=f"{STAMPED} AND NOT EXISTS {PROVEN_AT}"),
    # Offchain only: never timestamped, on a chain where only timestamped ones verify.
    rule(NOT_TIMESTAMPED, None, offchain=f"NOT {STAMPED} AND NOT c.offchain_unanchored"),
)


def parameters() -> dict:
    """What the rules' predicates take besides `now` (a setting, say)."""
    return {"require_proven_issuer": settings.VERIFY_REQUIRE_PROVEN_ISSUER}


class Row(NamedTuple):
    """An attestation of a document, as every statement of verification/sql.py answers:
    its rank (VALID when it verifies) and the evidence a verified answer carries."""

    rank: int
    uid: str
    time: Any  # datetime: the chain's time, or an unanchored offchain one's claim
    chain_id: int
    attester: str
    schema_uid: str
    tx_hash: str | None
    block_number: int | None
    confirmations: int | None
    block_hash: str | None
    log_index: int | None
    eas_address: str
    finality_rule: str | None = None  # the chain's (registry.Chain.finality)
    finalized_block: int | None = None  # its newest final block, as that rule says
    chain_stalled: bool = False  # its head has not moved for its stall_blocks
    root: str | None = None  # through the attested root of a Merkle batch: its root
    proof: list | None = None  # and the proof from the document's leaf to it
    offchain: bool = False
    time_proven: bool = True  # an offchain one's time is only its attester's claim


FIELDS = Row._fields  # the statements' columns, in this order

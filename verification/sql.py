"""The verification lookup as SQL, written once: what every POST /v1/verify without `live`
runs.

It is the ORM query `verification.services.verification_query` written out by hand (that
query stays the readable reference: tests/verification/test_verification_sql.py holds the
two to the same rows, on PostgreSQL and on SQLite). Written out because the ORM takes longer
to build the query than PostgreSQL takes to run it; and run through core/db.py's
`run_hot`, which PostgreSQL parses and plans once per connection (a prepared statement).

One text serves both databases: only standard SQL (CASE, not GREATEST, which SQLite lacks),
and parameters by name, which psycopg and Django's SQLite cursor both take. (A parameter
compared with a column before it is tested for NULL: PostgreSQL then knows its type.)
"""

import json
from datetime import UTC, datetime

from django.db import DEFAULT_DB_ALIAS, connections

from core.db import run_hot
from verification.reasons import RANK, VALID

# The pieces both queries share. Confirmations: blocks from the record's to the head its
# cursor last saw, both included (0 while unknown; attestations/confirmations.py). Trust: an
# executor registered on the chain unless its trust was revoked, else an address an
# administrator added (each a probe of a unique index).
_CONFIRMATIONS = """CASE WHEN cur.head_block >= a.block_number
            THEN cur.head_block - a.block_number + 1 ELSE 0 END"""
# Final as the chain's rule says (attestations/finality.py): its confirmations; or, under a
# tag (`safe`, `finalized`), at or below the final block its cursor last stored (none
# stored: not final). The newest final block then, for the answer, and whether the chain is
# stalled (a primary-key probe).
_FINAL = f"""CASE WHEN c.finality = 'confirmations' THEN {_CONFIRMATIONS} >= c.confirmations
            ELSE COALESCE(a.block_number <= cur.final_block, FALSE) END"""
_FINALIZED_BLOCK = """CASE WHEN c.finality <> 'confirmations' THEN cur.final_block
            WHEN cur.head_block >= c.confirmations
            THEN cur.head_block - (CASE WHEN c.confirmations > 0 THEN c.confirmations ELSE 1 END) + 1
            END"""
_STALLED = """EXISTS (SELECT 1 FROM attestations_chainhead h
                WHERE h.chain_id = a.chain_id AND h.stalled_since IS NOT NULL)"""
_TRUSTED = """COALESCE(
        (SELECT e.trust_revoked_at IS NULL FROM executors_executor e
         WHERE e.chain_id = a.chain_id AND e.address = a.attester LIMIT 1),
        (SELECT TRUE FROM executors_trustedattester t
         WHERE t.chain_id = a.chain_id AND t.address = a.attester LIMIT 1),
        FALSE)"""
# verification.services.ROW: a verified answer, evidence included (the EAS contract's
# address is its deployment's, one primary-key probe).
_ROW = f"""a.uid, a.time, a.chain_id, a.attester, a.schema_uid, a.tx_hash, a.block_number,
       {_CONFIRMATIONS} AS confirmations, a.block_hash, a.log_index, d.address,
       c.finality AS finality_rule, {_FINALIZED_BLOCK} AS finalized_block,
       {_STALLED} AS chain_stalled"""
_FROM = """FROM attestations_attestation a
JOIN registry_chain c ON c.chain_id = a.chain_id
JOIN registry_deployment d ON d.id = a.deployment_id
LEFT JOIN attestations_indexcursor cur ON cur.deployment_id = a.deployment_id"""
_ON_THE_CHAIN = "(a.chain_id = %(chain_id)s OR %(chain_id)s IS NULL)"
_OF_THE_DOCUMENT = f"""{_FROM}
WHERE a.document_hash = %(document_hash)s
  AND {_ON_THE_CHAIN}"""
# Each attestation's first failing rule, as its rank (verification/reasons.py); VALID when
# none fails.
_REASON_RANK = f"""CASE WHEN c.status <> 'active' THEN {RANK["chain_inactive"]}
            WHEN NOT {_TRUSTED} THEN {RANK["untrusted_attester"]}
            WHEN a.undecodable THEN {RANK["undecodable"]}
            WHEN a.revocation_time IS NOT NULL THEN {RANK["revoked"]}
            WHEN a.expiration_time <= %(now)s THEN {RANK["expired"]}
            WHEN NOT ({_FINAL}) THEN {RANK["not_final"]}
            ELSE {VALID} END"""

# The rules, in order: this document; this chain, if one was asked for; an active chain;
# data laid out as its schema says; not revoked; not expired at `now`; a trusted attester of its chain (an executor registered
# there unless its trust was revoked, else an address an administrator added; each a probe
# of a unique index); final as the chain's rule says: at least the chain's confirmations,
# counted from the head its deployment's index cursor last saw (0 while unknown), or at or
# below the final block that cursor stored. The earliest such row answers, in the
# order of attestation_document_idx, so that the first valid row ends the scan.
VERIFICATION_SQL = f"""SELECT {_ROW}
{_OF_THE_DOCUMENT}
  AND c.status = 'active'
  AND NOT a.undecodable
  AND a.revocation_time IS NULL
  AND (a.expiration_time IS NULL OR a.expiration_time > %(now)s)
  AND {_TRUSTED}
  AND {_FINAL}
ORDER BY a.time, a.chain_id, a.block_number, a.log_index
LIMIT 1
"""


def earliest_valid(document_hash: str, *, chain_id: int | None, now: datetime) -> tuple | None:
    """The row of the earliest valid attestation of `document_hash` (as
    verification.services.ROW lists it), or None."""
    return _fetch_one(VERIFICATION_SQL, _params(chain_id, now, document_hash=document_hash))


def _params(chain_id: int | None, now: datetime, **more) -> dict:
    # `now` as a DateTimeField stores it (PostgreSQL: as is; SQLite: UTC text).
    db = connections[DEFAULT_DB_ALIAS]
    return {"chain_id": chain_id, "now": db.ops.adapt_datetimefield_value(now), **more}


def _fetch_one(sql: str, params: dict) -> tuple | None:
    row = run_hot(sql, params, fetch=True)
    return None if row is None else _in_utc(row)


def _in_utc(row) -> tuple:
    # SQLite stores UTC without a zone: the time gets it back.
    return tuple(value.replace(tzinfo=UTC) if isinstance(value, datetime)
                 and value.tzinfo is None else value for value in row)

# A statement about a list of documents (`{documents}`: the condition on a document hash
# column), per database: PostgreSQL takes the list as an array, SQLite as JSON.
_IN_DOCUMENTS = {"postgresql": "= ANY(%(document_hashes)s)",
                 "sqlite": "IN (SELECT value FROM json_each(%(document_hashes)s))"}


def _per_database(template: str) -> dict[str, str]:
    return {vendor: template.format(documents=condition)
            for vendor, condition in _IN_DOCUMENTS.items()}


def _run_on_documents(statements: dict[str, str], document_hashes: list[str], params: dict):
    """Every row of the database's statement of `statements` about `document_hashes`."""
    db = connections[DEFAULT_DB_ALIAS]
    documents = document_hashes if db.vendor == "postgresql" else json.dumps(document_hashes)
    return run_hot(statements[db.vendor], {**params, "document_hashes": documents}, fetch="all")


OFFCHAIN_OF_EACH_SQL = _per_database("""SELECT DISTINCT o.document_hash
FROM attestations_offchainattestation o
WHERE o.document_hash {documents}
  AND (o.chain_id = %(chain_id)s OR %(chain_id)s IS NULL)
""")


def with_offchain(document_hashes: list[str], *, chain_id: int | None) -> set[str]:
    """Which of `document_hashes` an offchain attestation carries (on `chain_id`)."""
    rows = _run_on_documents(OFFCHAIN_OF_EACH_SQL, document_hashes, {"chain_id": chain_id})
    return {row[0] for row in rows}


# Merkle-bound documents (binding mode `merkle`): a document verifies through the attested
# root of its batch, under the same rules, ranked the same way; the leaf's root and proof
# come with the row. Only on a miss of the direct lookup, by merkleleaf_document_idx and
# then primary keys; the root's attestation is the one the tracking matched to the batch.
_MERKLE_JOINS = """JOIN attestations_attestation a ON a.chain_id = b.chain_id AND a.uid = b.attestation_uid
JOIN registry_chain c ON c.chain_id = a.chain_id
JOIN registry_deployment d ON d.id = a.deployment_id
LEFT JOIN attestations_indexcursor cur ON cur.deployment_id = a.deployment_id"""
_LEAVES = f"""FROM attestations_merkleleaf l
JOIN attestations_merklebatch b ON b.id = l.batch_id
{_MERKLE_JOINS}"""
_BEST_FIRST = "ORDER BY reason_rank DESC, a.time, a.chain_id, a.block_number, a.log_index"
MERKLE_SQL = f"""SELECT {_REASON_RANK} AS reason_rank, {_ROW}, b.root, l.proof
{_LEAVES}
WHERE l.document_hash = %(document_hash)s AND {_ON_THE_CHAIN}
{_BEST_FIRST}
LIMIT 1
"""
# A root that a holder's proof leads to: the batches of that root.
MERKLE_ROOT_SQL = f"""SELECT {_REASON_RANK} AS reason_rank, {_ROW}, b.root
FROM attestations_merklebatch b
{_MERKLE_JOINS}
WHERE b.root = %(root)s AND {_ON_THE_CHAIN}
{_BEST_FIRST}
LIMIT 1
"""
def _with_proof(row: tuple) -> tuple:
    # The proof is JSON: Django's PostgreSQL connection hands jsonb over as text, as SQLite
    # does (None: no Merkle batch).
    *rest, proof = row
    return (*rest, json.loads(proof) if isinstance(proof, str) else proof)


def most_telling_merkle(document_hash: str, *, chain_id: int | None,
                        now: datetime) -> tuple | None:
    """(rank, the row as `earliest_valid` gives it, root, proof) of the root attestation that
    binds `document_hash` through a Merkle batch, the most telling first; or None."""
    row = _fetch_one(MERKLE_SQL, _params(chain_id, now, document_hash=document_hash))
    return None if row is None else _with_proof(row)


def most_telling_root(root: str, *, chain_id: int | None, now: datetime) -> tuple | None:
    """(rank, the row as `earliest_valid` gives it, root) of the attestation of Merkle root
    `root`, the most telling first; or None when no batch has that root."""
    return _fetch_one(MERKLE_ROOT_SQL, _params(chain_id, now, root=root))


# A batch (POST /v1/verify/batch): for each of many documents at once, in one statement,
# what the two queries above answer for it: its most telling attestation, where VALID (the
# highest rank) is the most telling of all, and the earliest breaks ties. So a document
# with a valid attestation gets the earliest valid one, as VERIFICATION_SQL gives, and any
# other its reason, as reason_query ranks it (tests/verification/test_verify_batch.py holds the
# batch to the single answers). The documents come as one parameter, a list: an array on
# PostgreSQL (one statement text for any number, prepared once), JSON on SQLite.
# The documents' Merkle batches are ranked with them (after a direct attestation of the same
# rank, as verification.services.verify_document prefers it), their root and proof beside.
_RANKED_OF_EACH = f"""SELECT a.document_hash, {_REASON_RANK} AS reason_rank, {_ROW},
                   NULL AS root, NULL AS proof, 0 AS via_merkle
            {_FROM}
            WHERE a.document_hash {{documents}} AND {_ON_THE_CHAIN}
            UNION ALL
            SELECT l.document_hash, {_REASON_RANK} AS reason_rank, {_ROW}, b.root, l.proof,
                   1 AS via_merkle
            {_LEAVES}
            WHERE l.document_hash {{documents}} AND {_ON_THE_CHAIN}"""
# What the batch and a miss answer of a document, of its ranked rows, and which comes first.
_RANKED_COLUMNS = """reason_rank, uid, time, chain_id, attester, schema_uid, tx_hash,
       block_number, confirmations, block_hash, log_index, address, finality_rule,
       finalized_block, chain_stalled, root, proof"""
_MOST_TELLING_FIRST = "reason_rank DESC, via_merkle, time, chain_id, block_number, log_index"
_BATCH_SQL = f"""SELECT document_hash, {_RANKED_COLUMNS}
FROM (SELECT ranked.*, ROW_NUMBER() OVER (
          PARTITION BY document_hash ORDER BY {_MOST_TELLING_FIRST}) AS place
      FROM ({_RANKED_OF_EACH}) ranked) best
WHERE place = 1
"""
BATCH_SQL = _per_database(_BATCH_SQL)

# Only on a miss, one statement: the document's most telling attestation, as the batch ranks
# it (its direct attestations and its Merkle batches; an attestation that turned valid since
# the hot query ran ranks VALID and answers as it would have), and whether it has an
# offchain attestation at all (the offchain ranking, an ORM query that takes milliseconds to
# build and plan, runs only when it does, which a miss of the usual kind does not). One row
# even when the document has no attestation: the flag rides on a LEFT JOIN. Its ORM
# references: verification.services.reason_query, and verification.offchain.
_RANKED_OF_ONE = _RANKED_OF_EACH.format(documents="= %(document_hash)s")
# The asked chain's finality facts ride along too, for an answer that found nothing there
# (verification.services.chain_facts is their ORM reference).
MISS_SQL = f"""SELECT {_RANKED_COLUMNS},
       EXISTS (SELECT 1 FROM attestations_offchainattestation o
               WHERE o.document_hash = %(document_hash)s
                 AND (o.chain_id = %(chain_id)s OR %(chain_id)s IS NULL)) AS has_offchain,
       (SELECT ac.finality FROM registry_chain ac WHERE ac.chain_id = %(chain_id)s),
       (SELECT ah.final_block FROM attestations_chainhead ah WHERE ah.chain_id = %(chain_id)s),
       EXISTS (SELECT 1 FROM attestations_chainhead ah WHERE ah.chain_id = %(chain_id)s
               AND ah.stalled_since IS NOT NULL)
FROM (SELECT 1 AS one) here
LEFT JOIN (SELECT * FROM ({_RANKED_OF_ONE}) ranked
           ORDER BY {_MOST_TELLING_FIRST} LIMIT 1) best ON 1 = 1
"""


def most_telling(document_hash: str, *, chain_id: int | None,
                 now: datetime) -> tuple[tuple | None, bool, tuple]:
    """(the row of the document's most telling attestation as `most_telling_of_each` gives
    it, or None when it has none; whether it has an offchain attestation; the asked chain's
    (finality rule, final block, stalled), None's without one)."""
    row = run_hot(MISS_SQL, _params(chain_id, now, document_hash=document_hash), fetch=True)
    *best, has_offchain, rule, final, stalled = _in_utc(row)
    asked = (rule, final, bool(stalled))
    return (None if best[0] is None else _with_proof(tuple(best))), bool(has_offchain), asked


def most_telling_of_each(document_hashes: list[str], *, chain_id: int | None,
                         now: datetime) -> dict[str, tuple]:
    """document hash -> (rank, then the row as `earliest_valid` gives it, root, proof) of its
    most telling attestation (root and proof None unless it binds the document through a
    Merkle batch), for each of `document_hashes` that has one."""
    rows = _run_on_documents(BATCH_SQL, document_hashes, _params(chain_id, now))
    return {row[0]: _with_proof(_in_utc(row[1:])) for row in rows}

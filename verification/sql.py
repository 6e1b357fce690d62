"""The verification statements, every one built from the rules of verification/rules.py: the
hot lookup (what every POST /v1/verify without `live` runs), a miss's reason, a holder's
Merkle proof, the batch, the offchain attestations, and live verification's candidates.

Written in SQL because the ORM takes longer to build a query than PostgreSQL takes to run
it; run through core/db.py's `run_hot`, which PostgreSQL parses and plans once per
connection (a prepared statement). tests/verification hold them against fixtures and the
chain, on PostgreSQL and on SQLite.

One text serves both databases: only standard SQL, and parameters by name, which psycopg and
Django's SQLite cursor both take. (A parameter compared with a column before it is tested
for NULL: PostgreSQL then knows its type.) Every statement answers rows of rules.Row.
"""

import json
from datetime import UTC, datetime

from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.dateparse import parse_datetime

from core.db import run_hot
from verification import rules
from verification.rules import RULES, VALID, Row, confirmations

ON_CHAIN = [rule for rule in RULES if rule.fails is not None]


def rank(predicates: list[tuple[int, str]]) -> str:
    """The rank of the first failing rule of (rank, predicate) pairs; VALID when none."""
    whens = "\n            ".join(f"WHEN {fails} THEN {rank}" for rank, fails in predicates)
    return f"CASE {whens}\n            ELSE {VALID} END"


def passes(predicates: list[str]) -> str:
    """Fails none of `predicates` (each never NULL: rules.py)."""
    return "\n  AND ".join(f"NOT ({fails})" for fails in predicates)


_REASON_RANK = rank([(rule.rank, rule.fails) for rule in ON_CHAIN])
_OFFCHAIN_RANK = rank([(rule.rank, rule.offchain) for rule in RULES if rule.offchain])
# An attestation that live verification asks its chain about: it passes every rule that
# the chain cannot undo.
_CANDIDATE = f"CASE WHEN {passes([r.fails for r in ON_CHAIN if not r.live])} THEN 1 ELSE 0 END"

# A row's evidence (rules.Row after its rank), on-chain: the EAS contract's address is its
# deployment's, one primary-key probe.
_ROW = f"""a.uid, a.time, a.chain_id, a.attester, a.schema_uid, a.tx_hash, a.block_number,
       {confirmations('a.block_number')} AS confirmations, a.block_hash, a.log_index,
       d.address AS eas_address, {rules.FINALITY}"""
_JOINS = """JOIN registry_chain c ON c.chain_id = a.chain_id
JOIN registry_deployment d ON d.id = a.deployment_id
LEFT JOIN attestations_indexcursor cur ON cur.deployment_id = a.deployment_id"""
_FROM = f"""FROM attestations_attestation a
{_JOINS}"""
_ON_THE_CHAIN = "(a.chain_id = %(chain_id)s OR %(chain_id)s IS NULL)"
_EARLIEST = "time, chain_id, block_number, log_index"

# The earliest attestation of this document (on this chain, if one was asked for) that
# fails no rule, in the order of attestation_document_idx, so that the first valid row ends
# the scan.
VERIFICATION_SQL = f"""SELECT {VALID} AS reason_rank, {_ROW}
{_FROM}
WHERE a.document_hash = %(document_hash)s
  AND {_ON_THE_CHAIN}
  AND {passes([rule.fails for rule in ON_CHAIN])}
ORDER BY a.time, a.chain_id, a.block_number, a.log_index
LIMIT 1
"""


def earliest_valid(document_hash: str, *, chain_id: int | None, now: datetime) -> Row | None:
    """The earliest valid attestation of `document_hash`, or None."""
    return _fetch_one(VERIFICATION_SQL, _params(chain_id, now, document_hash=document_hash))


def _params(chain_id: int | None, now: datetime, **more) -> dict:
    # `now` as a DateTimeField stores it (PostgreSQL: as is; SQLite: UTC text).
    db = connections[DEFAULT_DB_ALIAS]
    return {"chain_id": chain_id, "now": db.ops.adapt_datetimefield_value(now),
            **rules.parameters(), **more}


def _fetch_one(sql: str, params: dict) -> Row | None:
    values = run_hot(sql, params, fetch=True)
    return None if values is None else _row(values)


def _row(values) -> Row:
    row = Row(*values)
    row = row._replace(chain_stalled=bool(row.chain_stalled))  # SQLite: 0 or 1
    time, proof = row.time, row.proof
    if proof is None and isinstance(time, datetime) and time.tzinfo is not None:
        return row  # PostgreSQL's, the usual: as it came
    if isinstance(time, str):  # SQLite: an expression's time comes as its text
        time = parse_datetime(time)
    if time.tzinfo is None:  # SQLite stores UTC without a zone: the time gets it back
        time = time.replace(tzinfo=UTC)
    if isinstance(proof, str):  # JSON: Django's PostgreSQL connection hands jsonb as text
        proof = json.loads(proof)
    return row._replace(time=time, proof=proof)


# Merkle-bound documents (binding mode `merkle`): a document verifies through the attested
# root of its batch, under the same rules, ranked the same way; the leaf's root and proof
# come with the row. By merkleleaf_document_idx and then primary keys; the root's
# attestation is the one the tracking matched to the batch.
_MERKLE_JOINS = f"""JOIN attestations_attestation a ON a.chain_id = b.chain_id AND a.uid = b.attestation_uid
{_JOINS}"""
_LEAVES = f"""FROM attestations_merkleleaf l
JOIN attestations_merklebatch b ON b.id = l.batch_id
{_MERKLE_JOINS}"""

# A root that a holder's proof leads to: the batches of that root, the most telling first.
MERKLE_ROOT_SQL = f"""SELECT {_REASON_RANK} AS reason_rank, {_ROW}, b.root
FROM attestations_merklebatch b
{_MERKLE_JOINS}
WHERE b.root = %(root)s AND {_ON_THE_CHAIN}
ORDER BY reason_rank DESC, a.time, a.chain_id, a.block_number, a.log_index
LIMIT 1
"""


def most_telling_root(root: str, *, chain_id: int | None, now: datetime) -> Row | None:
    """The attestation of Merkle root `root`, the most telling first; or None when no batch
    has that root."""
    return _fetch_one(MERKLE_ROOT_SQL, _params(chain_id, now, root=root))


# Every attestation of documents (`{documents}`: the condition on a document hash column),
# ranked: direct ones, and the roots of their Merkle batches with root and proof.
def _ranked(documents: str, more: str = "") -> str:
    return f"""SELECT a.document_hash, {_REASON_RANK} AS reason_rank, {_ROW},
                   NULL AS root, NULL AS proof, 0 AS via_merkle{more}
            {_FROM}
            WHERE a.document_hash {documents} AND {_ON_THE_CHAIN}
            UNION ALL
            SELECT l.document_hash, {_REASON_RANK} AS reason_rank, {_ROW}, b.root, l.proof,
                   1 AS via_merkle{more}
            {_LEAVES}
            WHERE l.document_hash {documents} AND {_ON_THE_CHAIN}"""


# What the batch and a miss answer of a document, of its ranked rows, and which comes first:
# VALID (the highest rank) is the most telling of all, then a direct attestation (as
# verify_document prefers it), then the earliest.
_COLUMNS = ", ".join(("reason_rank", *rules.FIELDS[1:-2]))
_MOST_TELLING_FIRST = f"reason_rank DESC, via_merkle, {_EARLIEST}"

# A statement about a list of documents, per database: PostgreSQL takes the list as an
# array (one statement text for any number, prepared once), SQLite as JSON.
_IN_DOCUMENTS = {"postgresql": "= ANY(%(document_hashes)s)",
                 "sqlite": "IN (SELECT value FROM json_each(%(document_hashes)s))"}


def _per_database(template: str) -> dict[str, str]:
    return {vendor: template.replace("{documents}", condition)
            for vendor, condition in _IN_DOCUMENTS.items()}


def _run_on_documents(statements: dict[str, str], document_hashes: list[str], params: dict):
    """Every row of the database's statement of `statements` about `document_hashes`."""
    db = connections[DEFAULT_DB_ALIAS]
    documents = document_hashes if db.vendor == "postgresql" else json.dumps(document_hashes)
    return run_hot(statements[db.vendor], {**params, "document_hashes": documents}, fetch="all")


def _best_of_each(ranked: str, order: str) -> str:
    return f"""SELECT document_hash, {_COLUMNS}
FROM (SELECT ranked.*, ROW_NUMBER() OVER (
          PARTITION BY document_hash ORDER BY {order}) AS place
      FROM ({ranked}) ranked) best
WHERE place = 1
"""


# A batch (POST /v1/verify/batch): each document's most telling attestation, in one
# statement, so that a document with a valid attestation gets the earliest valid one, as
# VERIFICATION_SQL gives, and any other its reason, as MISS_SQL ranks it.
BATCH_SQL = _per_database(_best_of_each(_ranked("{documents}"), _MOST_TELLING_FIRST))

# Only on a miss, one statement: the document's most telling attestation, as the batch ranks
# it (an attestation that turned valid since the hot query ran ranks VALID and answers as it
# would have), and whether it has an offchain attestation at all (OFFCHAIN_SQL runs only
# when it does, which a miss of the usual kind does not). One row even when the document
# has no attestation: the flag rides on a LEFT JOIN. The asked chain's finality facts ride
# along too, for an answer that found nothing there.
MISS_SQL = f"""SELECT {_COLUMNS},
       EXISTS (SELECT 1 FROM attestations_offchainattestation o
               WHERE o.document_hash = %(document_hash)s
                 AND (o.chain_id = %(chain_id)s OR %(chain_id)s IS NULL)) AS has_offchain,
       (SELECT ac.finality FROM registry_chain ac WHERE ac.chain_id = %(chain_id)s),
       (SELECT ah.final_block FROM attestations_chainhead ah WHERE ah.chain_id = %(chain_id)s),
       EXISTS (SELECT 1 FROM attestations_chainhead ah WHERE ah.chain_id = %(chain_id)s
               AND ah.stalled_since IS NOT NULL)
FROM (SELECT 1 AS one) here
LEFT JOIN (SELECT * FROM ({_ranked("= %(document_hash)s")}) ranked
           ORDER BY {_MOST_TELLING_FIRST} LIMIT 1) best ON 1 = 1
"""


def most_telling(document_hash: str, *, chain_id: int | None,
                 now: datetime) -> tuple[Row | None, bool, tuple]:
    """(the document's most telling attestation, or None when it has none; whether it has
    an offchain attestation; the asked chain's (finality rule, final block, stalled), None's
    without one)."""
    *best, has_offchain, rule, final, stalled = run_hot(
        MISS_SQL, _params(chain_id, now, document_hash=document_hash), fetch=True)
    asked = (rule, final, bool(stalled))
    return (None if best[0] is None else _row(best)), bool(has_offchain), asked


def most_telling_of_each(document_hashes: list[str], *, chain_id: int | None,
                         now: datetime) -> dict[str, Row]:
    """document hash -> its most telling attestation, for each of `document_hashes` that
    has one."""
    rows = _run_on_documents(BATCH_SQL, document_hashes, _params(chain_id, now))
    return {document_hash: _row(values) for document_hash, *values in rows}


# Offchain attestations (issue 21, item 2: the EAS SDK packages submitted to POST
# /attestations/offchain), on a miss of the on-chain lookup: under the same rules, in the
# same order, each in its offchain form (rules.Rule.offchain). A timestamped one's time is
# the chain's (`time_proven`), an unanchored one's the attester's claim; among valid ones
# the earliest answers, by that time.
_OFFCHAIN_ROW = f"""a.uid, COALESCE({rules.PROVEN_AT}, a.time) AS time, a.chain_id,
       a.attester, a.schema_uid, NULL AS tx_hash, NULL AS block_number,
       NULL AS confirmations, NULL AS block_hash, NULL AS log_index, d.address AS eas_address,
       {rules.FINALITY}, NULL AS root, NULL AS proof, 1 AS offchain,
       CASE WHEN {rules.PROVEN_AT} IS NULL THEN 0 ELSE 1 END AS time_proven"""
OFFCHAIN_SQL = _per_database(f"""SELECT document_hash, {_COLUMNS}, offchain, time_proven
FROM (SELECT ranked.*, ROW_NUMBER() OVER (
          PARTITION BY document_hash ORDER BY reason_rank DESC, time, chain_id, uid) AS place
      FROM (SELECT a.document_hash, {_OFFCHAIN_RANK} AS reason_rank, {_OFFCHAIN_ROW}
            FROM attestations_offchainattestation a
            {_JOINS}
            WHERE a.document_hash {{documents}} AND {_ON_THE_CHAIN}) ranked) best
WHERE place = 1
""")


def most_telling_offchain(document_hashes: list[str], *, chain_id: int | None,
                          now: datetime) -> dict[str, Row]:
    """document hash -> its most telling offchain attestation (the earliest valid one when
    one is), for each of `document_hashes` that has one."""
    rows = _run_on_documents(OFFCHAIN_SQL, document_hashes, _params(chain_id, now))
    return {document_hash: _row(values) for document_hash, *values in rows}


# Every attestation of one document, direct and through its Merkle batches, ranked, earliest
# first, each with whether live verification would ask its chain (`_CANDIDATE`): what live
# verification and the page's revocation read.
RANKED_SQL = f"""SELECT {_COLUMNS}, candidate
FROM ({_ranked("= %(document_hash)s", f", {_CANDIDATE} AS candidate")}) ranked
ORDER BY {_EARLIEST}
"""


def every_ranked(document_hash: str, *, chain_id: int | None,
                 now: datetime) -> list[tuple[Row, bool]]:
    """(attestation, whether live verification asks its chain) for each attestation of
    `document_hash`, earliest first."""
    rows = run_hot(RANKED_SQL, _params(chain_id, now, document_hash=document_hash),
                   fetch="all")
    return [(_row(values), bool(candidate)) for *values, candidate in rows]

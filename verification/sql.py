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
_TRUSTED = """COALESCE(
        (SELECT e.trust_revoked_at IS NULL FROM executors_executor e
         WHERE e.chain_id = a.chain_id AND e.address = a.attester LIMIT 1),
        (SELECT TRUE FROM executors_trustedattester t
         WHERE t.chain_id = a.chain_id AND t.address = a.attester LIMIT 1),
        FALSE)"""
# verification.services.ROW: a verified answer, evidence included (the EAS contract's
# address is its deployment's, one primary-key probe).
_ROW = f"""a.uid, a.time, a.chain_id, a.attester, a.schema_uid, a.tx_hash, a.block_number,
       {_CONFIRMATIONS} AS confirmations, a.block_hash, a.log_index, d.address"""
_OF_THE_DOCUMENT = """FROM attestations_attestation a
JOIN registry_chain c ON c.chain_id = a.chain_id
JOIN registry_deployment d ON d.id = a.deployment_id
LEFT JOIN attestations_indexcursor cur ON cur.deployment_id = a.deployment_id
WHERE a.document_hash = %(document_hash)s
  AND (a.chain_id = %(chain_id)s OR %(chain_id)s IS NULL)"""

# The rules, in order: this document; this chain, if one was asked for; an active chain;
# not revoked; not expired at `now`; a trusted attester of its chain (an executor registered
# there unless its trust was revoked, else an address an administrator added; each a probe
# of a unique index); at least the chain's confirmations, counted from the head its
# deployment's index cursor last saw (0 while unknown). The earliest such row answers, in the
# order of attestation_document_idx, so that the first valid row ends the scan.
VERIFICATION_SQL = f"""SELECT {_ROW}
{_OF_THE_DOCUMENT}
  AND c.status = 'active'
  AND a.revocation_time IS NULL
  AND (a.expiration_time IS NULL OR a.expiration_time > %(now)s)
  AND {_TRUSTED}
  AND {_CONFIRMATIONS} >= c.confirmations
ORDER BY a.time, a.chain_id, a.block_number, a.log_index
LIMIT 1
"""


def earliest_valid(document_hash: str, *, chain_id: int | None, now: datetime) -> tuple | None:
    """The row of the earliest valid attestation of `document_hash` (as
    verification.services.ROW lists it), or None."""
    return _fetch(VERIFICATION_SQL, document_hash, chain_id, now)


def _fetch(sql: str, document_hash: str, chain_id: int | None, now: datetime) -> tuple | None:
    db = connections[DEFAULT_DB_ALIAS]
    # As a DateTimeField stores it (PostgreSQL: as is; SQLite: UTC text).
    params = {"document_hash": document_hash, "chain_id": chain_id,
              "now": db.ops.adapt_datetimefield_value(now)}
    row = run_hot(sql, params, fetch=True)
    if row is None:
        return None
    # SQLite stores UTC without a zone: the time gets it back.
    return tuple(value.replace(tzinfo=UTC) if isinstance(value, datetime)
                 and value.tzinfo is None else value for value in row)

# Only on a miss: every attestation of the document (on the asked chain), each ranked by its
# first failing rule (verification/reasons.py), the most telling first; ties go to the
# earliest. An attestation that turned valid since the hot query ran ranks VALID and
# answers as it would have. Its ORM reference: verification.services.reason_query.
REASON_SQL = f"""SELECT CASE WHEN c.status <> 'active' THEN {RANK["chain_inactive"]}
            WHEN NOT {_TRUSTED} THEN {RANK["untrusted_attester"]}
            WHEN a.revocation_time IS NOT NULL THEN {RANK["revoked"]}
            WHEN a.expiration_time <= %(now)s THEN {RANK["expired"]}
            WHEN {_CONFIRMATIONS} < c.confirmations THEN {RANK["not_final"]}
            ELSE {VALID} END AS reason_rank,
       {_ROW}
{_OF_THE_DOCUMENT}
ORDER BY reason_rank DESC, a.time, a.chain_id, a.block_number, a.log_index
LIMIT 1
"""


def most_telling(document_hash: str, *, chain_id: int | None, now: datetime) -> tuple | None:
    """(rank, then the row as `earliest_valid` gives it) of the document's most telling
    attestation, or None when it has none."""
    return _fetch(REASON_SQL, document_hash, chain_id, now)

"""Writing what a range held, and rolling a deployment back: each one transaction, with the
cursor moved in it, so a crash loses nothing and a re-run duplicates nothing (rows are upserts
keyed like the chain keys them: (chain, uid))."""

import json
from collections import Counter
from datetime import UTC, datetime
from functools import lru_cache

import psycopg
from django.db import connection, models, transaction
from django.db.models import Count, F
from django.utils import timezone

from attestations import schema as grammar
from attestations.indexer.reader import RangeRead
from attestations.models import Attestation, IndexCursor, OffchainRevocation, Schema, Timestamp

_POSITION = ["deployment_id", "tx_hash", "block_number", "block_hash", "log_index"]
_ATTESTATION_FIELDS = [*_POSITION, "schema_uid", "schema_id", "attester", "recipient",
                       "ref_uid", "time", "expiration_time", "revocable", "data", "decoded",
                       "document_hash"]
_BULK = 2000


def upsert(model, rows: list[dict], *, unique: list[str], update: list[str],
           key: str = "uid") -> set | None:
    """Insert rows ({attname: value}, all with the same keys), or update `update` where
    `unique` matches. On PostgreSQL one INSERT ... SELECT FROM unnest(arrays): a column per
    parameter, so thousands of rows cost about as much as one (Django's bulk_create spends
    longer compiling placeholders than the database spends writing); it returns the `key`s
    of the rows it inserted (xmax is 0 on a row version that no update wrote). Elsewhere it
    returns None: callers look up what existed before."""
    if not rows:
        return set()
    if connection.vendor != "postgresql":
        model.objects.bulk_create([model(**row) for row in rows], batch_size=_BULK,
                                  update_conflicts=True, unique_fields=unique,
                                  update_fields=update)
        return None
    fields = [model._meta.get_field(name) for name in rows[0]]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    arrays = ", ".join(f"%b::{f.db_type(connection)}[]" for f in fields)  # %b: binary
    conflict = ", ".join(connection.ops.quote_name(model._meta.get_field(n).column)
                         for n in unique)
    updates = ", ".join(f"{name} = EXCLUDED.{name}" for name in (
        connection.ops.quote_name(model._meta.get_field(n).column) for n in update))
    sql = (f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({columns}) "
           f"SELECT * FROM unnest({arrays}) ON CONFLICT ({conflict}) DO UPDATE SET {updates} "
           f"RETURNING {connection.ops.quote_name(key)}, (xmax = 0)")
    params = []
    for f in fields:
        values = [row[f.attname] for row in rows]
        if isinstance(f, models.JSONField):
            values = [None if v is None else json.dumps(v) for v in values]
        params.append(values)
    connection.ensure_connection()
    # A server-side-binding cursor with binary parameters: Django's client-side binding would
    # render each array into the SQL text, value by value.
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params)
        return {value for value, inserted in cursor.fetchall() if inserted}


def _time(seconds: int) -> datetime | None:
    return datetime.fromtimestamp(seconds, UTC) if seconds else None


@lru_cache(maxsize=1024)
def _fields(schema_text: str):
    return grammar.parse(schema_text)


def decode_data(schema: Schema | None, data: bytes) -> tuple[dict | None, str | None]:
    """(decoded data, document hash) of an attestation's data under its schema; (None, None)
    when the schema is unknown or the data does not fit it."""
    if schema is None or schema.parse_error:
        return None, None
    try:
        decoded = grammar.decode(_fields(schema.schema), data)
    except (grammar.SchemaError, ValueError):
        return None, None
    document_hash = decoded.get(schema.document_hash_field) if schema.document_hash_field else None
    return decoded, document_hash if isinstance(document_hash, str) else None


def _position(event, cursor) -> dict:
    p = event.position
    return {"chain_id": cursor.chain_id, "deployment_id": cursor.deployment_id,
            "tx_hash": p.tx_hash, "block_number": p.block_number, "block_hash": p.block_hash,
            "log_index": p.log_index}


def prune_blocks(blocks: dict, window: int) -> dict:
    """The block hashes worth keeping: those within `window` blocks of the newest."""
    if not blocks:
        return {}
    newest = max(int(n) for n in blocks)
    return {str(n): h for n, h in sorted(((int(n), h) for n, h in blocks.items()))
            if int(n) >= newest - window}


def write_range(cursor: IndexCursor, read: RangeRead, *, head: int, range_size: int,
                window: int) -> dict:
    """Store the range and move the cursor past it; returns counts of what was written."""
    now = timezone.now()
    with transaction.atomic():
        written = {"schemas": _write_schemas(cursor, read.schemas)}
        written["attestations"] = _write_attestations(cursor, read.attested, revoked=False)
        _write_attestations(cursor, read.revoked, revoked=True)
        written["revocations"] = len(read.revoked)
        written["timestamps"] = _write_timestamps(cursor, read.timestamps)
        _write_offchain_revocations(cursor, read.offchain_revocations)
        recent = prune_blocks({**cursor.recent_blocks,
                               **{str(n): h for n, h in read.block_hashes.items()}}, window)
        changes = {"next_block": read.end + 1, "head_block": head, "recent_blocks": recent,
                   "range_size": range_size, "last_run_at": now, "last_success_at": now,
                   "last_error": ""}
        IndexCursor.objects.filter(pk=cursor.pk).update(**changes)
    for name, value in changes.items():
        setattr(cursor, name, value)
    return written


def _write_schemas(cursor, registered) -> int:
    if not registered:
        return 0
    rows = {}
    for event, (resolver, revocable, text) in registered:
        try:
            fields, error = grammar.parse(text), ""
        except grammar.SchemaError as exc:
            fields, error = [], str(exc)
        rows[event.uid] = dict(
            uid=event.uid, schema=text, fields=[f.as_dict() for f in fields], parse_error=error,
            resolver=resolver, revocable=revocable, registerer=event.address,
            document_hash_field=grammar.document_hash_field(fields) or "",
            attestation_count=0, **_position(event, cursor),
        )
    existing = _existing(Schema, cursor.chain_id, list(rows))
    # A schema read again keeps what an administrator set (its document-hash field).
    inserted = upsert(Schema, list(rows.values()), unique=["chain", "uid"], update=_POSITION)
    new = [uid for uid in rows if uid in inserted] if existing is None \
        else [uid for uid in rows if uid not in existing]
    _adopt_orphans(cursor.chain_id, new)
    return len(new)


def _adopt_orphans(chain_id: int, schema_uids: list[str]) -> None:
    """Attestations read before their schema (or whose schema a rollback removed) get it."""
    for schema in Schema.objects.filter(chain_id=chain_id, uid__in=schema_uids):
        orphans = list(Attestation.objects.filter(chain_id=chain_id, schema_uid=schema.uid,
                                                  schema__isnull=True).only("pk", "data"))
        for attestation in orphans:
            attestation.schema = schema
            attestation.decoded, attestation.document_hash = decode_data(
                schema, bytes(attestation.data))
        Attestation.objects.bulk_update(orphans, ["schema", "decoded", "document_hash"],
                                        batch_size=_BULK)
        if orphans:
            Schema.objects.filter(pk=schema.pk).update(
                attestation_count=F("attestation_count") + len(orphans))


def _write_attestations(cursor, items, *, revoked: bool) -> int:
    """Upsert attestations: from Attested events (all but the revocation), or from Revoked
    events (only the revocation; a row is created if the attestation predates start_block)."""
    if not items:
        return 0
    schema_uids = {onchain.schema_uid for _, onchain in items}
    schemas = {s.uid: s for s in Schema.objects.filter(chain_id=cursor.chain_id,
                                                       uid__in=schema_uids)}
    rows = {}
    for event, onchain in items:
        schema = schemas.get(onchain.schema_uid)
        decoded, document_hash = decode_data(schema, onchain.data)
        rows[onchain.uid] = dict(
            uid=onchain.uid, schema_uid=onchain.schema_uid,
            schema_id=schema.pk if schema else None,
            attester=onchain.attester, recipient=onchain.recipient, ref_uid=onchain.ref_uid,
            time=_time(onchain.time), expiration_time=_time(onchain.expiration_time),
            revocation_time=_time(onchain.revocation_time) if revoked else None,
            revoked_block_number=event.position.block_number if revoked else None,
            revocable=onchain.revocable, data=onchain.data, decoded=decoded,
            document_hash=document_hash, **_position(event, cursor),
        )
    existing = _existing(Attestation, cursor.chain_id, list(rows))
    update_fields = (["revocation_time", "revoked_block_number"] if revoked
                     else _ATTESTATION_FIELDS)
    inserted = upsert(Attestation, list(rows.values()), unique=["chain", "uid"],
                      update=update_fields)
    if inserted is None:
        inserted = set(rows) - existing
    new = Counter(rows[uid]["schema_id"] for uid in inserted
                  if rows[uid]["schema_id"] is not None)
    for schema_pk, count in new.items():
        Schema.objects.filter(pk=schema_pk).update(
            attestation_count=F("attestation_count") + count)
    return len(inserted)


def _existing(model, chain_id: int, uids: list[str]) -> set | None:
    """The uids already stored, where upsert cannot tell (not on PostgreSQL)."""
    if connection.vendor == "postgresql":
        return None
    existing = set()
    for start in range(0, len(uids), _BULK):
        existing.update(model.objects.filter(chain_id=chain_id, uid__in=uids[start:start + _BULK])
                        .values_list("uid", flat=True))
    return existing


def _write_timestamps(cursor, stamped) -> int:
    rows = {e.data: dict(data=e.data, timestamp=_time(e.timestamp), **_position(e, cursor))
            for e in stamped}
    upsert(Timestamp, list(rows.values()), unique=["deployment", "data"], update=_POSITION,
           key="data")
    return len(rows)


def _write_offchain_revocations(cursor, revocations) -> None:
    rows = {(e.address, e.data): dict(
        revoker=e.address, data=e.data, timestamp=_time(e.timestamp), **_position(e, cursor))
        for e in revocations}
    upsert(OffchainRevocation, list(rows.values()), unique=["deployment", "revoker", "data"],
           update=_POSITION, key="data")


def rollback(cursor: IndexCursor, from_block: int, *, reorg: bool) -> dict:
    """Forget everything the deployment's blocks from `from_block` on brought, and set the
    cursor to read them again: their attestations (and their schemas' counts), schemas,
    timestamps, and the revocations read there (the attestations they revoked stay)."""
    deployment_id = cursor.deployment_id
    with transaction.atomic():
        removed = Attestation.objects.filter(deployment_id=deployment_id,
                                             block_number__gte=from_block)
        per_schema = removed.exclude(schema=None).values("schema").annotate(n=Count("pk"))
        for row in per_schema:
            Schema.objects.filter(pk=row["schema"]).update(
                attestation_count=F("attestation_count") - row["n"])
        counts = {"attestations": removed.delete()[0]}
        counts["revocations"] = Attestation.objects.filter(
            deployment_id=deployment_id, revoked_block_number__gte=from_block,
        ).update(revocation_time=None, revoked_block_number=None)
        counts["schemas"] = Schema.objects.filter(
            deployment_id=deployment_id, block_number__gte=from_block).delete()[0]
        for model in (Timestamp, OffchainRevocation):
            model.objects.filter(deployment_id=deployment_id,
                                 block_number__gte=from_block).delete()
        changes = {
            # Never forward: blocks not read yet stay to be read.
            "next_block": min(from_block, cursor.next_block),
            "recent_blocks": {n: h for n, h in cursor.recent_blocks.items()
                              if int(n) < from_block},
        }
        IndexCursor.objects.filter(pk=cursor.pk).update(
            **changes, reorgs=F("reorgs") + (1 if reorg else 0))
    for name, value in changes.items():
        setattr(cursor, name, value)
    if reorg:
        cursor.reorgs += 1
    return counts

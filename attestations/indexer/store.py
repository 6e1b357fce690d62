"""Writing what a range held, and rolling a deployment back: each one transaction, with the
cursor moved in it, so a crash loses nothing and a re-run duplicates nothing (rows are upserts
keyed like the chain keys them: (chain, uid)).

Anyone can write anything on a chain: every value EAS allows is stored (times beyond a
datetime as integers, text PostgreSQL cannot hold escaped, data that does not decode kept
raw with the reason), and a record that still cannot be stored is skipped, with its reason
on the cursor (IndexCursor.skipped): no record stops a chain's indexing.
"""

import json
import logging
from collections import Counter
from datetime import UTC, datetime
from functools import lru_cache
from typing import NamedTuple

import psycopg
from django.db import DataError, IntegrityError, connection, models, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from attestations import schema as grammar
from attestations.indexer.reader import RangeRead, skipped_record
from attestations.models import (
    Attestation,
    IndexCursor,
    MerkleBatch,
    OffchainRevocation,
    Schema,
    Timestamp,
)
from core import events
from eas_primitives.merkle import attested_root
from registry.models import Chain

logger = logging.getLogger(__name__)

_POSITION = ["deployment_id", "tx_hash", "block_number", "block_hash", "log_index"]
_ATTESTATION_FIELDS = [*_POSITION, "schema_uid", "schema_id", "attester", "recipient",
                       "ref_uid", "time", "expiration_time", "expiration_time_raw",
                       "revocable", "data", "decoded", "decode_error", "document_hash"]
# The last second a datetime holds (9999-12-31T23:59:59Z); EAS times are any uint64.
MAX_DATETIME_SECONDS = 253402300799
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
    # (Its errors as Django's: DataError, IntegrityError, which _upsert_or_skip tells apart.)
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params)
        return {value for value, inserted in cursor.fetchall() if inserted}


class Unstorable(ValueError):
    """A record the database cannot hold: it is skipped, with this reason."""


def _time(seconds: int) -> datetime | None:
    """A block's time (attested, revoked, timestamped): the chain's clock, not a stranger's
    value; one beyond a datetime makes its record Unstorable."""
    if seconds > MAX_DATETIME_SECONDS:
        raise Unstorable(f"The time {seconds} is beyond 9999-12-31.")
    return datetime.fromtimestamp(seconds, UTC) if seconds else None


def expiration_of(seconds: int) -> tuple[datetime | None, str]:
    """(expiration_time, expiration_time_raw): any uint64 the attester chose."""
    if seconds > MAX_DATETIME_SECONDS:
        return None, str(seconds)
    return _time(seconds), ""


@lru_cache(maxsize=1024)
def _fields(schema_text: str):
    return grammar.parse(schema_text)


class DecodedData(NamedTuple):
    """What the index keeps of an attestation's data under its schema."""

    decoded: dict | None  # the data as JSON; None when not decoded (`error` says why)
    document_hash: str | None  # from its place in the data (schema.head_word)
    error: str  # why `decoded` is None ("" when it is not)
    undecodable: bool  # the data is not laid out as its schema says: it verifies nothing


def decode_data(schema: Schema | None, data: bytes) -> DecodedData:
    """An attestation's data under its schema: decoded when it fits and is at most
    MAX_DECODED_DATA bytes; its document hash read from its place in the data whatever its
    size (a bytes32 field is a word of the head); undecodable when it does not fit the
    schema. Without a schema (unknown, or a string that does not parse): nothing."""
    if schema is None:
        return DecodedData(None, None, "The schema is not indexed.", False)
    if schema.parse_error:
        return DecodedData(None, None, f"The schema string does not parse: {schema.parse_error}",
                           False)
    fields = _fields(schema.schema)
    field = schema.document_hash_field
    document_hash = grammar.head_word(fields, data, field) if field else None
    try:
        if len(data) > grammar.MAX_DECODED_DATA:
            grammar.check_layout(fields, data)
            read = f"; its {field} is read from its place in the data" if document_hash else ""
            return DecodedData(None, document_hash, (
                f"Not decoded: the data is {len(data)} bytes, longer than the "
                f"{grammar.MAX_DECODED_DATA} decoded into `decoded`{read}."), False)
        decoded = grammar.decode(fields, data)
    except (grammar.SchemaError, ValueError, RecursionError) as exc:
        return DecodedData(None, document_hash, str(exc)[:500], True)
    return DecodedData(decoded, document_hash, "", False)


def _skipped(row_or_event, uid: str, exc: Exception) -> dict:
    """An entry of IndexCursor.skipped for a row (a dict) or an event."""
    if isinstance(row_or_event, dict):
        where = (row_or_event["block_number"], row_or_event["log_index"],
                 row_or_event["tx_hash"])
    else:
        p = row_or_event.position
        where = (p.block_number, p.log_index, p.tx_hash)
    return skipped_record(*where, uid, f"{type(exc).__name__}: {exc}")


# What building a row from a record can raise on input no one checked: the record is skipped.
_RECORD_ERRORS = (ValueError, ArithmeticError, RecursionError)


# What a database says of a value it refuses. Not OperationalError and the like: a database
# that is down must stop the run (the range is read again), not skip what it could not write.
_REFUSALS = (DataError, IntegrityError)


class Refused(Exception):
    """The database refused a batch written without a savepoint (`careful=False`): the
    transaction is spoilt; write it again with `careful=True`."""


def _upsert_or_skip(model, rows: dict, skipped: list[dict], careful: bool,
                    **kwargs) -> tuple[dict, set | None]:
    """upsert() the rows ({key: row}); when the database refuses the batch, row by row, each
    refused one skipped. Returns the rows stored and upsert()'s answer for them. Not
    `careful`: no savepoint (two round trips fewer), and a refusal raises Refused."""
    if not rows:
        return rows, set()
    if not careful:
        try:
            return rows, upsert(model, list(rows.values()), **kwargs)
        except _REFUSALS as exc:
            raise Refused() from exc
    try:
        with transaction.atomic():
            return rows, upsert(model, list(rows.values()), **kwargs)
    except _REFUSALS:
        pass
    stored, inserted = {}, None if connection.vendor != "postgresql" else set()
    for key, row in rows.items():
        try:
            with transaction.atomic():
                answer = upsert(model, [row], **kwargs)
        except _REFUSALS as exc:
            skipped.append(_skipped(row, row.get("uid", row.get("data", "")), exc))
            continue
        stored[key] = row
        if inserted is not None:
            inserted |= answer
    return stored, inserted


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


def commit_without_waiting_for_disk() -> None:
    """This transaction's commit returns before PostgreSQL has flushed it to disk
    (synchronous_commit off, for this transaction only): a new attestation verifies without
    waiting for an fsync. A crash of the database server may lose the last few hundred
    milliseconds of such commits, and nothing else: what an index transaction writes is
    derived from the chain, and its cursor moves in the same transaction, so the next run
    reads those blocks again. A later synchronous commit (a workflow confirmed from them)
    flushes them first: the write-ahead log is flushed in order."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def write_range(cursor: IndexCursor, read: RangeRead, *, head: int, range_size: int,
                window: int, careful: bool = True, final: int | None = None) -> tuple[dict, dict]:
    """Store the range and move the cursor past it; returns (counts of what was written, the
    cursor's changed fields), for the caller to set on `cursor` once the transaction is
    committed. In the caller's transaction, if it has one (an index run writes its
    deployments' ranges in one), with no savepoint of its own: a failure rolls all of it
    back."""
    now = timezone.now()
    skipped = list(read.skipped)
    with transaction.atomic(savepoint=False):
        written = {"schemas": _write_schemas(cursor, read.schemas, skipped, careful)}
        written["attestations"] = _write_attestations(cursor, read.attested, skipped, careful,
                                                      revoked=False)
        written["revocations"] = _write_attestations(cursor, read.revoked, skipped, careful,
                                                     revoked=True, counts_new=False)
        written["timestamps"] = _write_timestamps(cursor, read.timestamps, skipped, careful)
        _write_offchain_revocations(cursor, read.offchain_revocations, skipped, careful)
        recent = prune_blocks({**cursor.recent_blocks,
                               **{str(n): h for n, h in read.block_hashes.items()}}, window)
        changes = {"next_block": read.end + 1, "head_block": head, "final_block": final,
                   "recent_blocks": recent,
                   "range_size": range_size, "last_run_at": now, "last_success_at": now,
                   "last_error": ""}
        if skipped:
            logger.warning("%s: %s record(s) of blocks %s-%s skipped: %s", cursor.deployment,
                           len(skipped), read.start, read.end, skipped[0]["reason"])
            changes["skipped"] = (cursor.skipped + skipped)[-IndexCursor.SKIPPED_KEPT:]
        IndexCursor.objects.filter(pk=cursor.pk).update(**changes)
        _emit_document_facts(cursor, read, old_head=cursor.head_block, head=head, now=now,
                             final=final)
    return written, changes


def note_head(cursor: IndexCursor, *, head: int, final: int | None, now) -> None:
    """A cursor with nothing new to read: its head and final block moved on, and the
    document attestations that move made final told of (a `safe`/`finalized` tag can
    advance while the head does not), in one transaction."""
    moved = (head, final) != (cursor.head_block, cursor.final_block)
    with transaction.atomic():
        IndexCursor.objects.filter(pk=cursor.pk).update(
            head_block=head, final_block=final, last_run_at=now, last_success_at=now,
            last_error="")
        if not moved:
            return
        nothing = RangeRead(start=cursor.next_block, end=cursor.next_block - 1, end_hash="")
        _emit_document_facts(cursor, nothing, old_head=cursor.head_block, head=head, now=now,
                             final=final)


def _emit_document_facts(cursor: IndexCursor, read: RangeRead, *, old_head: int | None,
                         head: int, now, final: int | None = None) -> None:
    """Tell core.events (the webhooks' outbox), in the range's transaction, of the document
    attestations this write revoked and of those it made final: read in this range final
    already, or earlier ones that the new head (or final block, under a tag:
    attestations/finality.py) made final."""
    if events.wanted("attestation.revoked") and read.revoked:
        revoked = Attestation.objects.filter(
            chain_id=cursor.chain_id, uid__in=[onchain.uid for _, onchain in read.revoked],
            document_hash__isnull=False, revocation_time__isnull=False)
        for a in revoked.only("uid", "document_hash", "attester", "revocation_time", "tx_hash",
                              "revoked_block_number", "schema_uid"):
            events.emit("attestation.revoked", {
                "documentHash": a.document_hash, "chainId": cursor.chain_id,
                "attestationUid": a.uid, "attester": a.attester, "schemaId": a.schema_uid,
                "revokedAt": a.revocation_time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "revokedBlockNumber": a.revoked_block_number,
            }, occurred_at=now, chain_id=cursor.chain_id, document_hash=a.document_hash)
    if not events.wanted("attestation.final"):
        return
    needed, rule = Chain.objects.filter(pk=cursor.chain_id).values_list(
        "confirmations", "finality")[0]
    final_up_to = head - max(needed, 1) + 1  # confirmations count the record's own block
    was_final_up_to = -1 if old_head is None else old_head - max(needed, 1) + 1
    if cursor.final_block is not None:  # under the last run's rule, which may have changed
        was_final_up_to = cursor.final_block
    if rule != Chain.Finality.CONFIRMATIONS:
        final_up_to = -1 if final is None else final
    fresh = Q(block_number__gte=read.start, block_number__lte=min(read.end, final_up_to))
    ripened = Q(block_number__gt=was_final_up_to, block_number__lte=final_up_to,
                block_number__lt=read.start)
    final = (Attestation.objects.filter(fresh | ripened, deployment_id=cursor.deployment_id,
                                        document_hash__isnull=False,
                                        revocation_time__isnull=True)
             .order_by("block_number", "log_index").only("uid", "document_hash"))
    for a in final:
        events.emit("attestation.final", {"attestationUid": a.uid}, occurred_at=now,
                    chain_id=cursor.chain_id, document_hash=a.document_hash)


def _schema_row(cursor, event, resolver: str, revocable: bool, raw: bytes) -> dict:
    text = grammar.escape_text(raw)
    try:
        fields, error = grammar.parse(text), ""
    except grammar.SchemaError as exc:
        fields, error = [], str(exc)
    return dict(
        uid=event.uid, schema=text, raw_schema=None if text.encode() == raw else raw,
        fields=[f.as_dict() for f in fields], parse_error=error, resolver=resolver,
        revocable=revocable, registerer=event.address,
        document_hash_field=grammar.document_hash_field(fields) or "",
        attestation_count=0, **_position(event, cursor),
    )


def _write_schemas(cursor, registered, skipped: list[dict], careful: bool) -> int:
    if not registered:
        return 0
    rows = {}
    for event, (resolver, revocable, raw) in registered:
        try:
            rows[event.uid] = _schema_row(cursor, event, resolver, revocable, raw)
        except _RECORD_ERRORS as exc:
            skipped.append(_skipped(event, event.uid, exc))
    existing = _existing(Schema, cursor.chain_id, list(rows))
    # A schema read again keeps what an administrator set (its document-hash field).
    rows, inserted = _upsert_or_skip(Schema, rows, skipped, careful, unique=["chain", "uid"],
                                     update=_POSITION)
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
            (attestation.decoded, attestation.document_hash, attestation.decode_error,
             attestation.undecodable) = decode_data(schema, bytes(attestation.data))
        Attestation.objects.bulk_update(
            orphans, ["schema", "decoded", "document_hash", "decode_error", "undecodable"],
            batch_size=_BULK)
        if orphans:
            Schema.objects.filter(pk=schema.pk).update(
                attestation_count=F("attestation_count") + len(orphans))


def _attestation_row(cursor, event, onchain, schema: Schema | None, *, revoked: bool) -> dict:
    decoded = decode_data(schema, onchain.data)
    expiration_time, expiration_time_raw = expiration_of(onchain.expiration_time)
    return dict(
        uid=onchain.uid, schema_uid=onchain.schema_uid,
        schema_id=schema.pk if schema else None,
        attester=onchain.attester, recipient=onchain.recipient, ref_uid=onchain.ref_uid,
        time=_time(onchain.time), expiration_time=expiration_time,
        expiration_time_raw=expiration_time_raw,
        revocation_time=_time(onchain.revocation_time) if revoked else None,
        revoked_block_number=event.position.block_number if revoked else None,
        revocable=onchain.revocable, data=onchain.data, decoded=decoded.decoded,
        decode_error=decoded.error, document_hash=decoded.document_hash,
        undecodable=decoded.undecodable, **_position(event, cursor),
    )


def _write_attestations(cursor, items, skipped: list[dict], careful: bool, *, revoked: bool,
                        counts_new: bool = True) -> int:
    """Upsert attestations: from Attested events (all but the revocation), or from Revoked
    events (only the revocation; a row is created if the attestation predates start_block).
    Returns how many are new (`counts_new`), else how many were stored."""
    if not items:
        return 0
    schema_uids = {onchain.schema_uid for _, onchain in items}
    schemas = {s.uid: s for s in Schema.objects.filter(chain_id=cursor.chain_id,
                                                       uid__in=schema_uids)}
    rows = {}
    for event, onchain in items:
        try:
            rows[onchain.uid] = _attestation_row(cursor, event, onchain,
                                                 schemas.get(onchain.schema_uid),
                                                 revoked=revoked)
        except _RECORD_ERRORS as exc:
            skipped.append(_skipped(event, onchain.uid, exc))
    existing = _existing(Attestation, cursor.chain_id, list(rows))
    update_fields = (["revocation_time", "revoked_block_number"] if revoked
                     else _ATTESTATION_FIELDS)
    rows, inserted = _upsert_or_skip(Attestation, rows, skipped, careful,
                                     unique=["chain", "uid"], update=update_fields)
    if inserted is None:
        inserted = set(rows) - existing
    if not revoked:
        _link_merkle_batches(cursor.chain_id, rows, schemas)
    new = Counter(rows[uid]["schema_id"] for uid in inserted
                  if rows[uid]["schema_id"] is not None)
    for schema_pk, count in new.items():
        Schema.objects.filter(pk=schema_pk).update(
            attestation_count=F("attestation_count") + count)
    return len(inserted) if counts_new else len(rows)


def _link_merkle_batches(chain_id: int, rows: dict, schemas: dict) -> None:
    """A root attestation (under the root schema, eas_primitives/merkle.py) binds the Merkle batches its
    attester reported with that root: they verify through it from the range that indexed it
    on, as a direct attestation does (the workflow tracking confirms them later). Another
    attester's attestation of the same root binds nothing."""
    for uid, row in rows.items():
        schema = schemas.get(row["schema_uid"])
        root = attested_root(schema.schema if schema is not None else None, row["decoded"])
        if root is not None:
            MerkleBatch.objects.filter(chain_id=chain_id, root=root,
                                       attester=row["attester"]).update(attestation_uid=uid)


def _existing(model, chain_id: int, uids: list[str]) -> set | None:
    """The uids already stored, where upsert cannot tell (not on PostgreSQL)."""
    if connection.vendor == "postgresql":
        return None
    existing = set()
    for start in range(0, len(uids), _BULK):
        existing.update(model.objects.filter(chain_id=chain_id, uid__in=uids[start:start + _BULK])
                        .values_list("uid", flat=True))
    return existing


def _write_timestamps(cursor, stamped, skipped: list[dict], careful: bool) -> int:
    rows = {}
    for e in stamped:
        try:
            rows[e.data] = dict(data=e.data, timestamp=_time(e.timestamp),
                                **_position(e, cursor))
        except _RECORD_ERRORS as exc:
            skipped.append(_skipped(e, e.data, exc))
    rows, _ = _upsert_or_skip(Timestamp, rows, skipped, careful, unique=["deployment", "data"],
                              update=_POSITION, key="data")
    return len(rows)


def _write_offchain_revocations(cursor, revocations, skipped: list[dict], careful: bool) -> None:
    rows = {}
    for e in revocations:
        try:
            rows[(e.address, e.data)] = dict(revoker=e.address, data=e.data,
                                             timestamp=_time(e.timestamp),
                                             **_position(e, cursor))
        except _RECORD_ERRORS as exc:
            skipped.append(_skipped(e, e.data, exc))
    _upsert_or_skip(OffchainRevocation, rows, skipped, careful,
                    unique=["deployment", "revoker", "data"], update=_POSITION, key="data")


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
            # Blocks read again may skip their records again.
            "skipped": [s for s in cursor.skipped if s["block"] < from_block],
        }
        IndexCursor.objects.filter(pk=cursor.pk).update(
            **changes, reorgs=F("reorgs") + (1 if reorg else 0))
    for name, value in changes.items():
        setattr(cursor, name, value)
    if reorg:
        cursor.reorgs += 1
    return counts

"""The service's hot statements (a heartbeat's renewal, a verification's lookup), run at the
database's own speed.

Django's usual path costs these statements more than PostgreSQL takes to run them:
- the health check of a reused connection (CONN_HEALTH_CHECKS): a `SELECT 1` round trip
  before the first query of each request. It is skipped here; if the connection turns out
  broken, the statement runs again on a new one (so only statements that may run twice).
- client-side binding: PostgreSQL parses and plans the statement text anew each time, and
  planning the verification query takes longer than running it. Here it is a prepared
  statement, parsed and planned once per connection (a server-binding cursor; psycopg
  prepares only when the connection has a `prepare_threshold`, set in config/settings.py;
  Django's own cursors bind on the client and are never prepared). DB_PREPARED_STATEMENTS=
  false turns this off, for a transaction-mode pooler that does not keep them
  (docs/decisions.md).
- Django's cursor wrapper, when nothing logs queries (the errors are still Django's), and
  a new cursor for each statement.

Inside a read routed to a replica (core/replicas.py: verification is one) the statement runs
on that replica, prepared per connection there as here; only reads run in those.
"""

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections, models
from django.db.backends.postgresql.base import ServerBindingCursor

from core.replicas import reading_alias


def run_hot(sql: str, params, *, fetch: bool | str = False):
    """Run one statement that may safely run twice. Returns its first row (`fetch`; None
    when there is none), every row (`fetch="all"`), else its row count."""
    db = connections[reading_alias()]  # once: each access through the proxy costs
    skips_check = db.health_check_enabled and not db.health_check_done and not db.in_atomic_block
    if skips_check:
        db.health_check_done = True
    try:
        return _run(db, sql, params, fetch)
    except (OperationalError, InterfaceError):
        if not skips_check or db.is_usable():
            raise
        db.close()  # what the health check would have done; the next cursor reconnects
    return _run(db, sql, params, fetch)


def _run(db, sql, params, fetch):
    if db.vendor != "postgresql" or not settings.DB_PREPARED_STATEMENTS or db.queries_logged:
        # While queries are logged (DEBUG, a test counting them) Django's own cursor runs
        # them: a prepared execution leaves no SQL text to log.
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return _result(cursor, fetch)
    db.ensure_connection()
    with db.wrap_database_errors:
        cursor = _hot_cursor(db)
        # Rows in binary: psycopg loads integers and times from it faster than from text.
        cursor.execute(sql, params, prepare=True, binary=bool(fetch))
        return _result(cursor, fetch)


def _result(cursor, fetch):
    if fetch == "all":
        return cursor.fetchall()
    return cursor.fetchone() if fetch else cursor.rowcount


def _hot_cursor(db):
    """One cursor per connection for the hot statements: a new psycopg cursor copies the
    connection's adapters, which costs more than running a prepared statement."""
    cursor = getattr(db, "_hot_cursor", None)
    if cursor is None or cursor.connection is not db.connection or cursor.closed:
        cursor = db._hot_cursor = ServerBindingCursor(db.connection)
    return cursor


def insert_columns(model, columns: dict[str, list]) -> None:
    """Insert rows given as columns (field attname -> values, the same length each; omitted
    fields take their database default, an auto id its sequence). On PostgreSQL one INSERT
    ... SELECT FROM UNNEST of an array per column, prepared by psycopg from plain values
    (only JSON through Django): Django's bulk_create builds a model instance per row and a
    placeholder per value unless every field takes UNNEST (a BinaryField does not), which
    for thousands of rows cost more than the insert. Elsewhere, bulk_create."""
    db = connections[DEFAULT_DB_ALIAS]
    fields = [model._meta.get_field(name) for name in columns]
    if db.vendor != "postgresql":
        count = len(next(iter(columns.values()), []))
        model.objects.bulk_create([
            model(**{name: values[i] for name, values in columns.items()}) for i in range(count)])
        return
    names = ", ".join(db.ops.quote_name(f.column) for f in fields)
    # %b: each array sent in binary.
    arrays = ", ".join(f"(%b)::{f.db_type(db).split('(')[0]}[]" for f in fields)
    params = [[f.get_db_prep_save(v, db) for v in values]
              if isinstance(f, models.JSONField) else values
              for f, values in zip(fields, columns.values(), strict=True)]
    sql = f"INSERT INTO {model._meta.db_table} ({names}) SELECT * FROM UNNEST({arrays})"
    if db.queries_logged:  # DEBUG, a test counting queries: Django's cursor, which logs
        with db.cursor() as cursor:
            cursor.execute(sql.replace("%b", "%s"), params)
        return
    # Server-side binding: Django's cursors bind on the client, writing every array out as
    # quoted text (psycopg's slowest path, more than PostgreSQL took to insert).
    db.ensure_connection()
    with db.wrap_database_errors, ServerBindingCursor(db.connection) as cursor:
        cursor.execute(sql, params)

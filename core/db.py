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
    if db.vendor != "postgresql":
        count = len(next(iter(columns.values()), []))
        model.objects.bulk_create([
            model(**{name: values[i] for name, values in columns.items()}) for i in range(count)])
        return
    fields = [model._meta.get_field(name) for name in columns]
    names = ", ".join(db.ops.quote_name(f.column) for f in fields)
    arrays, params = _arrays(db, fields, columns.values())
    _execute(db, f"INSERT INTO {model._meta.db_table} ({names}) SELECT * FROM UNNEST({arrays})",
             params)


def update_columns(model, match: dict[str, list], columns: dict[str, list]) -> int:
    """Update rows given as columns: row i is the one whose `match` fields (attnames, the
    primary key's among them) hold match[name][i]; it takes columns[name][i]. Returns how
    many rows matched. On PostgreSQL one UPDATE ... FROM UNNEST of an array per column, as
    insert_columns (Django's bulk_update writes a CASE WHEN per row and value, whose
    building cost more than the update). Elsewhere one UPDATE per group of rows that take
    the same values."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        return _update_grouped(model, match, columns)
    fields = [model._meta.get_field(name) for name in [*match, *columns]]
    arrays, params = _arrays(db, fields, [*match.values(), *columns.values()])
    quote, table = db.ops.quote_name, model._meta.db_table
    keys, values = fields[:len(match)], fields[len(match):]
    sets = ", ".join(f"{quote(f.column)} = v.c{i}" for i, f in enumerate(values))
    where = " AND ".join(f"{table}.{quote(f.column)} = v.m{i}" for i, f in enumerate(keys))
    alias = ", ".join([f"m{i}" for i in range(len(keys))] + [f"c{i}" for i in range(len(values))])
    return _execute(db, f"UPDATE {table} SET {sets} FROM UNNEST({arrays}) AS v({alias}) "
                    f"WHERE {where}", params)


def _update_grouped(model, match: dict[str, list], columns: dict[str, list]) -> int:
    pk = model._meta.pk.attname
    groups: dict[str, tuple[dict, dict, list]] = {}
    for i, key in enumerate(match[pk]):
        wanted = {name: column[i] for name, column in match.items() if name != pk}
        values = {name: column[i] for name, column in columns.items()}
        group = repr((sorted(wanted.items()), sorted(values.items())))
        groups.setdefault(group, (wanted, values, []))[2].append(key)
    return sum(model.objects.filter(pk__in=keys, **wanted).update(**values)
               for wanted, values, keys in groups.values())


def _arrays(db, fields, columns) -> tuple[str, list]:
    """UNNEST's arguments for `columns` (of `fields`): a typed array each (%b: sent in
    binary), and their values (JSON adapted by Django)."""
    arrays = ", ".join(f"(%b)::{f.db_type(db).split('(')[0]}[]" for f in fields)
    params = [[f.get_db_prep_save(v, db) for v in values]
              if isinstance(f, models.JSONField) else list(values)
              for f, values in zip(fields, columns, strict=True)]
    return arrays, params


def _execute(db, sql: str, params: list) -> int:
    """Run a statement of _arrays' parameters; its row count."""
    if db.queries_logged:  # DEBUG, a test counting queries: Django's cursor, which logs
        with db.cursor() as cursor:
            cursor.execute(sql.replace("%b", "%s"), params)
            return cursor.rowcount
    # Server-side binding: Django's cursors bind on the client, writing every array out as
    # quoted text (psycopg's slowest path, more than PostgreSQL took to run the statement).
    db.ensure_connection()
    with db.wrap_database_errors, ServerBindingCursor(db.connection) as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount

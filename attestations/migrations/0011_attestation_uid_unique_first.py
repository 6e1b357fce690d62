"""One index for an attestation's uid instead of two (docs/decisions.md, "Ten million
attestations"): the unique constraint becomes (uid, chain_id), which answers a lookup by uid
alone as attestation_uid_idx did, so that index goes (91 MB per million attestations, and a
write less for every attestation the indexer stores). ON CONFLICT (chain_id, uid) still
finds the constraint: PostgreSQL and SQLite match its columns in any order.

On PostgreSQL, safe on a large live table: the new unique index is built CONCURRENTLY (the
indexer keeps writing), the constraint is swapped onto it in one short ALTER (waiting at
most 10 s for its lock, so that it never queues reads behind it for long: run the migration
again if it gave up), and the old index is dropped CONCURRENTLY; each step is skipped when
already done, so a failed run can be repeated. Elsewhere (SQLite) the ordinary operations."""

from django.db import migrations, models, transaction
from django.db.migrations.operations.base import Operation

TABLE = "attestations_attestation"
CONSTRAINT = "unique_attestation_uid"
NEW_INDEX = "attestation_uid_chain_key"
OLD_INDEX = "attestation_uid_idx"


class UnlessPostgreSQL(Operation):
    """`operation` for the migration state everywhere, and for the database except on
    PostgreSQL, where RunPython below does it concurrently."""

    reduces_to_sql = False

    def __init__(self, operation):
        self.operation = operation

    def state_forwards(self, app_label, state):
        self.operation.state_forwards(app_label, state)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            self.operation.database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            self.operation.database_backwards(app_label, schema_editor, from_state, to_state)

    def describe(self):
        return f"{self.operation.describe()} (PostgreSQL: concurrently, above)"


def _valid_index(schema_editor, name: str) -> bool | None:
    """Whether the index exists and is valid (None: it does not exist)."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(%s)",
                       [name])
        row = cursor.fetchone()
    return None if row is None else row[0]


def _build(schema_editor, name: str, definition: str) -> None:
    """CREATE INDEX CONCURRENTLY, after dropping what an interrupted build left invalid."""
    if _valid_index(schema_editor, name) is False:
        schema_editor.execute(f"DROP INDEX CONCURRENTLY {name}")
    schema_editor.execute(f"CREATE {definition.format(name=name)}")


def _constraint(schema_editor) -> str | None:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                       "WHERE conrelid = %s::regclass AND conname = %s", [TABLE, CONSTRAINT])
        row = cursor.fetchone()
    return row and row[0]


def _unique_on(schema_editor, columns: str) -> None:
    """The unique constraint on `columns`, through a unique index built concurrently and
    then swapped in (which renames it to the constraint's name); nothing when it is so."""
    if _constraint(schema_editor) == f"UNIQUE ({columns})":
        return
    _build(schema_editor, NEW_INDEX,
           f"UNIQUE INDEX CONCURRENTLY IF NOT EXISTS {{name}} ON {TABLE} ({columns})")
    with transaction.atomic(using=schema_editor.connection.alias), \
            schema_editor.connection.cursor() as cursor:
        cursor.execute("SET LOCAL lock_timeout = '10s'")
        cursor.execute(f"ALTER TABLE {TABLE} DROP CONSTRAINT IF EXISTS {CONSTRAINT}, "
                       f"ADD CONSTRAINT {CONSTRAINT} UNIQUE USING INDEX {NEW_INDEX}")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    _unique_on(schema_editor, "uid, chain_id")
    schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {OLD_INDEX}")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    _build(schema_editor, OLD_INDEX, f"INDEX CONCURRENTLY IF NOT EXISTS {{name}} ON {TABLE} (uid)")
    _unique_on(schema_editor, "chain_id, uid")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("attestations", "0010_offchain_attestations")]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
        UnlessPostgreSQL(migrations.RemoveIndex(model_name="attestation", name=OLD_INDEX)),
        UnlessPostgreSQL(migrations.RemoveConstraint(model_name="attestation", name=CONSTRAINT)),
        UnlessPostgreSQL(migrations.AddConstraint(
            model_name="attestation",
            constraint=models.UniqueConstraint(fields=["uid", "chain"], name=CONSTRAINT))),
    ]

"""The GIN index that answers GET /attestations?schemaId=...&field.<name>=... on PostgreSQL
(attestations/api/decoded_filters.py): `decoded @> {"name": value}` reads it.

jsonb_path_ops: smaller and faster than the default jsonb_ops for containment, the one
operator used. Partial on decoded data. Built CONCURRENTLY (no lock on the table's writes,
which the indexer keeps making), hence a non-atomic migration. SQLite has no GIN: nothing to
do there (its filter compares the key, on the schema's rows)."""

from django.db import migrations

INDEX = "attestation_decoded_idx"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {INDEX} ON attestations_attestation "
            "USING gin (decoded jsonb_path_ops) WHERE decoded IS NOT NULL")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("attestations", "0008_timestamp_and_revocation_indexes")]

    operations = [migrations.RunPython(create, drop, elidable=False)]

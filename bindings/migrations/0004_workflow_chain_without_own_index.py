"""A workflow's chain needs no index of its own: workflow_chain_idx (chain, -created_at)
answers lookups by chain, and every move of a workflow writes an entry in each of its
indexes. The index is dropped by name (Django's AlterField would also drop and re-add the
foreign key, whose check reads the whole table under a lock), CONCURRENTLY on PostgreSQL."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "verification_workflow_chain_id_1eebb1e3"  # Django's name for the column's index


def _concurrently(schema_editor) -> str:
    return " CONCURRENTLY" if schema_editor.connection.vendor == "postgresql" else ""


def drop_index(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX{_concurrently(schema_editor)} IF EXISTS {INDEX}")


def create_index(apps, schema_editor):
    schema_editor.execute(f"CREATE INDEX{_concurrently(schema_editor)} IF NOT EXISTS {INDEX} "
                          "ON verification_workflow (chain_id)")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("bindings", "0003_workflow_confirmed_block_idx"),
        ("registry", "0006_chain_binding_mode"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AlterField(
                model_name="workflow", name="chain",
                field=models.ForeignKey(db_index=False,
                                        on_delete=django.db.models.deletion.PROTECT,
                                        related_name="workflows", to="registry.chain"))],
            database_operations=[migrations.RunPython(drop_index, create_index,
                                                      elidable=False)],
        ),
    ]

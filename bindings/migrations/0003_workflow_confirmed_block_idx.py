"""The tracking's index of a chain's confirmed workflows by block (bindings/tracking.py,
`_watched`): each run reads the newest blocks' confirmed workflows, not all of the day's.
Built CONCURRENTLY on PostgreSQL (workflows keep being written meanwhile); elsewhere
(SQLite) the ordinary AddIndex."""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class AddIndexConcurrentlyOnPostgreSQL(AddIndexConcurrently):
    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)
        else:
            migrations.AddIndex.database_forwards(self, app_label, schema_editor, from_state,
                                                  to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)
        else:
            migrations.AddIndex.database_backwards(self, app_label, schema_editor, from_state,
                                                   to_state)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("bindings", "0002_workflow_merkle_batch"),
    ]

    operations = [
        AddIndexConcurrentlyOnPostgreSQL(
            model_name="workflow",
            index=models.Index(condition=models.Q(("state", "confirmed")),
                               fields=["chain", "block_number"],
                               name="workflow_confirmed_block_idx"),
        ),
    ]

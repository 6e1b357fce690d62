"""Workflows now belong to the bindings app (bindings/migrations/0001_initial.py, which
made them there first): out of this app's state, their tables left as they are."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("verification", "0002_workflow_attestation_data"),
        ("bindings", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="WorkflowTransition"),
                migrations.DeleteModel(name="Workflow"),
            ],
        ),
    ]

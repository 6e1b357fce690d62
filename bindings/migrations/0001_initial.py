"""Workflows move from the verification app to this one, their data staying where it is.

The tables keep the names the verification app gave them (`db_table`), with their indexes
and constraints: this migration adds the models to this app's state only, and
verification's 0003 takes them out of its own (state only too). Content types follow, so
that permissions, admin log entries and audit rows keep pointing at the models.
"""

import uuid

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

MODELS = ("workflow", "workflowtransition")
STATES = [("received", "Received"), ("queued", "Queued"), ("dispatched", "Dispatched"),
          ("submitted", "Submitted"), ("confirmed", "Confirmed"), ("failed", "Failed"),
          ("expired", "Expired")]


def _relabel(apps, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if ContentType.objects.filter(app_label=new, model=model).exists():
            continue  # made already (a fresh database's post_migrate): nothing to carry
        ContentType.objects.filter(app_label=old, model=model).update(app_label=new)
    # The process's cache of content types (by id and by model) would still say `old`.
    from django.contrib.contenttypes.models import ContentType as Current

    Current.objects.clear_cache()


def content_types_to_bindings(apps, schema_editor):
    _relabel(apps, "verification", "bindings")


def content_types_to_verification(apps, schema_editor):
    _relabel(apps, "bindings", "verification")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("executors", "0001_initial"),
        ("registry", "0004_rpc_probes"),
        ("verification", "0002_workflow_attestation_data"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Workflow",
                    fields=[
                        ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ("document_hash", models.CharField(max_length=66)),
                        ("schema_uid", models.CharField(max_length=66)),
                        ("schema", models.TextField(blank=True, help_text="The EAS schema string.")),
                        ("revocable", models.BooleanField(default=True)),
                        ("attestation_data", models.BinaryField(default=b"", help_text="The ABI-encoded data to attest.")),
                        ("data", models.JSONField(blank=True, default=dict, help_text="Values of the schema's other fields.")),
                        ("state", models.CharField(choices=STATES, default="received", max_length=16)),
                        ("attempts", models.PositiveIntegerField(default=0, help_text="Claims handed out so far.")),
                        ("available_at", models.DateTimeField(default=django.utils.timezone.now, help_text="Not claimable before (back-off of a retry).")),
                        ("deadline", models.DateTimeField(help_text="Expires when nobody has claimed it by then.")),
                        ("dispatched_at", models.DateTimeField(blank=True, null=True)),
                        ("tx_hash", models.CharField(blank=True, help_text="The candidate tracked now.", max_length=66)),
                        ("tx_hashes", models.JSONField(blank=True, default=list, help_text="Every candidate transaction ever reported.")),
                        ("tx_missing_since", models.DateTimeField(blank=True, help_text="When the tracked transaction was first found missing.", null=True)),
                        ("block_number", models.PositiveBigIntegerField(blank=True, null=True)),
                        ("attestation_uid", models.CharField(blank=True, max_length=66)),
                        ("last_error", models.TextField(blank=True)),
                        ("created_by", models.CharField(help_text="Prefix of the key that created it.", max_length=100)),
                        ("idempotency_key", models.CharField(blank=True, max_length=255, null=True)),
                        ("request_fingerprint", models.CharField(blank=True, help_text="SHA-256 of the request body.", max_length=64)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("confirmed_at", models.DateTimeField(blank=True, null=True)),
                        ("chain", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="workflows", to="registry.chain")),
                        ("executor", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="workflows", to="executors.executor")),
                    ],
                    options={
                        "db_table": "verification_workflow",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(condition=models.Q(("state", "queued")), fields=["chain", "created_at"], name="workflow_queue_idx"),
                            models.Index(fields=["state", "-created_at"], name="workflow_state_idx"),
                            models.Index(fields=["document_hash"], name="workflow_document_idx"),
                            models.Index(fields=["chain", "-created_at"], name="workflow_chain_idx"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(condition=models.Q(("idempotency_key__isnull", False)), fields=("created_by", "idempotency_key"), name="unique_workflow_idempotency_key"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="WorkflowTransition",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("from_state", models.CharField(blank=True, choices=STATES, max_length=16)),
                        ("to_state", models.CharField(choices=STATES, max_length=16)),
                        ("cause", models.CharField(max_length=200)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("workflow", models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name="transitions", to="bindings.workflow")),
                    ],
                    options={
                        "db_table": "verification_workflowtransition",
                        "ordering": ["created_at", "id"],
                        "indexes": [models.Index(fields=["workflow", "created_at"], name="workflow_transition_idx")],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_to_bindings, content_types_to_verification),
    ]

"""Workflows moved from the verification app to bindings without moving their rows (issue
18): a database migrated to just before the move and filled there, through the models of
that time, reads the same through bindings.models once migrated forward: rows, transitions,
and the content type that permissions, admin log entries and audit rows point at."""

from datetime import timedelta

import pytest
from auditlog.models import LogEntry as AuditEntry
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from bindings.models import Workflow, WorkflowTransition
from tests.factories import ChainFactory, ExecutorFactory

# Migrating a schema needs no open transaction (SQLite refuses it inside one).
pytestmark = pytest.mark.django_db(transaction=True)

LAST_OF_VERIFICATION = ("verification", "0002_workflow_attestation_data")
BEFORE_THE_MOVE = [LAST_OF_VERIFICATION, ("bindings", None)]
MODELS = ("workflow", "workflowtransition")


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return MigrationExecutor(connection)  # a loader that reads what is applied now


@pytest.fixture
def old_apps():
    """The models as the verification app had them, on a database migrated back to then;
    forward again afterwards, whatever the test did."""
    executor = migrate(BEFORE_THE_MOVE)
    try:
        graph = executor.loader.graph
        then = [n for n in graph.leaf_nodes() if n[0] not in ("bindings", "verification")]
        yield executor.loader.project_state([*then, LAST_OF_VERIFICATION]).apps
    finally:
        migrate(executor.loader.graph.leaf_nodes())


def test_the_tables_keep_their_names_and_the_migration_state_matches_the_models():
    assert Workflow._meta.db_table == "verification_workflow"
    assert WorkflowTransition._meta.db_table == "verification_workflowtransition"
    executor = MigrationExecutor(connection)
    state = executor.loader.project_state(executor.loader.graph.leaf_nodes())
    assert {m for a, m in state.models if a == "bindings"} == set(MODELS)
    assert not {m for a, m in state.models if a == "verification"}


def test_workflows_written_before_the_move_read_the_same_after_it(old_apps):
    chain = ChainFactory()
    executor = ExecutorFactory(chain=chain)
    OldWorkflow = old_apps.get_model("verification", "Workflow")
    OldContentType = old_apps.get_model("contenttypes", "ContentType")
    now = timezone.now()
    workflow = OldWorkflow.objects.create(
        chain_id=chain.pk, document_hash="0x" + "d0" * 32, schema_uid="0x" + "5c" * 32,
        schema="bytes32 documentHash", attestation_data=b"\x01\x02", data={"note": "kept"},
        state="dispatched", attempts=1, deadline=now + timedelta(hours=1),
        executor_id=executor.pk, dispatched_at=now, created_by="ck_old", idempotency_key="k-1",
        created_at=now, updated_at=now,
    )
    steps = [("", "received", "requested"), ("received", "queued", "accepted"),
             ("queued", "dispatched", "claimed")]
    for i, (from_state, to_state, cause) in enumerate(steps):
        workflow.transitions.create(from_state=from_state, to_state=to_state, cause=cause,
                                    created_at=now + timedelta(seconds=i))
    # What the old code left pointing at the verification app's content type.
    old_type = OldContentType.objects.get(app_label="verification", model="workflow")
    old_ids = dict(OldContentType.objects.filter(app_label="verification", model__in=MODELS)
                   .values_list("model", "pk"))
    permissions = set(Permission.objects.filter(content_type_id__in=old_ids.values())
                      .values_list("pk", "codename"))
    user = User.objects.create_user("reviewer")
    user.user_permissions.add(*Permission.objects.filter(content_type_id=old_type.pk))
    LogEntry.objects.create(user=user, content_type_id=old_type.pk, object_id=str(workflow.pk),
                            object_repr="a workflow", action_flag=CHANGE)
    AuditEntry.objects.create(content_type_id=old_type.pk, object_pk=str(workflow.pk),
                              object_repr="a workflow", action=AuditEntry.Action.UPDATE,
                              changes={"state": ["queued", "dispatched"]})

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    moved = Workflow.objects.get(pk=workflow.pk)
    assert (moved.chain_id, moved.executor_id, moved.state, moved.attempts) == (
        chain.pk, executor.pk, "dispatched", 1)
    assert (bytes(moved.attestation_data), moved.data, moved.idempotency_key) == (
        b"\x01\x02", {"note": "kept"}, "k-1")
    assert [(t.from_state, t.to_state, t.cause) for t in moved.transitions.all()] == steps
    assert WorkflowTransition.objects.filter(workflow=moved).count() == 3
    # The same content types, relabelled: every row pointing at them follows.
    new_ids = {m: ContentType.objects.get_for_model(model).pk
               for m, model in zip(MODELS, (Workflow, WorkflowTransition))}
    assert new_ids == old_ids
    assert not ContentType.objects.filter(app_label="verification", model__in=MODELS).exists()
    assert set(Permission.objects.filter(content_type_id__in=new_ids.values())
               .values_list("pk", "codename")) == permissions
    assert User.objects.get(pk=user.pk).has_perm("bindings.view_workflow")
    assert LogEntry.objects.get(object_id=str(workflow.pk)).get_edited_object() == moved
    assert AuditEntry.objects.get(object_pk=str(workflow.pk)).content_type.model_class() is Workflow


def test_the_move_goes_back_with_the_content_types(old_apps):
    OldContentType = old_apps.get_model("contenttypes", "ContentType")
    assert set(OldContentType.objects.filter(app_label="verification")
               .values_list("model", flat=True)) >= set(MODELS)
    assert not OldContentType.objects.filter(app_label="bindings").exists()

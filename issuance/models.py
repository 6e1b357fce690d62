"""The issuer pages' records: who binds for which tenant, and each run of a drop.

A tenant is what an API key is today: its prefix is the `created_by` of the workflows it
binds (bindings.Workflow). A Django user binds for one tenant, that of the key its
Membership names (set in the Django admin); issue 36's Issuer will stand behind it
(docs/decisions.md, "The issuer pages").
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from bindings.models import Workflow, WorkflowState
from registry.models import ApiKey, Chain, KeyScope

# What may be retried from a run: refused documents (no workflow) and workflows given up.
RETRYABLE = (WorkflowState.FAILED, WorkflowState.EXPIRED)
NOT_BOUND = "not_bound"  # a document of a run without a workflow: refused, with its reason


class Membership(models.Model):
    """A Django user who binds documents on the issuer pages for the tenant of `api_key`
    (its workflows are that key's, as if the key had made them). The user also needs the
    permission `bindings.add_workflow`."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="issuer_membership")
    api_key = models.ForeignKey(
        ApiKey, on_delete=models.PROTECT, related_name="memberships",
        limit_choices_to={"scope__in": [KeyScope.API, KeyScope.ADMIN]},
        help_text="The key (of scope api or admin) whose tenant the user binds for: its name "
        "is the issuer shown on the slips, its prefix owns the workflows. A revoked or expired "
        "key stops the user binding.")
    # TODO(issue 36): an `issuer` link to the proven Issuer, shown on the slips instead of
    # the key's name (docs/decisions.md, "The issuer pages").

    class Meta:
        verbose_name = "issuer pages user"

    def __str__(self):
        return f"{self.user} for {self.api_key}"


class RunQuerySet(models.QuerySet):
    def of_tenant(self, tenant: str):
        return self.filter(tenant=tenant)


class Run(models.Model):
    """One drop of files on the issuer pages: its documents, bound on one chain under one
    schema, followed at a stable URL."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.CharField(max_length=100, help_text="Prefix of the key it binds for "
                              "(the workflows' created_by).")
    issuer_name = models.CharField(max_length=100, help_text="The key's name when the run "
                                   "was made: the issuer its slips name.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             related_name="issuer_runs")
    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="+")
    schema_uid = models.CharField(max_length=66)
    skipped = models.JSONField(default=list, blank=True,
                               help_text="Files of the drop not submitted, with the reason "
                               "({name, reason}): unreadable, a duplicate of another.")
    created_at = models.DateTimeField(default=timezone.now)

    objects = RunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["tenant", "-created_at"], name="run_tenant_idx")]

    def __str__(self):
        return f"run {self.pk}"


class RunDocument(models.Model):
    """A file of a run: its name and hash, and the workflow that binds it (none while the
    service refused it, e.g. its chain was inactive: `error` says why, retry binds it)."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="documents")
    position = models.PositiveIntegerField(help_text="Its place in the drop.")
    name = models.CharField(max_length=1024, help_text="The file's name (its path in a "
                            "dropped folder).")
    document_hash = models.CharField(max_length=66)
    workflow = models.ForeignKey(Workflow, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    already_bound = models.BooleanField(
        default=False, help_text="Bound before this run (an earlier drop of the same file "
        "on the same chain and schema): not bound twice.")
    error = models.CharField(max_length=500, blank=True, help_text="Why it is not bound.")

    class Meta:
        ordering = ["run", "position"]
        constraints = [models.UniqueConstraint(fields=["run", "document_hash"],
                                               name="unique_run_document")]

    def __str__(self):
        return f"{self.name} ({self.document_hash})"

    @property
    def state(self) -> str:
        return self.workflow.state if self.workflow_id else NOT_BOUND

    @property
    def state_label(self) -> str:
        return self.state.replace("_", " ")

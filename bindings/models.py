"""Document-binding workflows: a document hash to attest on a chain, tracked by a stable id
from the request to the confirmed attestation, with every transition recorded.

The state is stored (it is indexed, locked and claimed on); each change goes through
`Workflow.transition()`, which refuses what the state machine does not allow and applies
the change with a conditional UPDATE, so that two workers can never both move one row.
"""

import uuid

from django.db import models
from django.utils import timezone

from core import events
from core.models import StateChange
from executors.models import Executor
from registry.models import Chain


class WorkflowState(models.TextChoices):
    RECEIVED = "received"  # accepted, not yet checked and queued
    QUEUED = "queued"  # waiting for an executor to claim it
    DISPATCHED = "dispatched"  # an executor holds it
    SUBMITTED = "submitted"  # the executor reported a transaction hash
    CONFIRMED = "confirmed"  # mined, with the chain's confirmations, and indexed
    FAILED = "failed"  # given up: errors or reverts beyond the attempt limit
    EXPIRED = "expired"  # nobody claimed it before its deadline


S = WorkflowState
# The state machine. A retry (error, revert) and a reorganisation go back to queued; failed
# and expired are final.
TRANSITIONS: dict[str, frozenset[str]] = {
    S.RECEIVED: frozenset({S.QUEUED}),
    S.QUEUED: frozenset({S.DISPATCHED, S.EXPIRED}),
    S.DISPATCHED: frozenset({S.SUBMITTED, S.QUEUED, S.FAILED}),
    S.SUBMITTED: frozenset({S.CONFIRMED, S.QUEUED, S.FAILED}),
    S.CONFIRMED: frozenset({S.QUEUED}),
    S.FAILED: frozenset(),
    S.EXPIRED: frozenset(),
}
FINAL_STATES = (S.CONFIRMED, S.FAILED, S.EXPIRED)


class IllegalTransition(Exception):
    """The state machine does not allow this move, or the row moved on meanwhile."""

    def __init__(self, workflow, to_state: str, actual: str | None = None):
        self.from_state = actual or workflow.state
        self.to_state = to_state
        super().__init__(f"Workflow {workflow.pk} is {self.from_state}; it cannot become {to_state}.")


class Workflow(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="workflows")
    document_hash = models.CharField(max_length=66)
    schema_uid = models.CharField(max_length=66)
    # Kept from the schema at creation (a uid stands for one schema string, resolver and
    # revocability): a claim needs no schema lookup, and survives the indexer dropping it.
    schema = models.TextField(blank=True, help_text="The EAS schema string.")
    revocable = models.BooleanField(default=True)
    attestation_data = models.BinaryField(default=b"", help_text="The ABI-encoded data to attest.")
    data = models.JSONField(default=dict, blank=True,
                            help_text="Values of the schema's other fields.")
    state = models.CharField(max_length=16, choices=WorkflowState.choices,
                             default=WorkflowState.RECEIVED)
    attempts = models.PositiveIntegerField(default=0, help_text="Claims handed out so far.")
    available_at = models.DateTimeField(default=timezone.now,
                                        help_text="Not claimable before (back-off of a retry).")
    deadline = models.DateTimeField(help_text="Expires when nobody has claimed it by then.")
    executor = models.ForeignKey(Executor, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="workflows")
    dispatched_at = models.DateTimeField(null=True, blank=True)
    tx_hash = models.CharField(max_length=66, blank=True, help_text="The candidate tracked now.")
    tx_hashes = models.JSONField(default=list, blank=True,
                                 help_text="Every candidate transaction ever reported.")
    tx_missing_since = models.DateTimeField(
        null=True, blank=True, help_text="When the tracked transaction was first found missing.")
    block_number = models.PositiveBigIntegerField(null=True, blank=True)
    attestation_uid = models.CharField(max_length=66, blank=True)
    last_error = models.TextField(blank=True)
    created_by = models.CharField(max_length=100, help_text="Prefix of the key that created it.")
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    request_fingerprint = models.CharField(max_length=64, blank=True,
                                           help_text="SHA-256 of the request body.")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "verification_workflow"  # made by the verification app (see migrations)
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["created_by", "idempotency_key"],
                                    condition=models.Q(idempotency_key__isnull=False),
                                    name="unique_workflow_idempotency_key"),
        ]
        indexes = [
            # The claim: the oldest queued workflow of a chain.
            models.Index(fields=["chain", "created_at"], name="workflow_queue_idx",
                         condition=models.Q(state="queued")),
            models.Index(fields=["state", "-created_at"], name="workflow_state_idx"),
            models.Index(fields=["document_hash"], name="workflow_document_idx"),
            models.Index(fields=["chain", "-created_at"], name="workflow_chain_idx"),
        ]

    def __str__(self):
        return f"workflow {self.pk} ({self.state})"

    def transition(self, to_state: str, *, cause: str, now=None, **changes) -> None:
        """Move to `to_state` with `changes`, recording the transition. Call inside a
        transaction. Refused (IllegalTransition) when the state machine does not allow it,
        or when another worker moved the row first (the UPDATE matches the state read)."""
        if to_state not in TRANSITIONS[self.state]:
            raise IllegalTransition(self, to_state)
        now = now or timezone.now()
        moved = Workflow.objects.filter(pk=self.pk, state=self.state).update(
            state=to_state, updated_at=now, **changes
        )
        if not moved:
            actual = Workflow.objects.filter(pk=self.pk).values_list("state", flat=True).first()
            raise IllegalTransition(self, to_state, actual)
        WorkflowTransition.objects.create(workflow=self, from_state=self.state, to_state=to_state,
                                          cause=cause[:200], created_at=now)
        from_state = self.state
        self.state, self.updated_at = to_state, now
        for name, value in changes.items():
            setattr(self, name, value)
        self.emit_state_changed(from_state, cause[:200], now)

    def emit_state_changed(self, from_state: str, cause: str, now) -> None:
        """Tell core.events (the webhooks' outbox) of a transition, in its transaction."""
        events.emit("workflow.state_changed", {
            "workflowId": str(self.pk), "chainId": self.chain_id,
            "documentHash": self.document_hash, "from": from_state or None, "to": self.state,
            "cause": cause, "attempts": self.attempts, "txHash": self.tx_hash or None,
            "attestationUid": self.attestation_uid or None,
            "lastError": self.last_error or None,
        }, occurred_at=now, owner=self.created_by, chain_id=self.chain_id,
            workflow_id=self.pk, document_hash=self.document_hash)


class WorkflowTransition(StateChange):
    """One move of a workflow, with its cause."""

    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="transitions",
                                 db_index=False)
    from_state = models.CharField(max_length=16, choices=WorkflowState.choices, blank=True)
    to_state = models.CharField(max_length=16, choices=WorkflowState.choices)

    class Meta:
        db_table = "verification_workflowtransition"
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["workflow", "created_at"], name="workflow_transition_idx")]

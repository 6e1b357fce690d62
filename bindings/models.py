"""Document-binding workflows: a document hash to attest on a chain, tracked by a stable id
from the request to the confirmed attestation, with every transition recorded.

The state is stored (it is indexed, locked and claimed on); each change goes through
`Workflow.objects.transition_many()` (`Workflow.transition()` for one row, `claim()` for
a batched claim), which refuses what the state machine does not allow, applies the change
with a conditional UPDATE, so that two workers can never both move one row, and records
each move (a WorkflowTransition row and an event for the webhooks' outbox).
"""

import uuid
from collections.abc import Callable, Sequence

from django.db import connection, models, transaction
from django.utils import timezone

from core import events
from core.db import insert_columns, update_columns
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
        self.workflow = workflow
        self.from_state = actual or workflow.state
        self.to_state = to_state
        super().__init__(f"Workflow {getattr(workflow, 'pk', '')} is {self.from_state}; "
                         f"it cannot become {to_state}.")


Cause = str | Callable[["Workflow"], str]


class WorkflowQuerySet(models.QuerySet):
    def transition_many(self, workflows: Sequence["Workflow"], to_state: str, *, cause: Cause,
                        now=None, each: Callable[["Workflow"], dict] | None = None,
                        **changes) -> list["Workflow"]:
        """Move every one of `workflows` (as read in the caller's transaction, locked where
        the database locks rows) to `to_state` with `changes` (the same for all) and
        `each(workflow)` (values of its own), recording each move; `cause` is a text or a
        function of the workflow (as read). All or nothing: IllegalTransition when the state
        machine does not allow one of the moves, or another worker moved one of the rows
        first (the UPDATE matches the states read); the caller's transaction then goes on
        when nothing had changed yet, else it is marked for rollback. One UPDATE per chunk of
        rows (core.db.update_columns: one for all of them on PostgreSQL)."""
        rows = list(workflows)
        for workflow in rows:
            if to_state not in TRANSITIONS[workflow.state]:
                raise IllegalTransition(workflow, to_state)
        if not rows:
            return rows
        now = now or timezone.now()
        own = {w.pk: each(w) for w in rows} if each else {}
        chunks = _chunks(rows, len({name for values in own.values() for name in values}))
        refused = None
        with transaction.atomic(savepoint=False):
            for index, chunk in enumerate(chunks):
                moved = _update_states(chunk, to_state, now, own, changes)
                if moved != len(chunk):
                    refused = _refusal(chunk, to_state)
                    if index == 0 and moved == 0:
                        break  # nothing changed: refused without spoiling the caller's transaction
                    raise refused  # the atomic block marks the transaction for rollback
            else:
                from_states = [w.state for w in rows]
                causes = [cause(w) if callable(cause) else cause for w in rows]  # as read
                for workflow in rows:
                    workflow.state, workflow.updated_at = to_state, now
                    for name, value in {**changes, **own.get(workflow.pk, {})}.items():
                        setattr(workflow, name, value)
                record_transitions(rows, from_states, causes, now)
        if refused is not None:
            raise refused
        return rows

    def insert_many(self, rows: list["Workflow"]) -> None:
        """bulk_create(rows), in one statement on PostgreSQL (core.db.insert_columns)."""
        fields = Workflow._meta.concrete_fields
        insert_columns(Workflow, {f.attname: [getattr(row, f.attname) for row in rows]
                                  for f in fields})
        for row in rows:
            row._state.adding, row._state.db = False, self.db

    def claim(self, *, chain_id: int, executor, limit: int, now) -> list["Workflow"]:
        """Hand up to `limit` of the chain's oldest claimable queued workflows to `executor`:
        one statement, an UPDATE ... RETURNING of the rows its sub-select picked, skipping
        those other claims hold locked (PostgreSQL's SKIP LOCKED), so that concurrent claims
        each take other rows and none waits. On SQLite the same statement runs under the database's write lock
        (transactions begin IMMEDIATE). The moves are recorded as transition_many's are."""
        table = Workflow._meta.db_table
        postgresql = connection.vendor == "postgresql"
        # MATERIALIZED: the picked rows are read (and locked) once. As `id IN (SELECT ...)`,
        # PostgreSQL may run the sub-select again for each candidate row, and a rerun skips
        # the rows this statement has just moved and picks others: more than `limit`.
        materialized = " MATERIALIZED" if postgresql else ""
        skip_locked = " FOR UPDATE SKIP LOCKED" if postgresql else ""
        columns = ", ".join(f"{table}.{connection.ops.quote_name(f.column)}"
                            for f in Workflow._meta.concrete_fields)
        sql = (f"WITH picked AS{materialized} (SELECT id FROM {table} WHERE chain_id = %s "
               f"AND state = %s AND available_at <= %s AND deadline > %s "
               f"ORDER BY created_at LIMIT %s{skip_locked}) "
               f"UPDATE {table} SET state = %s, executor_id = %s, dispatched_at = %s, "
               f"attempts = attempts + 1, updated_at = %s FROM picked "
               f"WHERE {table}.id = picked.id AND {table}.state = %s RETURNING {columns}")
        db_now = Workflow._meta.get_field("updated_at").get_db_prep_value(now, connection)
        executor_pk = Workflow._meta.get_field("executor").target_field.get_db_prep_value(
            executor.pk, connection)
        with transaction.atomic(savepoint=False):
            rows = list(self.raw(sql, [chain_id, WorkflowState.QUEUED, db_now, db_now, limit,
                                       WorkflowState.DISPATCHED, executor_pk, db_now, db_now,
                                       WorkflowState.QUEUED]))
            rows.sort(key=lambda w: (w.created_at, str(w.pk)))  # RETURNING keeps no order
            for workflow in rows:
                workflow.executor = executor
            record_transitions(rows, [WorkflowState.QUEUED] * len(rows),
                               f"claimed by {executor.address}", now)
        return rows


def _chunks(rows: list, own_fields: int) -> list[list]:
    """Rows in chunks whose UPDATE stays within the database's parameter limit (SQLite's)."""
    limit = connection.features.max_query_params
    size = len(rows) if limit is None else max(1, (limit - 20) // (1 + 2 * own_fields))
    return [rows[start:start + size] for start in range(0, len(rows), size)]


def _update_states(rows: list, to_state: str, now, own: dict, changes: dict) -> int:
    """One conditional UPDATE of `rows` (core.db.update_columns), each from the state it
    was read in, to `to_state` with `changes` and its `own` values (a name that some rows
    lack keeps the value they were read with); how many moved."""
    names = list(dict.fromkeys(name for w in rows for name in own.get(w.pk, {})))
    columns = {"state": [to_state] * len(rows), "updated_at": [now] * len(rows)}
    for name, value in changes.items():
        field = Workflow._meta.get_field(name)
        columns[field.attname] = [_column_value(value)] * len(rows)
    for name in names:
        field = Workflow._meta.get_field(name)
        columns[field.attname] = [_column_value(own[w.pk][name]) if name in own.get(w.pk, {})
                                  else getattr(w, field.attname) for w in rows]
    return update_columns(Workflow, {"id": [w.pk for w in rows], "state": [w.state for w in rows]},
                          columns)


def _column_value(value):
    """A value as its column holds it: a related row by its key."""
    return value.pk if isinstance(value, models.Model) else value


def _refusal(rows: list, to_state: str) -> "IllegalTransition":
    """The first of `rows` that another worker moved (or removed) meanwhile."""
    actual = dict(Workflow.objects.filter(pk__in=[w.pk for w in rows]).values_list("pk", "state"))
    first = next((w for w in rows if actual.get(w.pk) != w.state), rows[0])
    return IllegalTransition(first, to_state, actual.get(first.pk, "gone"))


def record_transitions(rows: list, from_states: list[str], cause: Cause | list[str], now,
                       to_states: list[str] | None = None) -> None:
    """Record the moves of `rows` from `from_states` to `to_states` (default: their current
    states; the moves are already applied), each checked against the state machine ("": the
    creation), for `cause` (a text, a function of the workflow, or one text per row): a
    transition row each (one INSERT), and each event for core.events when
    anybody listens."""
    to_states = to_states or [w.state for w in rows]
    for workflow, before, after in zip(rows, from_states, to_states, strict=True):
        if after not in TRANSITIONS.get(before, {WorkflowState.RECEIVED}):
            raise IllegalTransition(workflow, after, before or "new")
    if isinstance(cause, list):
        causes = [why[:200] for why in cause]
    else:
        causes = [(cause(w) if callable(cause) else cause)[:200] for w in rows]
    insert_columns(WorkflowTransition, {
        "workflow_id": [w.pk for w in rows], "from_state": from_states, "to_state": to_states,
        "cause": causes, "created_at": [now] * len(rows)})
    if events.wanted("workflow.state_changed"):
        for w, before, after, why in zip(rows, from_states, to_states, causes, strict=True):
            w.emit_state_changed(before, why, now, to_state=after)


class Workflow(models.Model):
    # What was asked to be attested, read when the job is handed out only: left out
    # (deferred) where thousands of workflows are moved on (results, tracking).
    REQUEST_FIELDS = ("schema", "attestation_data", "data")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # No index of its own: workflow_chain_idx (chain, -created_at) answers by chain too, and
    # every move of a workflow writes an entry in each index.
    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="workflows",
                              db_index=False)
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
    # Bound in a Merkle batch (binding mode `merkle`): the batch its executor reported, whose
    # root's attestation binds it (attestation_uid, once confirmed, is the root's).
    merkle_batch = models.ForeignKey("attestations.MerkleBatch", on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="workflows",
                                     db_index=False)
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
            # Tracking: the confirmed workflows of a chain's newest blocks (bindings/tracking.py).
            models.Index(fields=["chain", "block_number"], name="workflow_confirmed_block_idx",
                         condition=models.Q(state="confirmed")),
        ]

    objects = WorkflowQuerySet.as_manager()

    def __str__(self):
        return f"workflow {self.pk} ({self.state})"

    def transition(self, to_state: str, *, cause: str, now=None, **changes) -> None:
        """Move to `to_state` with `changes`, recording the transition (transition_many of
        this one row). Refused (IllegalTransition) when the state machine does not allow it,
        or when another worker moved the row first (the UPDATE matches the state read)."""
        Workflow.objects.transition_many([self], to_state, cause=cause, now=now, **changes)

    def emit_state_changed(self, from_state: str, cause: str, now, *,
                           to_state: str | None = None) -> None:
        """Tell core.events (the webhooks' outbox) of a transition (to `to_state`, by
        default the current state), in its transaction."""
        events.emit("workflow.state_changed", {
            "workflowId": str(self.pk), "chainId": self.chain_id,
            "documentHash": self.document_hash, "from": from_state or None,
            "to": to_state or self.state,
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

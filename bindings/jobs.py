"""Executor jobs: an executor of a chain claims the oldest queued workflows (one, or a batch)
and reports what it did with them (one result, or a batch of results, all or nothing)."""

import uuid

from django.db import transaction
from django.utils import timezone

from bindings.merkle import chain_root_schema, record_batch
from bindings.models import Workflow, WorkflowState
from bindings.modes import binding_mode
from bindings.workflows import at_item, retry_or_fail
from core.errors import Conflict, DomainError, Invalid, NotFound, PermissionDenied
from executors.models import CLAIMING_STATUSES, Executor, ExecutorStatus
from registry.authentication import KeyHolder
from registry.models import Chain, Deployment

S = WorkflowState
MAX_CLAIM = 500  # jobs per claim
MAX_RESULTS = 500  # results per report


def _executor(chain: Chain, holder: KeyHolder, executor_id) -> Executor:
    executor = Executor.objects.filter(pk=executor_id, chain=chain).first()
    if executor is None or executor.status == ExecutorStatus.DEREGISTERED:
        raise NotFound("No executor with this id on this chain: register it (again).")
    executor.check_owner(holder)
    return executor


def job_claim(*, chain_ref: str, holder: KeyHolder, executor_id, limit: int = 1,
              now=None) -> list[dict]:
    """Hand up to `limit` of the chain's oldest claimable queued workflows to the executor,
    each to it alone (Workflow.objects.claim: one statement, SKIP LOCKED): their jobs (see
    job_payload), oldest first; empty when none is claimable."""
    chain = Chain.objects.registered(chain_ref)
    executor = _executor(chain, holder, executor_id)
    if not chain.is_active:
        raise Conflict(f"Chain {chain.chain_id} is inactive.", code="chain_inactive")
    status = executor.current_status()
    if status not in CLAIMING_STATUSES:
        raise Conflict(f"This executor is {status}: only a healthy executor (or one low on "
                       "funds) takes jobs (heartbeat first).", code="executor_not_healthy")
    if not executor.is_trusted and not chain.untrusted_executor_jobs:
        # What it bound would not verify: the chain's policy keeps jobs for trusted ones.
        raise Conflict(f"This executor is not trusted ({executor.trust}): chain "
                       f"{chain.chain_id} hands jobs to trusted executors only (an "
                       "administrator approves it: POST /v1/admin/executors/{id}/approve).",
                       code="executor_untrusted")
    # In the claim's transaction: jobs that cannot be described are not handed out.
    with transaction.atomic():
        claimed = Workflow.objects.claim(chain_id=chain.pk, executor=executor, limit=limit,
                                         now=now or timezone.now())
        if not claimed:  # an idle executor's poll: nothing more to read
            return []
        eas = _eas_address(chain)
        root = chain_root_schema(chain) if chain.binding_mode == Chain.BindingMode.MERKLE else None
        for workflow in claimed:
            workflow.chain = chain
        return [job_payload(workflow, eas, root.uid if root else None) for workflow in claimed]


def _eas_address(chain: Chain) -> str | None:
    return (Deployment.objects.filter(chain=chain, kind=Deployment.Kind.EAS)
            .order_by("id").values_list("address", flat=True).first())


def job_payload(workflow: Workflow, eas_address: str | None,
                root_schema_uid: str | None = None) -> dict:
    """What the executor needs to attest a claimed workflow (`root_schema_uid`: the chain's
    root schema, for binding mode `merkle`)."""
    mode = binding_mode(workflow, root_schema_uid=root_schema_uid)
    return {"workflow": workflow, "eas_address": eas_address,
            "encoded_data": "0x" + bytes(workflow.attestation_data).hex(), "binding_mode": mode,
            "root_schema_id": root_schema_uid if mode == Chain.BindingMode.MERKLE else None}


def job_report(*, chain_ref: str, holder: KeyHolder, workflow_id, executor_id,
               tx_hash: str | None = None, error: str | None = None, now=None) -> Workflow:
    """An executor's result for one job: the hash of the transaction it sent, or the error
    it met (job_report_many of one item, its refusal naming no index)."""
    try:
        workflow_id = uuid.UUID(str(workflow_id))
    except ValueError:
        raise NotFound("No workflow with this id on this chain.") from None
    item = {"workflow_id": workflow_id, "tx_hash": tx_hash} if tx_hash is not None else {
        "workflow_id": workflow_id, "error": error}
    (workflow,) = _report(chain_ref, holder, executor_id, [item], now, name_items=False)
    return workflow


def job_report_many(*, chain_ref: str, holder: KeyHolder, executor_id, results: list[dict],
                    now=None) -> list[Workflow]:
    """An executor's results for many jobs (`results`: dicts of workflow_id and tx_hash or
    error, as the serializer validated them), all or nothing: the first item refused (not
    this executor's 403, unknown 404, wrong state 409, repeated 400) refuses the call,
    naming it (`results.3`), and nothing is written. Returns the workflows in item order."""
    return _report(chain_ref, holder, executor_id, results, now, name_items=True)


def _report(chain_ref, holder, executor_id, results: list[dict], now, *,
            name_items: bool) -> list[Workflow]:
    chain = Chain.objects.registered(chain_ref)
    executor = _executor(chain, holder, executor_id)
    ids = [item["workflow_id"] for item in results]
    with transaction.atomic():
        # Locked in one order, so that two reports sharing rows cannot deadlock.
        locked = {w.pk: w for w in Workflow.objects.select_for_update()
                  .filter(pk__in=ids, chain=chain).defer(*Workflow.REQUEST_FIELDS).order_by("pk")}
        rows, named = [], set()
        for index, item in enumerate(results):
            try:
                rows.append(_checked(locked.get(item["workflow_id"]), item, executor,
                                     repeated=item["workflow_id"] in named))
            except DomainError as exc:
                if not name_items:
                    raise
                raise at_item(exc, f"results.{index}") from None
            named.add(item["workflow_id"])

        # --- The rows are locked and every item is checked; nothing is written yet. ---
        _record_merkle_batches(chain, executor, rows, results, name_items)

        at = now or timezone.now()
        sent = [(w, item["tx_hash"]) for w, item in zip(rows, results) if "tx_hash" in item]
        _submit(sent, executor, at)
        failed = {w.pk: item["error"] for w, item in zip(rows, results) if "error" in item}
        retry_or_fail([w for w in rows if w.pk in failed], errors=failed, now=at,
                      cause=f"executor {executor.address} reported an error")
    return rows


def _record_merkle_batches(chain: Chain, executor: Executor, rows: list[Workflow],
                           results: list[dict], name_items: bool) -> None:
    """Items reported with a `merkle_root`, grouped by it: each group one transaction's
    batch, whose root must be the root of its documents (bindings/merkle.py); refused
    naming the group's first item otherwise. Each workflow is linked to its batch (saved
    by _submit)."""
    groups: dict[str, list[int]] = {}
    for index, item in enumerate(results):
        if item.get("merkle_root") is not None:
            groups.setdefault(item["merkle_root"], []).append(index)
    for root, indexes in groups.items():
        try:
            tx_hashes = {results[i].get("tx_hash") for i in indexes}
            if len(tx_hashes) != 1 or None in tx_hashes:
                raise Invalid("The results of one merkleRoot share one txHash: the root's "
                              "attestation.", code="merkle_root_transactions")
            batch = record_batch(chain, attester=executor.address, root=root,
                                 tx_hash=tx_hashes.pop(), workflows=[rows[i] for i in indexes])
        except DomainError as exc:
            if not name_items:
                raise
            raise at_item(exc, f"results.{indexes[0]}") from None
        for i in indexes:  # written with the workflow's move to submitted (_submit)
            rows[i].merkle_batch = batch


def _checked(workflow: Workflow | None, item: dict, executor: Executor, *,
             repeated: bool) -> Workflow:
    """The item's workflow, when it takes this result now; else the refusal."""
    if workflow is None:
        raise NotFound("No workflow with this id on this chain.")
    if repeated:
        raise Invalid("This workflow has another result in this report.", code="duplicate")
    if workflow.executor_id != executor.pk:
        raise PermissionDenied("This job is not held by this executor.")
    takes = (S.DISPATCHED, S.SUBMITTED) if "tx_hash" in item else (S.DISPATCHED,)
    if workflow.state not in takes:
        raise Conflict(f"This workflow is {workflow.state}: it takes no result now.",
                       code="illegal_state")
    return workflow


def _submit(sent: list[tuple[Workflow, str]], executor: Executor, now) -> None:
    """Dispatched workflows become submitted with their transaction. For a submitted one,
    the same hash again is a repeat, and another one replaces the transaction (same nonce,
    more gas): every candidate is kept, the newest is tracked first. An earlier candidate
    reported again (it was mined: the replacement lost the race) becomes the newest. A
    Merkle-bound workflow's batch (_record_merkle_batches) is saved with it."""
    tx_of = {w.pk: tx_hash for w, tx_hash in sent}
    dispatched = [w for w, _ in sent if w.state == S.DISPATCHED]
    moved = {w.pk for w in dispatched}
    Workflow.objects.transition_many(
        dispatched, S.SUBMITTED, now=now, tx_missing_since=None,
        cause=lambda w: f"executor {executor.address} sent {tx_of[w.pk]}",
        each=lambda w: {"tx_hash": tx_of[w.pk], "tx_hashes": _with(w.tx_hashes, tx_of[w.pk]),
                        "merkle_batch_id": w.merkle_batch_id})
    for workflow, tx_hash in sent:
        if workflow.pk in moved or workflow.tx_hashes[-1:] == [tx_hash]:
            continue
        others = [known for known in workflow.tx_hashes if known != tx_hash]
        changes = {"tx_hash": tx_hash, "tx_hashes": [*others, tx_hash],
                   "tx_missing_since": None, "updated_at": now,
                   "merkle_batch_id": workflow.merkle_batch_id}
        Workflow.objects.filter(pk=workflow.pk).update(**changes)
        for name, value in changes.items():
            setattr(workflow, name, value)


def _with(hashes: list[str], tx_hash: str) -> list[str]:
    return hashes if tx_hash in hashes else [*hashes, tx_hash]

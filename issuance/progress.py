"""How far a run is: counts per state, the documents that need a look (with their reason),
whether anything is left to wait for. The run page renders it and polls it as JSON."""

from django.db.models import Count, Q

from bindings.models import FINAL_STATES, WorkflowState
from issuance.models import NOT_BOUND, RETRYABLE, Run

# In the order a document goes through them; not_bound: refused by the service (its reason).
STATE_NAMES = [*WorkflowState.values, NOT_BOUND]
PROBLEMS_SHOWN = 50
# Why a workflow given up without an executor's error is where it is.
STATE_REASONS = {
    WorkflowState.EXPIRED: "No executor claimed it before its deadline.",
    WorkflowState.FAILED: "Given up after the executors' errors.",
}


def label(state: str) -> str:
    return state.replace("_", " ")


def with_state(documents, state: str):
    """`documents` (of a run) in `state` ("" for all, not_bound for the refused ones)."""
    if state == NOT_BOUND:
        return documents.filter(workflow__isnull=True)
    if state in WorkflowState.values:
        return documents.filter(workflow__state=state)
    return documents


def _problems(run: Run) -> list[dict]:
    rows = (run.documents.select_related("workflow")
            .filter(Q(workflow__isnull=True) | Q(workflow__state__in=RETRYABLE))
            [:PROBLEMS_SHOWN])
    return [{"name": d.name, "document_hash": d.document_hash, "state": d.state,
             "reason": d.error or (d.workflow.last_error if d.workflow else "")
             or STATE_REASONS.get(d.state, "")} for d in rows]


def run_progress(run: Run) -> dict:
    counted = dict(run.documents.values_list("workflow__state").annotate(n=Count("id")))
    counts = [{"state": state, "label": label(state),
               "count": counted.get(None if state == NOT_BOUND else state, 0)}
              for state in STATE_NAMES]
    total = sum(c["count"] for c in counts)
    waiting = sum(c["count"] for c in counts
                  if c["state"] not in (*FINAL_STATES, NOT_BOUND))
    retryable = sum(c["count"] for c in counts if c["state"] in (*RETRYABLE, NOT_BOUND))
    return {
        "run_id": str(run.pk), "total": total, "counts": counts,
        "confirmed": counted.get(WorkflowState.CONFIRMED, 0), "waiting": waiting,
        "settled": total > 0 and waiting == 0, "retryable": retryable,
        "chain_active": run.chain.is_active,
        "already_bound": run.documents.filter(already_bound=True).count(),
        "problems": _problems(run) if retryable else [], "skipped": run.skipped,
    }

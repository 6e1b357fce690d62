"""What the issuer pages do: bind a run's documents through the workflow service that
`POST /workflows/batch` calls (bindings.workflows.workflows_create_many: the same checks,
the same idempotency), and retry what was refused or given up.

Idempotency: each document is keyed by its chain, schema and hash (document_key), under
the tenant's key prefix, so that a second drop of the same file, in any run, finds the
workflow of the first instead of binding again. A retry of a workflow given up (failed,
expired: final states) is keyed by that workflow (retry_key), and a later drop follows
those keys to the newest one.
"""

from django.db import transaction
from django.db.models import Q

from bindings.models import Workflow
from bindings.workflows import binding_target, request_fingerprint, workflows_create_many
from core.errors import Conflict, Invalid, PermissionDenied
from issuance.models import RETRYABLE, Membership, Run, RunDocument
from registry.authentication import KeyHolder
from registry.models import KeyScope

PERMISSION = "bindings.add_workflow"
# Not printable: no key a client sends to POST /workflows can be one of these, and a
# batch's item keys (`{header}\x1f{index}`) have one separator, these two or more.
SEPARATOR = "\x1f"


def tenant_holder(user) -> KeyHolder:
    """Whom `user` binds for: the KeyHolder of its membership's key (as if that key had made
    the request). PermissionDenied, saying why, when the user may not bind."""
    if user is None or not user.is_authenticated:  # DRF's anonymous user is None here
        raise PermissionDenied("Log in at /issue/login first.", code="not_authenticated")
    if not user.has_perm(PERMISSION):
        raise PermissionDenied("Your account may not bind documents (it needs the permission "
                               f"{PERMISSION}).", code="permission_denied")
    membership = Membership.objects.select_related("api_key").filter(user=user).first()
    if membership is None:
        raise PermissionDenied("Your account binds for no issuer yet: an administrator links "
                               "it to one (Issuer pages users, in the Django admin).",
                               code="no_tenant")
    key = membership.api_key
    if key.is_revoked or key.is_expired() or key.scope not in (KeyScope.API, KeyScope.ADMIN):
        raise PermissionDenied(f"The key your account binds for ({key.name}) is revoked, "
                               "expired or not of scope api: ask an administrator.",
                               code="tenant_key_unusable")
    return KeyHolder(key.scope, key.name, key.display_prefix, key.pk)


def run_create(*, holder: KeyHolder, user, chain_id: int, schema_uid: str | None) -> Run:
    """A new run on `chain_id` under `schema_uid` (None: the chain's document schema),
    checked as a binding request's chain and schema are."""
    chain, schema = binding_target(chain_id, schema_uid)
    return Run.objects.create(tenant=holder.prefix, issuer_name=holder.name, user=user,
                              chain=chain, schema_uid=schema.uid)


def document_key(run: Run, document_hash: str) -> str:
    return SEPARATOR.join(("issue", str(run.chain_id), run.schema_uid, document_hash))


def retry_key(workflow: Workflow) -> str:
    return SEPARATOR.join(("issue-retry", str(workflow.pk)))


def _item(run: Run, document_hash: str) -> dict:
    return {"chain_id": run.chain_id, "document_hash": document_hash,
            "schema_id": run.schema_uid, "data": {}}


def _bind(run: Run, holder: KeyHolder, hashes: list[str], keys: list[str]):
    """Workflows for `hashes` under `keys` (the service's idempotency), each followed to its
    newest retry; or, when the service refuses the run's chain or schema now (a conflict:
    the chain was deactivated meanwhile), None and why."""
    items = [_item(run, h) for h in hashes]
    try:
        made = workflows_create_many(holder=holder, items=items, keys=keys,
                                     fingerprint=[request_fingerprint(i) for i in items],
                                     name_items=False)
    except Conflict as exc:
        return None, f"{exc.detail} ({exc.code})"[:500]
    newest = _newest(holder, [workflow for workflow, _ in made])
    return [(newest[w.pk], created) for w, created in made], ""


def _newest(holder: KeyHolder, workflows: list[Workflow]) -> dict:
    """Each workflow's newest retry (itself when never retried), by the first's id."""
    newest = {w.pk: w for w in workflows}
    ends = {w.pk: w for w in workflows if w.state in RETRYABLE}
    while ends:
        keys = {retry_key(w): first for first, w in ends.items()}
        found = Workflow.objects.filter(created_by=holder.prefix, idempotency_key__in=keys)
        ends = {}
        for retried in found:
            first = keys[retried.idempotency_key]
            newest[first] = retried
            if retried.state in RETRYABLE:
                ends[first] = retried
    return newest


def run_add_documents(*, run: Run, holder: KeyHolder, documents: list[dict],
                      skipped: list[dict] = ()) -> list[RunDocument]:
    """Add `documents` ({name, document_hash}, in drop order) to `run` and bind them; what
    the run holds already (a batch sent again) is answered as it is. A hash twice in one
    call is refused (400 naming it); refused by the service for the run's chain (inactive),
    the documents are kept unbound with the reason, to retry. `skipped` ({name, reason}):
    files of the drop the browser could not submit, kept on the run to show."""
    first_of: dict[str, int] = {}
    for index, document in enumerate(documents):
        earlier = first_of.setdefault(document["document_hash"], index)
        if earlier != index:
            raise Invalid({f"documents.{index}.document_hash": [
                f"The same document as documents.{earlier} (the same hash)."]},
                code="duplicate_document")
    with transaction.atomic():
        run = Run.objects.select_for_update().get(pk=run.pk)  # one call of a run at a time
        held = {d.document_hash: d for d in RunDocument.objects.filter(
            run=run, document_hash__in=list(first_of)).select_related("workflow")}
        new = [d for d in documents if d["document_hash"] not in held]
        if new:
            hashes = [d["document_hash"] for d in new]
            made, error = _bind(run, holder, hashes, [document_key(run, h) for h in hashes])
            start = run.documents.count()
            rows = [RunDocument(run=run, position=start + i, name=d["name"],
                                document_hash=d["document_hash"],
                                workflow=made[i][0] if made else None,
                                already_bound=bool(made) and not made[i][1], error=error)
                    for i, d in enumerate(new)]
            RunDocument.objects.bulk_create(rows)
            held.update((row.document_hash, row) for row in rows)
        if skipped:
            run.skipped = [*run.skipped, *skipped]
            run.save(update_fields=["skipped"])
    return [held[d["document_hash"]] for d in documents]


def run_retry(*, run: Run, holder: KeyHolder) -> int:
    """Bind again the run's documents that were refused (no workflow) or given up (failed,
    expired); how many got a workflow. Idempotent: a second retry of the same workflow
    finds the first's."""
    with transaction.atomic():
        run = Run.objects.select_for_update().get(pk=run.pk)
        documents = list(run.documents.select_related("workflow").filter(
            Q(workflow__isnull=True) | Q(workflow__state__in=RETRYABLE)))
        if not documents:
            return 0
        keys = [document_key(run, d.document_hash) if d.workflow is None
                else retry_key(d.workflow) for d in documents]
        made, error = _bind(run, holder, [d.document_hash for d in documents], keys)
        for index, document in enumerate(documents):
            if made:
                document.workflow, document.error = made[index][0], ""
            else:
                document.error = error
        RunDocument.objects.bulk_update(documents, ["workflow", "error"])
    return len(documents) if made else 0

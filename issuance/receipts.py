"""A run's receipt: per document, what binds it and what checks it without the service.

Each entry carries the verification answer (`verification`: what `POST /v1/verify` answers
for the hash on the run's chain, with the evidence docs/verify-yourself.md checks on the
chain), the Merkle root and proof of a document bound in a Merkle batch, and the public
page's URL. The JSON is camelCase as the API is; the CSV has one line per document.
"""

import csv
import io

from django.urls import reverse
from djangorestframework_camel_case.util import camelize

from attestations.models import MerkleLeaf
from issuance.models import Run, RunDocument
from verification.serializers import BATCH_LIMIT, VerifyResponseSerializer
from verification.services import verify_documents

CSV_COLUMNS = ["file_name", "document_hash", "workflow_id", "state", "already_bound",
               "chain_id", "schema_id", "tx_hash", "attestation_uid", "merkle_root", "proof",
               "verified", "verify_url", "error"]


def _chunks(items: list, size: int = BATCH_LIMIT):
    return (items[start:start + size] for start in range(0, len(items), size))


def verify_url(request, document_hash: str) -> str:
    """The absolute URL of the document's public verdict (what its QR code holds)."""
    return request.build_absolute_uri(reverse("verify-verdict", args=[document_hash]))


def run_documents(run: Run):
    return run.documents.select_related("workflow", "workflow__merkle_batch",
                                        "workflow__executor")


def _proofs(documents: list[RunDocument]) -> dict[tuple[int, str], list[str]]:
    """(batch id, document hash) -> its Merkle proof, for the documents bound in a batch."""
    wanted = [(d.workflow.merkle_batch_id, d.document_hash) for d in documents
              if d.workflow_id and d.workflow.merkle_batch_id]
    proofs = {}
    for chunk in _chunks(wanted):
        leaves = MerkleLeaf.objects.filter(batch_id__in={b for b, _ in chunk},
                                           document_hash__in={h for _, h in chunk})
        proofs.update(((leaf.batch_id, leaf.document_hash), leaf.proof) for leaf in leaves)
    return proofs


def _answers(run: Run, documents: list[RunDocument]) -> dict[str, dict]:
    """Each bound document's verification answer on the run's chain (a statement per 1,000)."""
    hashes = [d.document_hash for d in documents if d.workflow_id]
    answers = {}
    for chunk in _chunks(hashes):
        results = verify_documents(chunk, chain_id=run.chain_id)
        written = camelize(VerifyResponseSerializer(results, many=True).data)  # one serializer
        answers.update((r.document_hash, answer) for r, answer in zip(results, written,
                                                                       strict=True))
    return answers


def receipt_entries(request, run: Run) -> list[dict]:
    documents = list(run_documents(run))
    proofs, answers = _proofs(documents), _answers(run, documents)
    entries = []
    for document in documents:
        workflow = document.workflow
        batch = workflow.merkle_batch if workflow else None
        entries.append({
            "fileName": document.name,
            "documentHash": document.document_hash,
            "workflowId": str(workflow.pk) if workflow else None,
            "state": document.state,
            "alreadyBound": document.already_bound,
            "chainId": run.chain_id,
            "schemaId": run.schema_uid,
            "txHash": (workflow.tx_hash or None) if workflow else None,
            "attestationUid": (workflow.attestation_uid or None) if workflow else None,
            "merkleRoot": batch.root if batch else None,
            "proof": proofs.get((batch.pk, document.document_hash)) if batch else None,
            "verifyUrl": verify_url(request, document.document_hash),
            "error": document.error or (workflow.last_error if workflow else "") or None,
            "verification": answers.get(document.document_hash),
        })
    return entries


def receipt_json(request, run: Run) -> dict:
    return {
        "run": {"runId": str(run.pk), "issuer": run.issuer_name, "chainId": run.chain_id,
                "chainName": run.chain.name, "schemaId": run.schema_uid,
                "createdAt": run.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "url": request.build_absolute_uri(reverse("issue-run", args=[run.pk]))},
        "howToCheck": "Each document's `verification` is the service's answer for it; "
                      "docs/verify-yourself.md checks it on the chain without the service.",
        "documents": receipt_entries(request, run),
    }


def receipt_csv(request, run: Run) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for entry in receipt_entries(request, run):
        answer = entry["verification"] or {}
        writer.writerow([
            entry["fileName"], entry["documentHash"], entry["workflowId"] or "", entry["state"],
            "yes" if entry["alreadyBound"] else "no", entry["chainId"], entry["schemaId"],
            entry["txHash"] or "", entry["attestationUid"] or "", entry["merkleRoot"] or "",
            " ".join(entry["proof"] or []), "yes" if answer.get("verified") else "no",
            entry["verifyUrl"], entry["error"] or ""])
    return out.getvalue()

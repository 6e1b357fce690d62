from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action

from core.errors import Invalid
from core.lean import answer, answer_many, read_request
from verification import serializers
from verification.metrics import count_verify
from verification.services import verify_document, verify_documents


class VerifyViewSet(viewsets.ViewSet):
    """Document verification."""

    @extend_schema(
        operation_id="verify", summary="Verify a document",
        request=serializers.VerifyRequestSerializer,
        responses={200: serializers.VerifyResponseSerializer},
        description="Is this document hash bound by an attestation on an active chain, not "
        "revoked, not expired, made by a trusted attester of that chain and with at least the "
        "chain's confirmations? The earliest such attestation answers, with the evidence to "
        "re-check it on the chain (`blockHash`, `logIndex`, `easAddress`, "
        "`getAttestationCall`; docs/verify-yourself.md). No match is a 200 with "
        "`verified: false`, nulls and a `reason`: why not (`not_found`, `chain_inactive`, "
        "`untrusted_attester`, `expired`, `revoked`, `not_final`; the most telling among the "
        "document's attestations, see the field). Only a miss costs a second query. "
        "`chainId` narrows the search to one chain; `live: true` re-reads the attestation "
        "from its chain first (503 when no RPC endpoint answers).",
    )
    def create(self, request):
        # The serializers' work without building them: core/lean.py (measured there).
        body = read_request(serializers.VerifyRequestSerializer, request)
        if "merkle_root" in body and "proof" not in body:
            raise Invalid({"merkle_root": ["Give the proof that leads to it too."]})
        if "proof" in body and body.get("live"):
            raise Invalid({"live": ["A proof is checked against the index, not live."]})
        result = verify_document(**body)
        count_verify("verified" if result.verified else "not_verified")
        return answer(serializers.VerifyResponseSerializer, result)

    @extend_schema(
        operation_id="verifyBatch", summary="Verify many documents",
        request=serializers.VerifyBatchRequestSerializer,
        responses={200: serializers.VerifyBatchResponseSerializer},
        description=f"Verify up to {serializers.BATCH_LIMIT} document hashes at once, in one "
        "database statement: each answer is what `POST /v1/verify` (without `live`) answers "
        "for its hash, with `documentHash`. One answer per distinct hash, in the order of "
        "first appearance. A malformed hash is a 400 naming its index "
        "(`documentHashes.3`); nothing is answered then.",
    )
    @action(detail=False, methods=["post"], url_path="batch")
    def batch(self, request):
        body = read_request(serializers.VerifyBatchRequestSerializer, request)
        results = verify_documents(**body)
        verified = sum(result.verified for result in results)
        count_verify("verified", verified)
        count_verify("not_verified", len(results) - verified)
        return answer_many(serializers.VerifyBatchResultSerializer, results, key="results")

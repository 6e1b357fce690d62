"""Verification through offchain attestations (issue 21, item 2): the EAS SDK packages
submitted to POST /attestations/offchain, on a miss of the on-chain lookup.

An offchain attestation of the document counts under the on-chain rules, in the same order:
its chain is active, its attester trusted there (the same rule: verification.services.
trusted_attester), its data laid out as its schema says, not revoked (the attester's own RevokedOffchain of its uid on its EAS
contract, as indexed), not expired now; and it is anchored: its uid timestamped on that EAS
contract (Timestamped, as indexed), final as the chain's rule says (`not_final` before),
unless the chain lets unanchored ones verify (Chain.offchain_unanchored; else
`not_timestamped`). A timestamped one's time is the chain's (`timestampProven`), an
unanchored one's the attester's claim. Among valid ones the earliest answers, by that time.
"""

from datetime import datetime

from django.db.models import Exists, OuterRef, Subquery

from attestations.models import OffchainAttestation, OffchainRevocation, Timestamp
from registry.models import Chain
from verification import reasons
from verification.reasons import RANK, VALID


def ranked_offchain(document_hashes, *, chain_id: int | None, now: datetime) -> dict:
    """document hash -> (rank, attestation) of its most telling offchain attestation (the
    earliest valid one when one is), for each of `document_hashes` that has one. The
    attestation carries `proven_at`: the time of its final timestamp, or None."""
    from verification.services import trusted_attester  # the one trust rule

    same_uid = {"chain_id": OuterRef("chain_id"), "deployment_id": OuterRef("deployment_id"),
                "data": OuterRef("uid")}
    stamps = Timestamp.objects.filter(**same_uid)
    final = stamps.with_finality().filter(final=True)  # as the chain's rule says
    found = (OffchainAttestation.objects.filter(document_hash__in=document_hashes)
             .select_related("chain", "deployment").defer("package", "data", "decoded")
             .annotate(trusted=trusted_attester(),
                       revoked=Exists(OffchainRevocation.objects.filter(
                           revoker=OuterRef("attester"), **same_uid)),
                       stamped=Exists(stamps),
                       proven_at=Subquery(final.order_by("timestamp").values("timestamp")[:1])))
    if chain_id is not None:
        found = found.filter(chain_id=chain_id)
    best = {}
    for attestation in found:
        rank = _rank(attestation, now)
        key = (rank, -_time(attestation).timestamp())
        held = best.get(attestation.document_hash)
        if held is None or key > held[0]:
            best[attestation.document_hash] = (key, attestation)
    return {document_hash: (key[0], attestation) for document_hash, (key, attestation) in best.items()}


def _time(attestation) -> datetime:
    return attestation.proven_at or attestation.time


def _rank(attestation, now: datetime) -> int:
    """Its first failing rule, as a rank of verification/reasons.py; VALID when none."""
    if attestation.chain.status != Chain.Status.ACTIVE:
        return RANK[reasons.CHAIN_INACTIVE]
    if not attestation.trusted:
        return RANK[reasons.UNTRUSTED_ATTESTER]
    if attestation.undecodable:
        return RANK[reasons.UNDECODABLE]
    if attestation.revoked:
        return RANK[reasons.REVOKED]
    if attestation.expiration_time is not None and attestation.expiration_time <= now:
        return RANK[reasons.EXPIRED]
    if attestation.proven_at is None:
        if attestation.stamped:
            return RANK[reasons.NOT_FINAL]
        if not attestation.chain.offchain_unanchored:
            return RANK[reasons.NOT_TIMESTAMPED]
    return VALID

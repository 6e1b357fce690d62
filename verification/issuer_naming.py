"""Verdicts name the issuer: the organisation behind the attester of the attestation that
verified the document (issuers/), from the memo of issuers (no statement of its own on the
hot path), or null. Never the executor's own name: that is what it calls itself.

VERIFY_REQUIRE_PROVEN_ISSUER: a verified answer whose attester has no proven issuer becomes
`verified: false`, reason `unproven_issuer`, naming the issuer (lapsed, unproven) or none.
It is applied to the answer chosen by the rules (verification/services.py), after them.
"""

import functools

from django.conf import settings

from issuers.directory import issuer_of
from issuers.models import Identity
from verification.reasons import UNPROVEN_ISSUER


def name_issuer(answer) -> None:
    """Set `answer.issuer`; under VERIFY_REQUIRE_PROVEN_ISSUER, refuse an unproven one."""
    if not answer.verified:
        return  # shared instances among them (NOT_VERIFIED): never written
    answer.issuer = issuer_of(answer.chain_id, answer.attester)
    if settings.VERIFY_REQUIRE_PROVEN_ISSUER and (
            answer.issuer is None or answer.issuer.identity != Identity.PROVEN):
        kept = {"issuer": answer.issuer, "document_hash": answer.document_hash}
        for name in answer.__dataclass_fields__:
            setattr(answer, name, None)
        answer.verified, answer.reason = False, UNPROVEN_ISSUER
        for name, value in kept.items():
            setattr(answer, name, value)


def naming_issuers(verify):
    """Decorates verify_document and verify_documents: their answers name the issuer."""
    @functools.wraps(verify)
    def named(*args, **kwargs):
        found = verify(*args, **kwargs)
        for answer in found if isinstance(found, list) else [found]:
            name_issuer(answer)
        return found
    return named

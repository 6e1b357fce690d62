"""Verdicts name the issuer: the organisation behind the attester of the attestation that
verified the document (issuers/), from the memo of issuers (no statement of its own on the
hot path), or null. Never the executor's own name: that is what it calls itself.

Whether the issuer must be proven for a document to verify is a rule like the others
(`unproven_issuer` in verification/rules.py, under VERIFY_REQUIRE_PROVEN_ISSUER); naming it
comes after the rules chose the answer.
"""

import functools

from issuers.directory import issuer_of


def naming_issuers(verify):
    """Decorates verify_document and verify_documents: their verified answers name the
    issuer of their attester (the others are shared instances among them: never written)."""
    @functools.wraps(verify)
    def named(*args, **kwargs):
        found = verify(*args, **kwargs)
        for answer in found if isinstance(found, list) else [found]:
            if answer.verified:
                answer.issuer = issuer_of(answer.chain_id, answer.attester)
        return found
    return named

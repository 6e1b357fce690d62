"""Why a document hash does not verify: the `reason` of a POST /v1/verify answer.

Each attestation of the document has one reason, its first failing rule in this order:
the chain is active, the attester is trusted, its data is laid out as its schema says, the
attestation is not revoked, not expired, and has the chain's confirmations (an untrusted attester's revocation says nothing, so the
policy's rules come first). The document's reason is the most telling of its attestations'
reasons, by RANK below (docs/decisions.md "Reasons"): the higher, the more a holder learns
from it (not yet final: wait; revoked: the attester took it back; ...). `not_found` when the
document has no attestation at all (on the asked chain).
"""

NOT_FOUND = "not_found"
CHAIN_INACTIVE = "chain_inactive"
UNTRUSTED_ATTESTER = "untrusted_attester"
EXPIRED = "expired"
REVOKED = "revoked"
NOT_FINAL = "not_final"
# An offchain attestation whose uid the chain has not timestamped, on a chain where only
# timestamped ones verify (Chain.offchain_unanchored: verification/offchain.py).
NOT_TIMESTAMPED = "not_timestamped"
# A Merkle proof given with the document does not lead from it to an attested root that the
# service knows (to `merkleRoot`, when given): a proof for another document, another batch,
# or a forgery.
INVALID_PROOF = "invalid_proof"
# An attestation names the document at its place in its data, but the data is not laid out
# as its schema says (attestations.indexer.store.decode_data): the EAS SDK could not decode
# it, so it binds nothing.
UNDECODABLE = "undecodable"

# Precedence, least telling first; the SQL (verification/sql.py) and its ORM reference
# (verification.services.reason_rank) rank each attestation with these numbers.
REASONS = (NOT_FOUND, INVALID_PROOF, CHAIN_INACTIVE, UNTRUSTED_ATTESTER, UNDECODABLE, NOT_TIMESTAMPED,
           EXPIRED, REVOKED, NOT_FINAL)
RANK = {reason: rank for rank, reason in enumerate(REASONS)}
# Not a rule of an attestation: under VERIFY_REQUIRE_PROVEN_ISSUER, the answer the rules chose
# is by an attester whose issuer has not proven its identity (verification/issuer_naming.py).
UNPROVEN_ISSUER = "unproven_issuer"
ANSWER_REASONS = (*REASONS, UNPROVEN_ISSUER)  # what an answer's `reason` may be
VALID = len(REASONS)  # the rank of an attestation that verifies

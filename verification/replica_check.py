"""A `verified: true` a replica gave is asked of the primary again when the primary could
have rolled it back since (docs/decisions.md, "Read replicas: a replica's true").

A replica shows a committed state of the primary at most DATABASE_REPLICA_MAX_LAG_SECONDS
old. The indexer rolls an attestation back only when a reorganisation reaches its block,
and it looks for one only within 2 x reorg_window(chain) blocks of the newest block it
stored: an answer with more confirmations than that (as the replica counts them, from a
head no newer than the primary's) cannot have been rolled back, and stands. Anything
younger, and every offchain answer (its timestamp is an indexed event too), is asked of the
primary: the answer is the primary's.
"""

import time
from functools import wraps

from django.utils import timezone

from attestations.indexer import reorg_window
from core.replicas import on_primary, on_replica
from registry.models import Chain

# How long a process keeps a chain's reach (its confirmations change seldom).
REACH_MEMO_SECONDS = 10
_reach: dict[int, tuple[float, int]] = {}


def rollback_reach(chain_id: int) -> int:
    """The most confirmations an attestation of this chain the indexer could still roll
    back can have."""
    memo = _reach.get(chain_id)
    if memo is None or memo[0] < time.monotonic():
        chain = Chain.objects.only("confirmations").get(pk=chain_id)
        memo = _reach[chain_id] = (time.monotonic() + REACH_MEMO_SECONDS,
                                   2 * reorg_window(chain) + 1)
    return memo[1]


def _may_be_rolled_back(answer) -> bool:
    return answer.verified and (answer.offchain or answer.confirmations is None
                                or answer.confirmations <= rollback_reach(answer.chain_id))


def checked_on_primary(verify_document):
    """verify_document(document_hash, ...), its young `true` asked again of the primary."""
    @wraps(verify_document)
    def verify(document_hash, **options):
        if options.get("live") or not on_replica():
            return verify_document(document_hash, **options)
        options["now"] = options.get("now") or timezone.now()
        answer = verify_document(document_hash, **options)
        if not _may_be_rolled_back(answer):
            return answer
        with on_primary():
            return verify_document(document_hash, **options)
    return verify


def each_checked_on_primary(verify_documents):
    """verify_documents(document_hashes, ...), its young `true`s asked again of the primary
    (those hashes only, in one more statement)."""
    @wraps(verify_documents)
    def verify(document_hashes, **options):
        if not on_replica():
            return verify_documents(document_hashes, **options)
        options["now"] = options.get("now") or timezone.now()
        answers = verify_documents(document_hashes, **options)
        young = [answer.document_hash for answer in answers if _may_be_rolled_back(answer)]
        if not young:
            return answers
        with on_primary():
            again = {answer.document_hash: answer
                     for answer in verify_documents(young, **options)}
        return [again.get(answer.document_hash, answer) for answer in answers]
    return verify

from celery import shared_task
from django.conf import settings

from attestations.indexer import index_chain, indexed_chains

# A per-chain run still queued after this long is dropped: a later head (the follower) or
# the next beat run has queued another by then, and each run reads up to the head anyway.
RUN_EXPIRES_SECONDS = 60


@shared_task(name="attestations.index_chain", soft_time_limit=settings.INDEXER_SOFT_TIME_LIMIT,
             time_limit=settings.INDEXER_TIME_LIMIT)
def index_one_chain(chain_id: int) -> dict:
    """Index one chain up to its head (queue `index`): queued by `manage.py follow_chains`
    on each new head, and by the periodic task below. A chain already being indexed is
    skipped (its lock is held) and the run in hand goes once more. A first run over a long
    chain may take long: at the soft limit it stops between two writes (each range is its
    own transaction) and the next run resumes from the cursor."""
    return index_chain(chain_id).as_dict()


@shared_task(name="attestations.index_chains")
def index_all_chains() -> list[int]:
    """Periodic (Celery beat), the safety net under the follower: one index task per active
    chain, each on the `index` queue, so that one slow chain holds up no other. Returns the
    chain ids queued (run in-process at once without a broker)."""
    chain_ids = list(indexed_chains().values_list("chain_id", flat=True))
    for chain_id in chain_ids:
        index_one_chain.apply_async((chain_id,), expires=RUN_EXPIRES_SECONDS)
    return chain_ids

from celery import shared_task
from django.conf import settings

from attestations.indexer import index_chains


@shared_task(name="attestations.index_chains", soft_time_limit=settings.INDEXER_SOFT_TIME_LIMIT,
             time_limit=settings.INDEXER_TIME_LIMIT)
def index_all_chains() -> list[dict]:
    """Periodic (Celery beat): index every active chain; a chain already being indexed is
    skipped (its lock is held), so overlapping runs are harmless. A first run over a long
    chain may take long: at the soft limit it stops between two writes (each range is its
    own transaction) and the next run resumes from the cursor."""
    return [report.as_dict() for report in index_chains()]

from celery import shared_task

from attestations.indexer import index_chains


@shared_task(name="attestations.index_chains")
def index_all_chains() -> list[dict]:
    """Periodic (Celery beat): index every active chain; a chain already being indexed is
    skipped (its lock is held), so overlapping runs are harmless."""
    return [report.as_dict() for report in index_chains()]

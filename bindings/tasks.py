from celery import shared_task

from bindings.tracking import workflows_track


@shared_task(name="bindings.track_workflows")
def track_workflows() -> dict:
    """Periodic (Celery beat): track workflows. Safe to run twice at once (rows are moved
    under their lock, and only from the state that was read)."""
    return workflows_track().as_dict()

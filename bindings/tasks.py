from celery import shared_task

from bindings.tracking import workflows_track, workflows_track_chain


@shared_task(name="bindings.track_chain")
def track_chain(chain_id: int) -> dict:
    """Read the receipts of one chain's watched workflows: queued by `manage.py
    follow_chains` right after the chain's index run on each new head, and by the periodic
    task below."""
    return workflows_track_chain(chain_id).as_dict()


@shared_task(name="bindings.track_workflows")
def track_workflows() -> dict:
    """Periodic (Celery beat): expire and requeue here, then one `bindings.track_chain` task
    per chain with watched workflows. Safe to run twice at once (rows are moved under their
    lock, and only from the state that was read)."""
    return workflows_track(
        track_chain=lambda chain: track_chain.delay(chain.chain_id)).as_dict()

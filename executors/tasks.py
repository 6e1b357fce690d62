from celery import shared_task

from executors.sweep import executor_leases_expire


@shared_task(name="executors.expire_leases")
def expire_leases() -> dict:
    """Periodic (Celery beat): expire executor leases. Safe to run twice at once."""
    return executor_leases_expire().as_dict()

from celery import shared_task

from registry.probes import probe_rpcs


@shared_task(name="registry.probe_rpcs")
def probe_rpc_endpoints() -> dict:
    """Periodic (Celery beat): probe the monitored RPC endpoints whose interval is due."""
    return probe_rpcs(due_only=True)

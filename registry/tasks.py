from celery import shared_task

from registry.models import Chain
from registry.probes import chains_due, probe_rpcs


@shared_task(name="registry.probe_chain")
def probe_chain(chain_id: int) -> dict:
    """Probe one chain's monitored RPC endpoints whose interval is due (queue `probe`)."""
    chain = Chain.objects.filter(pk=chain_id).first()
    return probe_rpcs(due_only=True, chain=chain) if chain else {"probed": 0}


@shared_task(name="registry.probe_rpcs")
def probe_rpc_endpoints() -> list[int]:
    """Periodic (Celery beat): one `registry.probe_chain` task per chain with endpoints due,
    so that one chain's slow endpoints hold up no other. Returns the chain ids queued (run
    in-process at once without a broker)."""
    chain_ids = chains_due()
    for chain_id in chain_ids:
        probe_chain.delay(chain_id)
    return chain_ids

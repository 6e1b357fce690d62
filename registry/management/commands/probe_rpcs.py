from django.core.management.base import CommandError

from core.commands import ReportCommand
from registry.models import Chain, RpcEndpoint
from registry.probes import probe_rpcs


class Command(ReportCommand):
    help = ("Probe the monitored RPC endpoints now (all of them, or those of one chain), "
            "update their health and print each one's status. Shows its progress on a "
            "terminal; --json prints the report for scripts.")

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--chain", metavar="CHAIN",
                            help="Only the endpoints of this chain (a chain id or short name).")

    def handle(self, *args, chain=None, **options):
        selected = None
        if chain is not None:
            selected = Chain.objects.registered(chain, CommandError)
        with self.progress("Probing RPC endpoints") as progress:
            summary = probe_rpcs(due_only=False, chain=selected, progress=progress)
        if "skipped" in summary:
            raise CommandError(f"Skipped: {summary['skipped']}.")
        endpoints = RpcEndpoint.objects.filter(monitoring_enabled=True).select_related("chain")
        if selected is not None:
            endpoints = endpoints.filter(chain=selected)
        endpoints = list(endpoints.order_by("chain_id", "priority", "id"))
        self.report({"summary": summary, "endpoints": [_as_dict(e) for e in endpoints]},
                    [*map(_line, endpoints), ", ".join(f"{k} {v}" for k, v in summary.items())])


def _as_dict(endpoint: RpcEndpoint) -> dict:
    # The masked URL only: a provider's key in a path or query is a secret.
    return {"id": endpoint.pk, "chainId": endpoint.chain_id, "url": endpoint.masked_url,
            "status": endpoint.status, "headBlock": endpoint.head_block,
            "lagBlocks": endpoint.lag_blocks, "latencyMs": endpoint.latency_ms,
            "lastError": endpoint.last_error or None}


def _line(endpoint: RpcEndpoint) -> str:
    latency = f"{endpoint.latency_ms:.1f} ms" if endpoint.latency_ms is not None else "-"
    line = (f"{endpoint.chain_id:>8} {endpoint.masked_url:<60} {endpoint.status:<9} "
            f"head {endpoint.head_block if endpoint.head_block is not None else '-'} "
            f"lag {endpoint.lag_blocks if endpoint.lag_blocks is not None else '-'} "
            f"latency {latency}")
    if endpoint.status != "healthy" and endpoint.last_error:
        line += f"  ({endpoint.last_error})"
    return line

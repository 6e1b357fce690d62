from django.core.management.base import BaseCommand, CommandError

from registry.models import Chain, RpcEndpoint
from registry.probes import probe_rpcs


class Command(BaseCommand):
    help = ("Probe the monitored RPC endpoints now (all of them, or those of one chain), "
            "update their health and print each one's status.")

    def add_arguments(self, parser):
        parser.add_argument("--chain", help="A chain id or short name.")

    def handle(self, *args, chain=None, **options):
        selected = None
        if chain is not None:
            try:
                selected = Chain.objects.by_ref(chain)
            except Chain.DoesNotExist:
                raise CommandError(f"No chain {chain!r} is registered.") from None
        summary = probe_rpcs(due_only=False, chain=selected)
        if "skipped" in summary:
            raise CommandError(f"Skipped: {summary['skipped']}.")
        endpoints = RpcEndpoint.objects.filter(monitoring_enabled=True).select_related("chain")
        if selected is not None:
            endpoints = endpoints.filter(chain=selected)
        for endpoint in endpoints.order_by("chain_id", "priority", "id"):
            latency = f"{endpoint.latency_ms:.1f} ms" if endpoint.latency_ms is not None else "-"
            line = (f"{endpoint.chain_id:>8} {endpoint.masked_url:<60} {endpoint.status:<9} "
                    f"head {endpoint.head_block if endpoint.head_block is not None else '-'} "
                    f"lag {endpoint.lag_blocks if endpoint.lag_blocks is not None else '-'} "
                    f"latency {latency}")
            if endpoint.status != "healthy" and endpoint.last_error:
                line += f"  ({endpoint.last_error})"
            self.stdout.write(line)
        counts = ", ".join(f"{k} {v}" for k, v in summary.items())
        self.stdout.write(counts)

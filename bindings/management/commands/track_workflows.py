from django.core.management.base import CommandError

from bindings.tracking import workflows_track, workflows_track_chain
from core.commands import ReportCommand
from registry.models import Chain


class Command(ReportCommand):
    help = ("Track workflows once now (what the Celery beat task does periodically): expire, "
            "requeue abandoned jobs, read receipts, confirm, retry reverted, requeue "
            "reorganised. --chain reads one chain's receipts only (what follow_chains queues "
            "after each index run). Shows its progress on a terminal; --json prints the "
            "report for scripts.")

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--chain", metavar="CHAIN",
                            help="A chain id or short name: its receipts only.")

    def handle(self, *args, chain=None, **options):
        if chain is not None:
            report = workflows_track_chain(Chain.objects.registered(chain, CommandError).chain_id)
        else:
            with self.progress("Tracking workflows") as progress:
                report = workflows_track(progress=progress)
        counts = report.as_dict()
        if not self.as_json:
            for chain_id, error in report.errors.items():
                self.stderr.write(f"chain {chain_id}: {error}")
        self.report(counts, [", ".join(f"{k} {v}" for k, v in counts.items() if k != "errors")])

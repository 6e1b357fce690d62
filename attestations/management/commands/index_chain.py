from django.core.management.base import CommandError

from attestations.indexer import index_chain
from core.commands import ReportCommand
from registry.models import Chain


class Command(ReportCommand):
    help = ("Index a chain's SchemaRegistry and EAS deployments now, up to its head (what the "
            "Celery beat task does every few seconds), and print what was read. Shows its "
            "progress in blocks on a terminal; --json prints the report for scripts.")

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("chain", metavar="CHAIN", help="A chain id or short name.")
        parser.add_argument("--from-block", type=int, dest="from_block",
                            help="Forget what was read from this block on and read it again "
                            "(a backfill, or a repair).")

    def handle(self, *args, chain, from_block=None, **options):
        selected = Chain.objects.registered(chain, CommandError)
        if not selected.is_active:
            raise CommandError(f"Chain {selected.chain_id} is not active.")
        if from_block is not None and from_block < 0:
            raise CommandError("--from-block must be 0 or more.")
        with self.progress(f"Indexing chain {selected.chain_id} (blocks)") as progress:
            report = index_chain(selected, from_block=from_block, progress=progress)
        if report.skipped:
            raise CommandError(f"Skipped chain {selected.chain_id}: {report.skipped}.")
        if report.error:
            raise CommandError(f"Chain {selected.chain_id}: {report.error}")
        self.report(report.as_dict(), self._lines(report))
        if not report.ok:
            raise CommandError("Some deployments stopped with an error (see above).")

    def _lines(self, report):
        if not report.deployments:
            yield (f"Chain {report.chain_id} has no EAS or schema registry deployment to "
                   "index.")
        for d in report.deployments:
            if d.next_block > d.from_block:
                read = f"blocks {d.from_block}-{d.next_block - 1} in {d.ranges} range(s)"
            else:
                read = f"no new block (next block {d.next_block})"
            line = (f"{d.deployment.kind} {d.deployment.address}: {read}, {d.logs} log(s): "
                    f"{d.schemas} new schema(s), {d.attestations} new attestation(s), "
                    f"{d.revocations} revocation(s), {d.timestamps} timestamp(s)")
            if d.rolled_back_from is not None:
                line += (f"; {'reorganisation: ' if d.reorg else ''}rolled back to block "
                         f"{d.rolled_back_from}")
            yield line
            if d.error:
                self.stderr.write(f"  error: {d.error}")
        yield f"head {report.head}"

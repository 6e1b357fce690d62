from bindings.tracking import workflows_track
from core.commands import ReportCommand


class Command(ReportCommand):
    help = ("Track workflows once now (what the Celery beat task does periodically): expire, "
            "requeue abandoned jobs, read receipts, confirm, retry reverted, requeue "
            "reorganised. Shows its progress on a terminal; --json prints the report for "
            "scripts.")

    def handle(self, *args, **options):
        with self.progress("Tracking workflows") as progress:
            report = workflows_track(progress=progress)
        counts = report.as_dict()
        if not self.as_json:
            for chain_id, error in report.errors.items():
                self.stderr.write(f"chain {chain_id}: {error}")
        self.report(counts, [", ".join(f"{k} {v}" for k, v in counts.items() if k != "errors")])

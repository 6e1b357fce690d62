from django.core.management.base import BaseCommand

from bindings.tracking import workflows_track


class Command(BaseCommand):
    help = ("Track workflows once now (what the Celery beat task does periodically): expire, "
            "requeue abandoned jobs, read receipts, confirm, retry reverted, requeue reorganised.")

    def handle(self, *args, **options):
        report = workflows_track()
        self.stdout.write(", ".join(f"{k} {v}" for k, v in report.as_dict().items() if k != "errors"))
        for chain_id, error in report.errors.items():
            self.stderr.write(f"chain {chain_id}: {error}")

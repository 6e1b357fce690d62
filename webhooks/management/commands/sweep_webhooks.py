from core.commands import ReportCommand
from webhooks.delivery import subscription_deliver
from webhooks.sweep import deliveries_sweep


class Command(ReportCommand):
    help = ("Sweep webhook deliveries once now (what the Celery beat task does periodically): "
            "deliver, in this process, every subscription whose oldest pending delivery is "
            "due and that no worker holds, then forget settled events older than "
            "WEBHOOKS_RETENTION_DAYS. --json prints the report for scripts.")

    def handle(self, *args, **options):
        delivered = []
        report = deliveries_sweep(queue=lambda pk: delivered.append(subscription_deliver(pk)))
        counts = {**report.as_dict(), "delivered": sum(delivered)}
        self.report(counts, [", ".join(f"{k} {v}" for k, v in counts.items())])

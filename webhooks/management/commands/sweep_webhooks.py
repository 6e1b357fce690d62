from core.commands import ReportCommand
from webhooks.delivery import subscription_deliver
from webhooks.outbox import fan_out
from webhooks.sweep import deliveries_sweep


class Command(ReportCommand):
    help = ("Sweep webhook deliveries once now, in this process: fan out the events waiting "
            "for it, deliver every subscription whose oldest pending delivery is due and that "
            "no worker holds, then forget settled events older than WEBHOOKS_RETENTION_DAYS. "
            "--json prints the report for scripts.")

    def handle(self, *args, **options):
        fanned, delivered = fan_out(), []
        report = deliveries_sweep(queue=lambda pk: delivered.append(subscription_deliver(pk)))
        counts = {"fannedOut": fanned.events, **report.as_dict(), "delivered": sum(delivered)}
        self.report(counts, [", ".join(f"{k} {v}" for k, v in counts.items())])

from django.core.management.base import BaseCommand

from executors.sweep import executor_leases_expire


class Command(BaseCommand):
    help = "Run one executor lease sweep now (what the Celery beat task does periodically)."

    def handle(self, *args, **options):
        report = executor_leases_expire()
        self.stdout.write(f"stale {report.stale}, offline {report.offline}")
        for chain_id, count in report.held_back.items():
            self.stdout.write(f"self-preservation: chain {chain_id} holds back {count} executor(s)")

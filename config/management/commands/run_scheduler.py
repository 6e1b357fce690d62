import json
import signal
import time
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db.models import F
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from config.celery import app


class Command(BaseCommand):
    help = (
        "Run the enabled interval tasks of django-celery-beat in this process, on their "
        "intervals: periodic work for the embedded default, where no broker and no Celery "
        "beat run. With a broker, run Celery beat and a worker instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Run what is due now, then exit.")

    def handle(self, *args, once: bool, **options):
        app.loader.import_default_modules()  # the apps' tasks modules, as a worker would
        if once:
            self.run_due(timezone.now())
            return
        # Only the loop takes over the signals: --once (also called from tests and scripts)
        # leaves the caller's handlers alone.
        self.stopping = False
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        while not self.stopping:
            self.run_due(timezone.now())
            time.sleep(1)

    def _stop(self, *_):
        self.stopping = True

    def run_due(self, now) -> None:
        due = PeriodicTask.objects.filter(enabled=True, interval__isnull=False).select_related("interval")
        for periodic in due:
            every = timedelta(seconds=periodic.interval.schedule.run_every.total_seconds())
            if periodic.last_run_at and periodic.last_run_at + every > now:
                continue
            task = app.tasks.get(periodic.task)
            if task is None:
                self.stderr.write(f"{periodic.name}: no task named {periodic.task}")
                continue
            result = task.apply(args=json.loads(periodic.args or "[]"),
                                kwargs=json.loads(periodic.kwargs or "{}"))
            # A plain UPDATE: saving the model would make a running beat reload its schedule.
            PeriodicTask.objects.filter(pk=periodic.pk).update(
                last_run_at=now, total_run_count=F("total_run_count") + 1
            )
            outcome = result.result if result.successful() else f"failed: {result.result!r}"
            self.stdout.write(f"{now:%H:%M:%S} {periodic.name}: {outcome}")

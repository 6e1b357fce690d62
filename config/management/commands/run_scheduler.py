import json
import logging
import os
import signal
import time
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import close_old_connections, connections
from django.db.models import F
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from config.celery import app

logger = logging.getLogger(__name__)

# A failed run is tried again after 2, 4, 8, ... seconds, never later than its interval.
FIRST_RETRY_SECONDS = 2


class Command(BaseCommand):
    help = (
        "Run the enabled interval tasks of django-celery-beat in this process, on their "
        "intervals: periodic work for the embedded default, where no broker and no Celery "
        "beat run. With a broker, run Celery beat and a worker instead. A run that fails "
        "(the task, or the database: a locked SQLite file) is logged and tried again; the "
        "scheduler goes on."
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # task id -> (failures in a row, not before): a failed task waits for its retry.
        self.failures: dict[int, tuple[int, object]] = {}

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
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            # Run in the background (run.sh), it ignores Ctrl-C as its shell set it to: it
            # is stopped by a TERM, not mistaken for dead when the terminal's Ctrl-C arrives.
            signal.signal(signal.SIGINT, self._stop)
        self.stdout.write(f"{timezone.now():%Y-%m-%d %H:%M:%S} scheduler started (pid {os.getpid()})")
        while not self.stopping:
            self.tick()
            time.sleep(1)

    def _stop(self, *_):
        self.stopping = True

    def tick(self) -> None:
        """One pass of the loop; whatever fails in it is logged, and the next pass tries again."""
        close_old_connections()  # as a request would: a connection past its age or broken
        try:
            self.run_due(timezone.now())
        except Exception:  # reading the schedule itself failed (a locked or lost database)
            logger.exception("Could not read the periodic tasks; trying again in 1 s")
            self._reset_connection()

    def run_due(self, now) -> None:
        due = PeriodicTask.objects.filter(enabled=True, interval__isnull=False).select_related("interval")
        for periodic in due:
            every = timedelta(seconds=periodic.interval.schedule.run_every.total_seconds())
            if periodic.last_run_at and periodic.last_run_at + every > now:
                continue
            failed, retry_at = self.failures.get(periodic.pk, (0, None))
            if retry_at is not None and retry_at > now:
                continue
            task = app.tasks.get(periodic.task)
            if task is None:
                self.stderr.write(f"{periodic.name}: no task named {periodic.task}")
                continue
            try:
                outcome = self.run_one(periodic, task, now)
            except Exception as exc:
                # Not recorded as run (its last_run_at stays): tried again soon, and /readyz
                # reports it late if it keeps failing.
                delay = min(FIRST_RETRY_SECONDS * 2 ** failed, every.total_seconds())
                self.failures[periodic.pk] = (failed + 1, now + timedelta(seconds=delay))
                logger.exception("%s failed (%d in a row: %r); trying again in %g s",
                                 periodic.name, failed + 1, exc, delay)
                self._reset_connection()
                continue
            self.failures.pop(periodic.pk, None)
            self.stdout.write(f"{now:%H:%M:%S} {periodic.name}: {outcome}")

    def run_one(self, periodic, task, now):
        result = task.apply(args=json.loads(periodic.args or "[]"),
                            kwargs=json.loads(periodic.kwargs or "{}"))
        # A plain UPDATE: saving the model would make a running beat reload its schedule.
        PeriodicTask.objects.filter(pk=periodic.pk).update(
            last_run_at=now, total_run_count=F("total_run_count") + 1
        )
        return result.result if result.successful() else f"failed: {result.result!r}"

    def _reset_connection(self) -> None:
        # A connection left inside a failed transaction, or lost, is not used again.
        for connection in connections.all(initialized_only=True):
            if connection.in_atomic_block:
                continue  # a caller's transaction (a test's): not ours to close
            connection.close()

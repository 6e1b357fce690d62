import logging
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connections
from django.utils import timezone

from webhooks.delivery import head_due, subscription_deliver
from webhooks.outbox import fan_out

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = ("The webhooks worker of the embedded default (no broker), beside the server: "
            "every second, fan out the new events and deliver what is due, a subscription "
            "per thread (--threads), each run for about one attempt's deadline at a time. A "
            "pass that fails (a locked SQLite file) is logged and tried again. With a broker, "
            "the Celery worker of queue `webhooks` does this instead.")

    def add_arguments(self, parser):
        parser.add_argument("--threads", type=int, default=4,
                            help="Subscriptions delivered at once (default 4).")
        parser.add_argument("--once", action="store_true",
                            help="One pass: fan out, deliver what is due, wait, exit.")

    def handle(self, *args, threads: int, once: bool, **options):
        self.stopping = False
        if not once:  # as run_scheduler: a TERM stops it, Ctrl-C too unless run in the background
            signal.signal(signal.SIGTERM, self._stop)
            if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                signal.signal(signal.SIGINT, self._stop)
            self.stdout.write(f"{timezone.now():%Y-%m-%d %H:%M:%S} webhooks worker started "
                              f"(pid {os.getpid()})")
        running = {}  # subscription id -> its run's future
        with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="webhooks") as pool:
            while not self.stopping:
                running = {pk: f for pk, f in running.items() if not f.done()}
                try:
                    self._pass(pool, running)
                except Exception:  # the database, most likely: the next pass tries again
                    logger.exception("Webhooks: could not fan out or read what is due; "
                                     "trying again in 1 s")
                    connections.close_all()
                if once:
                    break
                time.sleep(1)
        if once:
            self.stdout.write(f"delivered {sum(f.result() for f in running.values())}")

    def _pass(self, pool, running: dict) -> None:
        close_old_connections()
        fan_out()
        for pk in head_due(timezone.now()).values_list("pk", flat=True):
            if pk not in running:
                running[pk] = pool.submit(_run, pk)

    def _stop(self, *_):
        self.stopping = True


def _run(subscription_id) -> int:
    try:
        return subscription_deliver(subscription_id, budget=settings.WEBHOOKS_TIMEOUT_SECONDS)
    except Exception:  # the next pass tries again; the loop goes on
        logger.exception("Webhook delivery run of %s failed.", subscription_id)
        return 0
    finally:
        connections.close_all()  # this thread's connections

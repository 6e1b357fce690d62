"""Lease expiry through a real Celery worker (and its embedded beat) on the real Redis broker.

The worker is a subprocess on the pytest database (transaction=True, so it sees committed
rows), consuming a queue of its own so that nothing else on the same Redis interferes.
"""

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from urllib.parse import quote

import pytest
import redis
from celery import Celery
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from executors.models import Executor, ExecutorStatus, ExecutorStatusChange
from ops.schedules import PERIODIC_TASKS
from tests.factories import ChainFactory, ExecutorFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'",
                       reason="the worker process needs the test database on a server"),
]

LEASE, GRACE = 30, 60
DEADLINE = 25  # seconds for the worker to start and do the work


def database_url() -> str:
    """The pytest database (test_...), as a URL for the worker's DATABASE_URL."""
    db = settings.DATABASES["default"]
    credentials = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def broker_url(redis_url) -> str:
    """The test Redis: this worker's own database (the one below is the next worker's,
    whose claim refused it once; the queues' names keep the tests apart)."""
    return redis_url


@pytest.fixture
def queue(broker_url):
    name = f"test-expiry-{uuid.uuid4().hex[:12]}"
    yield name
    client = redis.Redis.from_url(broker_url)
    for key in client.scan_iter(f"*{name}*"):  # the queue and kombu's bindings of it
        client.delete(key)
    client.close()


@pytest.fixture
def forget_results(broker_url):
    """forget_results(task_ids): the results the worker stored (beat's tasks too)."""
    def forget(task_ids):
        if task_ids:
            client = redis.Redis.from_url(broker_url)
            client.delete(*(f"celery-task-meta-{task_id}" for task_id in task_ids))
            client.close()
    return forget


@pytest.fixture
def start_worker(broker_url, queue, tmp_path, forget_results):
    """start_worker(beat=False, quiet=False, include=(), env=None) runs `celery worker` on
    `queue` (`env` over its environment) and returns its process; stopped by its pid after
    the test. `start_worker.log()` reads its log (for failure messages)."""
    procs, log_path = [], tmp_path / "worker.log"

    def start(*, beat: bool = False, quiet: bool = False, include: tuple[str, ...] = (),
              env: dict | None = None):
        env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_BROKER_URL": broker_url,
               "CELERY_RESULT_BACKEND": broker_url, "EXECUTOR_LEASE_SECONDS": str(LEASE),
               "EXECUTOR_GRACE_SECONDS": str(GRACE), "DB_CONN_MAX_AGE": "0",
               "LOG_LEVEL": "INFO", "DJANGO_SETTINGS_MODULE": "config.settings", **(env or {})}
        command = [sys.executable, "-m", "celery", "-A", "config.celery:app",
                   *(["--quiet"] if quiet else []), "worker", "-Q", queue, "--pool", "solo", "--loglevel", "INFO",
                   "--without-gossip", "--without-mingle", "--without-heartbeat",
                   "--hostname", f"{queue}@%h"]
        if include:  # modules of test-only tasks
            command += ["--include", ",".join(include)]
        if beat:
            command += ["--beat", "--schedule", str(tmp_path / "beat-schedule")]
        log = open(log_path, "wb")
        # A session of its own: the embedded beat is a child process, and a kill on timeout
        # must reach it too.
        proc = subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        procs.append(proc)
        log.close()
        return proc

    def read_log() -> str:
        return log_path.read_text(errors="replace")[-4000:] if log_path.exists() else ""

    start.log = read_log
    yield start
    for proc in procs:
        proc.terminate()  # warm shutdown: finishes the task in hand, stops the beat
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    if log_path.exists():
        forget_results(re.findall(r"Task [\w.]+\[([0-9a-f-]+)\] received", log_path.read_text()))


def wait_for(condition, what: str, log):
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}; worker log:\n{log()}"
        time.sleep(0.1)
        connection.close()  # a fresh read each time, outside any long-lived transaction


def status_of(executor) -> str:
    return Executor.objects.values_list("status", flat=True).get(pk=executor.pk)


def history(executor) -> list[tuple[str, str, str]]:
    return list(ExecutorStatusChange.objects.filter(executor=executor).order_by("id")
                .values_list("from_status", "to_status", "cause"))


def lapsed_pair():
    """Two executors of one chain (too few for self-preservation): one lease ran out a
    second ago, the other's grace is over too."""
    chain, now = ChainFactory(), timezone.now()
    going_stale = ExecutorFactory(chain=chain, lease_expires_at=now - timedelta(seconds=1))
    going_offline = ExecutorFactory(chain=chain,
                                    lease_expires_at=now - timedelta(seconds=GRACE + 1))
    return going_stale, going_offline


def test_celery_beat_expires_a_lapsed_lease_through_the_worker(start_worker, queue):
    going_stale, going_offline = lapsed_pair()
    call_command("setup_periodic_tasks", stdout=open(os.devnull, "w"))
    every_second = IntervalSchedule.objects.create(every=1, period=IntervalSchedule.SECONDS)
    [name] = [n for n, spec in PERIODIC_TASKS.items() if spec["task"] == "executors.expire_leases"]
    PeriodicTask.objects.filter(name=name).update(interval=every_second, queue=queue)

    start_worker(beat=True)
    wait_for(lambda: status_of(going_offline) == ExecutorStatus.OFFLINE
             and status_of(going_stale) == ExecutorStatus.STALE, "the leases to expire",
             start_worker.log)

    assert history(going_stale) == [("healthy", "stale", "lease expired")]
    assert history(going_offline) == [("healthy", "stale", "lease expired"),
                                      ("stale", "offline", "grace expired")]
    assert "executors.expire_leases" in start_worker.log()


def test_the_task_sent_by_name_runs_on_the_worker_and_returns_its_report(
    start_worker, broker_url, queue,
):
    going_stale, going_offline = lapsed_pair()
    start_worker()
    client = Celery("test-client", broker=broker_url, backend=broker_url)
    try:
        result = client.send_task("executors.expire_leases", queue=queue, ignore_result=False)
        try:
            report = result.get(timeout=DEADLINE)
        except Exception as exc:
            pytest.fail(f"no result from the worker ({exc!r}); worker log:\n{start_worker.log()}")
    finally:
        client.close()

    assert report == {"stale": 2, "offline": 1, "heldBack": {}}
    assert (status_of(going_stale), status_of(going_offline)) == ("stale", "offline")

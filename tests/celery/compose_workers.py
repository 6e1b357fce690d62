"""docker-compose.yml's Celery worker services run as processes with their own commands, on
the test database and a test broker: `ComposeWorkers(folder, broker)`, then `.start(service,
**env)` for each, `.wait_ready()`, `.log(service)`, and `.stop()` (by pid).

`broker` (a module fixture): this test process's Redis database (tests/conftest.py's
redis_test_url: its worker's, claimed), emptied before and after, so that the queues have
their production names."""

import os
import signal
import subprocess
import time
import uuid

import pytest
import redis
import yaml
from django.conf import settings

from tests.conftest import redis_test_url
from tests.executors.test_celery_worker import database_url
from tests.stack.compose import COMPOSE, command

START_DEADLINE = 120  # seconds for a worker to start on a busy machine


@pytest.fixture(scope="module")
def broker():
    url = redis_test_url()  # this worker's database: another's would be flushed under it
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


class ComposeWorkers:
    def __init__(self, folder, broker: str):
        self.folder, self.broker = folder, broker
        self.services = yaml.safe_load(COMPOSE.read_text())["services"]
        self.processes: dict[str, subprocess.Popen] = {}

    def log(self, service: str) -> str:
        path = self.folder / f"{service}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self, service: str, *extra_args: str, **env) -> None:
        args = command(self.services[service]) + [
            "--without-gossip", "--without-mingle", "--without-heartbeat",
            "--hostname", f"{service}-{uuid.uuid4().hex[:8]}@%h", *extra_args]
        environment = {**os.environ, "DATABASE_URL": database_url(), "DB_CONN_MAX_AGE": "0",
                       "CELERY_BROKER_URL": self.broker, "CELERY_RESULT_BACKEND": self.broker,
                       "CACHE_URL": self.broker, "LOG_LEVEL": "INFO",
                       "DJANGO_SETTINGS_MODULE": "config.settings", **env}
        with open(self.folder / f"{service}.log", "wb") as out:
            self.processes[service] = subprocess.Popen(
                args, cwd=settings.BASE_DIR, env=environment, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self) -> None:
        for service in self.processes:
            deadline = time.monotonic() + START_DEADLINE
            while " ready." not in self.log(service):
                assert time.monotonic() < deadline, f"{service} did not start:\n{self.log(service)}"
                time.sleep(0.2)

    def stop(self) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

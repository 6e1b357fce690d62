"""Fault tests with real processes that the tests start, kill and restart themselves: a
PostgreSQL cluster and a Redis server of their own (the machine's shared ones are never
touched), gunicorn and a Celery worker on them.

- PostgreSQL restarts: requests get 503 problem documents while it is down, then the same
  gunicorn serves again (no restart of the service).
- Redis dies: the API keeps serving reads (keys, limits and locks do without the cache);
  readiness says the broker is down; when Redis returns, a Celery worker that lived through
  the outage runs tasks again.
"""

import http.client
import json
import os
import subprocess
import sys
import time
import uuid

import pytest
from celery import Celery

from bench.harness import ROOT, bench_env, gunicorn, manage
from tests.faults import OwnPostgres, OwnRedis

API_KEY = "fault-test-api-key-" + "k" * 32
ADMIN_KEY = "fault-test-admin-key-" + "a" * 32

pytestmark = pytest.mark.skipif(
    not (OwnPostgres.available() and OwnRedis.available()),
    reason="needs PostgreSQL's server binaries and redis-server",
)


def call(port: int, path: str, headers=None, method="GET"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        conn.close()


def wait_for(predicate, seconds: float, what: str):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if predicate():
                return
        except OSError:
            pass
        time.sleep(0.25)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


@pytest.fixture(scope="module")
def own_postgres():
    pg = OwnPostgres().init()
    pg.start()
    try:
        pg.create_database("faults")
        env = bench_env(DATABASE_URL=pg.url("faults"))
        manage("migrate", "--no-input", "-v", "0", env=env)
        yield pg
    finally:
        pg.destroy()


@pytest.fixture
def own_redis():
    server = OwnRedis().start()
    yield server
    server.stop()


def service_env(pg, **extra):
    return bench_env(DATABASE_URL=pg.url("faults"), API_KEY=API_KEY, ADMIN_API_KEY=ADMIN_KEY,
                     DB_CONN_MAX_AGE="600", LOG_LEVEL="ERROR", **extra)


def chains(port):
    return call(port, "/chains", {"X-API-Key": API_KEY})


def test_postgres_restart_gives_503_problems_then_recovers_without_restarting(own_postgres):
    with gunicorn(service_env(own_postgres), workers=1) as port:
        assert chains(port)[0] == 200  # a persistent connection is open now
        own_postgres.stop()
        try:
            status, body, headers = chains(port)
            assert status == 503, body
            assert headers["Content-Type"].startswith("application/problem+json")
            problem = json.loads(body)
            assert problem["code"] == "service_unavailable" and "database" in problem["detail"]
            assert headers["Retry-After"] == "5"
            assert call(port, "/readyz")[0] == 503
            assert call(port, "/healthz")[0] == 200  # the process itself is fine
            status, body, _ = call(port, "/v1/admin/chains", {"Authorization": f"Bearer {ADMIN_KEY}"})
            assert status == 503, body
        finally:
            own_postgres.start()
        wait_for(lambda: chains(port)[0] == 200, 30, "the API to serve again")
        assert call(port, "/readyz")[0] == 200


def test_redis_down_keeps_reads_served_and_tasks_resume_when_it_returns(own_postgres, own_redis,
                                                                        tmp_path):
    env = service_env(own_postgres, CACHE_URL=own_redis.url(1),
                      CELERY_BROKER_URL=own_redis.url(0), RATE_LIMIT_API="1000/min")
    queue = f"faults-{uuid.uuid4().hex[:8]}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config.celery:app", "worker", "-Q", queue,
         "--pool", "solo", "--loglevel", "WARNING", "--without-heartbeat", "--without-gossip",
         "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=(tmp_path / "worker.log").open("w"),
    )
    try:
        with gunicorn(env, workers=1) as port:
            assert chains(port)[0] == 200
            run_task(own_redis, queue, tmp_path)  # the worker is up

            own_redis.stop()
            for _ in range(3):  # keys, rate limits, locks: all without the cache
                status, body, _ = chains(port)
                assert status == 200, body
            status, body, _ = call(port, "/readyz")
            assert status == 503 and b"broker" in body

            own_redis.start()  # the same port, empty (nothing was saved)
            wait_for(lambda: call(port, "/readyz")[0] == 200, 30, "readiness")
            assert chains(port)[0] == 200
            run_task(own_redis, queue, tmp_path)  # the worker reconnected by itself
    finally:
        worker.terminate()
        worker.wait(timeout=30)


def run_task(redis_server, queue: str, tmp_path) -> None:
    client = Celery("faults", broker=redis_server.url(0), backend=redis_server.url(0))
    try:
        result = client.send_task("executors.expire_leases", queue=queue)
        try:
            result.get(timeout=60)
        except Exception as exc:
            raise AssertionError(f"{exc!r}; worker log:\n{(tmp_path / 'worker.log').read_text()}")
        assert result.successful()
    finally:
        client.close()

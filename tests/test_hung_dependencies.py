"""A hung PostgreSQL or Redis does not stop the web tier (issue 34, item 4).

A server that stops answering without closing its connections (SIGSTOP here; a stalled
host or a network that drops packets looks the same to its clients) once held every
gunicorn worker until gunicorn killed it: /healthz 0 of 6, verification down 99 %. Here
gunicorn runs with gunicorn.conf.py on a PostgreSQL and a Redis of the test's own (the
machine's are never touched), under a load of verifications and /healthz probes, and each
server is paused for longer than its timeouts:

- PostgreSQL: every probe answers 200 (a second after the client's deadline at most); every
  verification answers, 200 or a 503 problem, within about the statement timeout (the
  client's deadline: statement timeout + 1 s); /readyz says the database is down; a change
  committed before the pause is there after it, and a change refused during it can be sent
  again: it is then there once.
- Redis: every probe and every verification answers 200 (the cache is a helper: keys come
  from the database, rate limits are counted in the process, RateLimit headers included);
  /readyz answers in bounded time, the cache `degraded` and the broker unavailable.
"""

import http.client
import json
import os
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

from bench.harness import bench_env, children, create_api_key, gunicorn, manage
from tests.conftest import missing
from tests.faults import OwnRedis
from tests.pg_server import ServerUnavailable, postgres_bin
from tests.private_primary import PrivatePrimary

ADMIN_KEY = "hung-test-admin-key-" + "a" * 32
STATEMENT_TIMEOUT = 1  # seconds; the client's deadline is a second more
DEADLINE = STATEMENT_TIMEOUT + 1
CONNECT_TIMEOUT = 2  # libpq's least
CACHE_TIMEOUT = 1
BREAKER = 4
PAUSE = 12  # longer than the breakers' period: each process tries the server again meanwhile
# A worker is free within the deadline (2 s here; docker-compose.yml's health check of the
# web service waits 3 s), plus a second for a machine busy with other tests.
PROBE_TIMEOUT = DEADLINE + 1
WORKERS = 2
# A request may wait for a worker that is itself waiting for the server: two waits at most.
ANSWERED_WITHIN = 2 * max(DEADLINE, CONNECT_TIMEOUT, CACHE_TIMEOUT) + 1.5
HASH = "0x" + "ab" * 32


@pytest.fixture(scope="module")
def servers():
    """A private PostgreSQL (its database migrated) and Redis of this module's own."""
    try:
        postgres_bin()
    except ServerUnavailable as exc:
        missing(f"PostgreSQL's server programs are missing: {exc}", "apt-get install postgresql")
    if not OwnRedis.available():
        missing("redis-server is not installed", "apt-get install redis-server")
    primary, redis = PrivatePrimary(), OwnRedis()
    try:
        primary.start()
        url = primary.create_database("hung")
        manage("migrate", "--no-input", "-v", "0", env=bench_env(DATABASE_URL=url))
        redis.start()
        yield primary, redis, url
    finally:
        redis.stop()
        primary.stop()


@pytest.fixture(scope="module")
def service(servers):
    """gunicorn (gunicorn.conf.py, WORKERS sync workers) on them: its port and an api key."""
    primary, redis, url = servers
    env = bench_env(
        DATABASE_URL=url, CACHE_URL=redis.url(1), CELERY_BROKER_URL=redis.url(0),
        ADMIN_API_KEY=ADMIN_KEY, LOG_LEVEL="ERROR", RATE_LIMIT_API="100000/min",
        DB_STATEMENT_TIMEOUT_SECONDS=str(STATEMENT_TIMEOUT),
        DB_CONNECT_TIMEOUT_SECONDS=str(CONNECT_TIMEOUT), DB_BREAKER_SECONDS=str(BREAKER),
        CACHE_TIMEOUT_SECONDS=str(CACHE_TIMEOUT), CACHE_BREAKER_SECONDS=str(BREAKER),
        CELERY_BROKER_TIMEOUT_SECONDS="1")
    api_key = create_api_key(env, "hung", "api")
    with gunicorn(env, workers=WORKERS) as port:
        yield port, api_key


def call(port, method, path, headers=None, body=None, timeout=ANSWERED_WITHIN + 10):
    """(status, parsed body, headers, seconds)."""
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        raw = response.read()
        return (response.status, json.loads(raw) if raw else None, dict(response.getheaders()),
                time.monotonic() - started)
    finally:
        conn.close()


@dataclass
class Load:
    """Verifications from `clients` threads and /healthz probes, recorded with their times."""

    port: int
    api_key: str
    clients: int = 3
    verifications: list = field(default_factory=list)  # (started, seconds, status, headers)
    probes: list = field(default_factory=list)  # (started, seconds, status)
    stop: threading.Event = field(default_factory=threading.Event)

    def verify(self):
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                status, _, headers, seconds = call(
                    self.port, "POST", "/v1/verify", {"X-API-Key": self.api_key},
                    {"documentHash": HASH})
            except OSError as exc:
                status, headers, seconds = type(exc).__name__, {}, time.monotonic() - started
            self.verifications.append((started, seconds, status, headers))

    def probe(self):
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                status, _, _, seconds = call(self.port, "GET", "/healthz", timeout=PROBE_TIMEOUT)
            except OSError as exc:
                status, seconds = type(exc).__name__, time.monotonic() - started
            self.probes.append((started, seconds, status))
            self.stop.wait(0.25)

    @contextmanager
    def running(self):
        threads = [threading.Thread(target=self.verify) for _ in range(self.clients)]
        threads.append(threading.Thread(target=self.probe))
        for thread in threads:
            thread.start()
        try:
            yield self
        finally:
            self.stop.set()
            for thread in threads:
                thread.join(timeout=60)

    def between(self, start, end, what="verifications"):
        return [row for row in getattr(self, what) if start <= row[0] < end]


@contextmanager
def paused(pids):
    """SIGSTOP to `pids` (a server and its processes), SIGCONT when the block ends."""
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    started = time.monotonic()
    try:
        yield started
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {seconds} s")


def admin(port, method, path, body=None):
    return call(port, method, path, {"Authorization": f"Bearer {ADMIN_KEY}"}, body)


def chain(chain_id: int) -> dict:
    return {"chainId": chain_id, "name": f"Hung {chain_id}", "shortName": f"hung-{chain_id}",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18}}


def assert_probes_all_answered(load, start, end):
    probes = load.between(start, end, "probes")
    assert len(probes) >= (end - start) / (PROBE_TIMEOUT + 0.25) - 1, probes
    late = [row for row in probes if row[2] != 200]
    assert not late, f"/healthz failed {len(late)} of {len(probes)}: {late}"


def test_a_hung_postgresql_gets_503s_in_time_and_healthz_stays_up(service, servers):
    port, api_key = service
    primary = servers[0]
    assert admin(port, "POST", "/v1/admin/chains", chain(990001))[0] == 201  # before the pause
    with Load(port, api_key).running() as load:
        time.sleep(2)
        with paused([primary.pid, *children(primary.pid)]) as started:
            time.sleep(DEADLINE + 0.5)  # the workers caught in a statement have given up
            ready = call(port, "GET", "/readyz")
            write = admin(port, "POST", "/v1/admin/chains", chain(990002))
            time.sleep(max(0.0, started + PAUSE - time.monotonic()))
        ended = time.monotonic()
        wait_for(lambda: load.verifications[-1][2] == 200, BREAKER + DEADLINE + 10,
                 "verification answered after the pause")
        time.sleep(1)

    assert_probes_all_answered(load, started, ended)
    during = load.between(started, ended - ANSWERED_WITHIN)
    assert {row[2] for row in during} <= {200, 503}, during
    slow = [row for row in during if row[1] > ANSWERED_WITHIN]
    assert not slow, f"answered later than {ANSWERED_WITHIN} s: {slow}"
    refused = [row for row in during if row[2] == 503]
    assert refused and all(row[3]["Retry-After"] == "5" for row in refused)
    # Not one timeout per request: the breaker answers most at once.
    assert sum(row[1] < 0.5 for row in refused) > len(refused) / 2, refused

    status, body, _, seconds = ready
    assert status == 503 and seconds <= ANSWERED_WITHIN, (status, body, seconds)
    assert body["checks"]["database"]["status"] == "unavailable"
    assert body["checks"]["schedules"]["detail"] == "not checked: database unavailable"

    status, _, _, seconds = write
    assert status == 503 and seconds <= ANSWERED_WITHIN, write
    # Nothing lost: what was committed before is there; the refused change, sent again, is
    # there once (created now, or a conflict if its commit had gone through after all).
    assert admin(port, "GET", "/v1/admin/chains/990001")[0] == 200
    assert admin(port, "POST", "/v1/admin/chains", chain(990002))[0] in (201, 409)
    assert admin(port, "GET", "/v1/admin/chains/990002")[0] == 200
    # Back without a restart, once the breakers have let a request try again.
    back = next(row for row in load.between(ended, time.monotonic()) if row[2] == 200)
    assert back[0] + back[1] - ended <= BREAKER + DEADLINE + 2, back


def test_a_hung_redis_is_done_without_and_healthz_stays_up(service, servers):
    port, api_key = service
    redis = servers[1]
    with Load(port, api_key).running() as load:
        time.sleep(2)
        with paused([redis.process.pid]) as started:
            time.sleep(CACHE_TIMEOUT + 0.5)
            ready = call(port, "GET", "/readyz")
            write = admin(port, "POST", "/v1/admin/chains", chain(990003))
            time.sleep(max(0.0, started + PAUSE - time.monotonic()))
        ended = time.monotonic()
        time.sleep(1)

    assert_probes_all_answered(load, started, ended)
    during = load.between(started, ended)
    assert during and {row[2] for row in during} == {200}, during
    slow = [row for row in during if row[1] > ANSWERED_WITHIN]
    assert not slow, f"answered later than {ANSWERED_WITHIN} s: {slow}"
    # The rate limit still counts (in the process) and says so.
    assert all("RateLimit-Remaining" in row[3] for row in during)

    status, body, _, seconds = ready
    assert seconds <= ANSWERED_WITHIN, (status, body, seconds)
    assert status == 503 and body["checks"]["broker"]["status"] == "unavailable"
    assert body["checks"]["cache"]["status"] == "degraded"
    assert body["checks"]["database"]["status"] == "ok"
    assert write[0] == 201, write  # writes need no cache
    assert admin(port, "GET", "/v1/admin/chains/990003")[0] == 200
    wait_for(lambda: call(port, "GET", "/readyz")[1]["checks"]["cache"]["status"] == "ok",
             BREAKER + 10, "the cache back in /readyz")


# The same bounds in one process, step by step ----------------------------------------------


def own_database(url: str):
    """A connection of this process to `url`, configured as the service's (alias `hung`:
    a breaker of its own)."""
    from django.db.utils import ConnectionHandler

    from config.env import Env

    config = {**Env.db_url_config(url), "ENGINE": "core.postgresql"}
    return ConnectionHandler({"default": dict(config), "hung": config})["hung"]


@pytest.fixture
def private_database(servers, settings, django_db_blocker):
    """A connection of this process to the private server, configured as the service's."""
    settings.DB_STATEMENT_TIMEOUT_SECONDS = STATEMENT_TIMEOUT
    settings.DB_CONNECT_TIMEOUT_SECONDS = CONNECT_TIMEOUT
    settings.DB_BREAKER_SECONDS = BREAKER
    db = own_database(servers[2])
    with django_db_blocker.unblock():  # not the test database: the private server's
        try:
            yield db
        finally:
            db.close()


def test_a_statement_the_server_leaves_unanswered_gives_up_at_the_deadline(servers,
                                                                           private_database):
    from django.db import OperationalError

    from core.postgresql.base import breaker

    primary, db = servers[0], private_database
    with db.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")  # the server's own timeout, sent at connect
        assert cursor.fetchone() == (f"{STATEMENT_TIMEOUT}s",)
    with paused([primary.pid, *children(primary.pid)]):
        started = time.monotonic()
        with pytest.raises(OperationalError, match=f"did not answer within {DEADLINE} s"):
            with db.cursor() as cursor:
                cursor.execute("SELECT 1")
        assert DEADLINE <= time.monotonic() - started < DEADLINE + 1
        assert db.connection.closed and breaker("hung").current_state == "open"
        db.close()
        started = time.monotonic()
        with pytest.raises(OperationalError, match="tried again in a few seconds"):
            db.ensure_connection()  # the breaker answers: no wait
        assert time.monotonic() - started < 0.5
        time.sleep(BREAKER)
        started = time.monotonic()
        with pytest.raises(OperationalError, match="timeout"):
            db.ensure_connection()  # tried again: the connect timeout
        assert CONNECT_TIMEOUT <= time.monotonic() - started < CONNECT_TIMEOUT + 1
        assert breaker("hung").current_state == "open"
    time.sleep(BREAKER)
    with db.cursor() as cursor:  # back: the first connection after the period
        cursor.execute("SELECT 1")
    assert breaker("hung").current_state == "closed"


def test_a_hung_redis_costs_one_timeout_then_the_breaker_answers(servers, settings):
    from core import cache as cache_module
    from core.cache import FailSoftRedisCache

    redis = servers[1]
    cache_module.breaker.reset_timeout = BREAKER
    cache = FailSoftRedisCache(redis.url(2), {"OPTIONS": {
        "socket_timeout": CACHE_TIMEOUT, "socket_connect_timeout": CACHE_TIMEOUT}})
    cache.set("kept", "value", 600)
    try:
        with paused([redis.process.pid]):
            started = time.monotonic()
            assert cache.get("kept", "missed") == "missed"
            assert CACHE_TIMEOUT <= time.monotonic() - started < CACHE_TIMEOUT + 1
            started = time.monotonic()
            assert cache.get("kept") is None and cache.add("lock", 1) is False
            assert cache.get_many(["kept"]) == {} and cache.set("other", 1) is None
            with pytest.raises(cache_module.CircuitBreakerError):
                cache.incr("counter")
            with pytest.raises(cache_module.CircuitBreakerError):
                cache.ping()
            assert time.monotonic() - started < 0.5  # nothing asked of Redis
        time.sleep(BREAKER)
        assert cache.get("kept") == "value"  # nothing lost either
        assert cache_module.breaker.current_state == "closed"
    finally:
        cache_module.breaker.reset_timeout = settings.CACHE_BREAKER_SECONDS
        cache.clear()

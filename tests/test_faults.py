"""Fault tests with real processes that the tests start, kill and restart themselves: a
PostgreSQL cluster and a Redis server of their own (the machine's shared ones are never
touched), gunicorn and a Celery worker on them.

- PostgreSQL restarts: requests get 503 problem documents while it is down, then the same
  gunicorn serves again (no restart of the service).
- Redis dies: the API keeps serving reads (keys, limits and locks do without the cache);
  readiness says the broker is down; when Redis returns, a Celery worker that lived through
  the outage runs tasks again.
- The RPC node dies and returns (a real anvil with the EAS contracts, its state dumped and
  loaded back on the same port): the indexer records the error and writes nothing while it
  is down, then resumes from its cursor: every attestation exactly once.
- A Celery worker is killed (SIGKILL) mid-task: the unacknowledged message goes back to the
  queue after the broker's visibility timeout, the next worker runs it, and the work is done
  once (attestations indexed once, cursor right).
"""

import http.client
import json
import signal
import subprocess
import sys
import time
import uuid

import pytest
import requests
from celery import Celery
from django.db import connection

from bench.harness import ROOT, bench_env, gunicorn, manage
from tests.anvil import StubRpc
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
        result = client.send_task("executors.expire_leases", queue=queue, ignore_result=False)
        try:
            result.get(timeout=60)
        except Exception as exc:
            raise AssertionError(
                f"{exc!r}; worker log:\n{(tmp_path / 'worker.log').read_text()}") from exc
        assert result.successful()
    finally:
        client.close()


# --- the chain and the worker -------------------------------------------------------------

DOCUMENT_SCHEMA = "bytes32 documentHash"


def documents(start: int, count: int) -> list[bytes]:
    from attestations.schema import encode, parse

    fields = parse(DOCUMENT_SCHEMA)
    return [encode(fields, ((n).to_bytes(32, "big"),)) for n in range(start, start + count)]


def attest_many(w3, deployment, sender, schema_uid, start, count) -> list[str]:
    from attestations import eas as eas_contracts

    return eas_contracts.multi_attest(w3, deployment.eas, schema_uid=schema_uid,
                                      data=documents(start, count), sender=sender)


def register_chain(url: str, deployment):
    from tests.factories import ChainFactory, DeploymentFactory, RpcEndpointFactory

    chain = ChainFactory(chain_id=31337, name="Anvil", short_name="anvil", confirmations=2)
    RpcEndpointFactory(chain=chain, url=url)
    DeploymentFactory(chain=chain, kind="schema_registry", address=deployment.schema_registry,
                      start_block=deployment.schema_registry_block)
    eas = DeploymentFactory(chain=chain, kind="eas", address=deployment.eas,
                            start_block=deployment.eas_block)
    return chain, eas


def assert_indexed_once(uids: list[str]) -> None:
    from attestations.models import Attestation

    rows = list(Attestation.objects.values_list("uid", flat=True))
    assert len(rows) == len(set(rows)) == len(uids)
    assert set(rows) == set(uids)


@pytest.mark.chain
@pytest.mark.django_db
def test_rpc_node_dies_and_returns_the_indexer_resumes_nothing_lost_or_duplicated(anvil_factory):
    from attestations import eas as eas_contracts
    from attestations.indexer import index_chain
    from attestations.models import IndexCursor
    from tests.conftest import deploy_eas_on

    node = anvil_factory()
    eas_node = deploy_eas_on(node)
    w3, sender, deployment = eas_node.w3, eas_node.sender, eas_node.deployment
    schema_uid = eas_contracts.register_schema(w3, deployment.schema_registry, DOCUMENT_SCHEMA,
                                               sender=sender)
    chain, eas = register_chain(node.url, deployment)
    uids = attest_many(w3, deployment, sender, schema_uid, 1, 10)
    assert index_chain(chain).ok
    assert_indexed_once(uids)
    before = IndexCursor.objects.get(deployment=eas)

    state = node.rpc("anvil_dumpState")
    node.stop()
    report = index_chain(chain)  # the node is down
    assert not report.ok and report.error
    cursor = IndexCursor.objects.get(deployment=eas)
    assert cursor.last_error and cursor.next_block == before.next_block
    assert cursor.last_success_at == before.last_success_at
    assert_indexed_once(uids)  # nothing written

    node = anvil_factory(port=node.port)  # back on the same port, with the same chain
    node.rpc("anvil_loadState", [state])
    assert node.block_number() == before.head_block
    more = attest_many(w3, deployment, sender, schema_uid, 11, 10)
    assert index_chain(chain).ok
    assert_indexed_once(uids + more)
    cursor = IndexCursor.objects.get(deployment=eas)
    assert cursor.last_error == "" and cursor.next_block == node.block_number() + 1
    assert cursor.next_block > before.next_block


class SlowForwarder(StubRpc):
    """Forwards JSON-RPC to a real node, each HTTP request after `delay`: a task reading
    through it takes long enough to be killed in the middle."""

    def __init__(self, target: str, delay: float):
        super().__init__(delay=delay)
        self.target = target

    def answer_request(self, method: str, params: list) -> dict:
        body = requests.post(self.target, json={"jsonrpc": "2.0", "id": 1, "method": method,
                                                "params": params}, timeout=10).json()
        return {key: body[key] for key in ("result", "error") if key in body}


def start_worker(env, queue: str, log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config.celery:app", "worker", "-Q", queue,
         "--pool", "solo", "--loglevel", "WARNING", "--without-heartbeat", "--without-gossip",
         "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("a"),
    )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.chain
def test_a_worker_killed_mid_task_leaves_the_task_to_the_next_worker_done_once(
        eas_chain, transactional_db, own_redis, tmp_path):
    from attestations.models import Attestation, IndexCursor
    from registry.models import RpcEndpoint

    node = eas_chain.node
    schema_uid = node.register_schema(DOCUMENT_SCHEMA)
    uids = attest_many(node.w3, node.deployment, node.sender, schema_uid, 1, 20)
    head = node.anvil.block_number()
    forwarder = SlowForwarder(node.anvil.url, delay=2).start()
    RpcEndpoint.objects.filter(chain=eas_chain.chain).update(url=forwarder.url)

    # The worker works on this test's database (committed: transactional_db).
    db = connection.settings_dict
    visibility = 4
    env = service_env_for(f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
                          CELERY_BROKER_URL=own_redis.url(0),
                          CELERY_VISIBILITY_TIMEOUT=str(visibility))
    queue, log = f"faults-{uuid.uuid4().hex[:8]}", tmp_path / "worker.log"
    client = Celery("faults", broker=own_redis.url(0), backend=own_redis.url(0))
    first = start_worker(env, queue, log)
    second = None
    try:
        result = client.send_task("attestations.index_chain", args=[eas_chain.chain.chain_id],
                                  queue=queue, ignore_result=False)
        wait_for(lambda: forwarder.requests >= 1, 30, "the first worker to start the task")
        first.send_signal(signal.SIGKILL)  # in the middle: its first chain call is pending
        killed = time.time()  # after the worker took the message, whenever that was
        first.wait(timeout=10)
        assert not Attestation.objects.exists()
        forwarder.delay = 0

        # The message is back in the queue once the visibility timeout has passed since the
        # worker took it (before the kill; on a busy machine, well after sending it); a new
        # worker restores such messages when it starts.
        time.sleep(max(0.0, killed + visibility + 0.5 - time.time()))
        second = start_worker(env, queue, log)
        try:
            report = result.get(timeout=60)
        except Exception as exc:
            raise AssertionError(f"{exc!r}; worker log:\n{log.read_text()}") from exc
        assert [d["attestations"] for d in report["deployments"]] == [0, 20]
        assert_indexed_once(uids)
        cursor = IndexCursor.objects.get(deployment=eas_chain.eas)
        assert cursor.last_error == "" and cursor.next_block == head + 1
        time.sleep(1)  # nothing runs it a third time
        assert Attestation.objects.count() == 20
        pending = subprocess.run(["redis-cli", "-p", str(own_redis.port), "llen", queue],
                                 capture_output=True, text=True).stdout.strip()
        assert pending == "0"
    finally:
        client.close()
        stop(first)
        if second is not None:
            stop(second)
        forwarder.stop()


def service_env_for(database_url: str, **extra) -> dict:
    env = bench_env(DATABASE_URL=database_url, LOG_LEVEL="ERROR", **extra)
    env.pop("CACHE_URL", None)  # the lock is PostgreSQL's; no shared cache needed
    return env

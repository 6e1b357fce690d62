"""Per-chain queues through real Celery workers on the real Redis broker, started with the
commands of docker-compose.yml's `worker` (-Q default) and `indexer` (-Q index,probe): the
periodic tasks fan out one task per chain onto its queue, and a chain whose RPC endpoint
hangs does not hold up another chain's indexing.

The broker is the test Redis number (TEST_REDIS_URL), emptied before and after: the queues
have their production names here."""

import os
import re
import signal
import subprocess
import time
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
import redis
from celery import Celery
from django.conf import settings
from django.db import connection
from django.utils import timezone

from attestations import eas as eas_contracts
from attestations.models import Attestation, IndexCursor
from bindings.models import Workflow
from registry.models import RpcEndpoint
from tests.anvil import closed_url
from tests.conftest import missing
from tests.executors.test_celery_worker import database_url
from tests.factories import ChainFactory, EasDeploymentFactory, RpcEndpointFactory
from tests.hostile_rpc import HostileRpc
from tests.stack.compose import COMPOSE, command

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'",
                       reason="the worker processes need the test database on a server"),
]
START_DEADLINE = 120  # seconds for a worker to start on a busy machine
HANG = 20  # seconds the slow chain's endpoint takes to answer


@pytest.fixture(scope="module")
def broker():
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        missing("Redis is not available", "set TEST_REDIS_URL")
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


@pytest.fixture
def client(broker):
    app = Celery("test-queues", broker=broker, backend=broker)
    yield app
    app.close()


@pytest.fixture(scope="module")
def workers(broker, tmp_path_factory, django_db_setup):
    """The compose services `worker` and `indexer` (their commands) on the test database
    and broker, started once for the module (a start takes long on a busy machine);
    `workers.log(service)` reads one's log."""
    import yaml

    services = yaml.safe_load(COMPOSE.read_text())["services"]
    processes, folder = [], tmp_path_factory.mktemp("workers")

    def log(service: str) -> str:
        path = folder / f"{service}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(service: str, **env):
        args = command(services[service]) + [
            "--without-gossip", "--without-mingle", "--without-heartbeat",
            "--hostname", f"{service}-{uuid.uuid4().hex[:8]}@%h"]
        if service == "indexer":
            args += ["--concurrency", "2"]  # what prefork gives a 2-core machine
        environment = {**os.environ, "DATABASE_URL": database_url(), "DB_CONN_MAX_AGE": "0",
                       "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": broker,
                       "CACHE_URL": broker, "LOG_LEVEL": "INFO",
                       "DJANGO_SETTINGS_MODULE": "config.settings", **env}
        with open(folder / f"{service}.log", "wb") as out:
            processes.append(subprocess.Popen(args, cwd=settings.BASE_DIR, env=environment,
                                              stdout=out, stderr=subprocess.STDOUT,
                                              start_new_session=True))

    start("worker")
    start("indexer", INDEXER_RPC_TIMEOUT_SECONDS=str(HANG + 10))
    for service in ("worker", "indexer"):
        deadline = time.monotonic() + START_DEADLINE
        while " ready." not in log(service):
            assert time.monotonic() < deadline, f"{service} did not start:\n{log(service)}"
            time.sleep(0.2)
    yield SimpleNamespace(log=log)
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def wait_for(condition, what: str, log, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}; log:\n{log()[-4000:]}"
        time.sleep(0.1)
        connection.close()  # a fresh read each time


def received(log: str, task: str) -> int:
    return len(re.findall(rf"Task {re.escape(task)}\[[-0-9a-f]+\] received", log))


def test_the_periodic_tasks_fan_out_one_task_per_chain_onto_its_queue(workers, client):
    chains = [ChainFactory(), ChainFactory()]
    for chain in chains:
        EasDeploymentFactory(chain=chain)
        RpcEndpointFactory(chain=chain, url=closed_url())  # each run fails fast, and says so
    Workflow.objects.create(chain=chains[0], document_hash="0x" + "ab" * 32,
                            schema_uid="0x" + "cd" * 32, state="submitted",
                            deadline=timezone.now() + timedelta(hours=1),
                            tx_hashes=["0x" + "ef" * 32], created_by="test")
    ids = sorted(chain.chain_id for chain in chains)

    def fan_out(task):
        return sorted(client.send_task(task, queue="default", ignore_result=False).get(timeout=30))

    assert fan_out("attestations.index_chains") == ids
    wait_for(lambda: IndexCursor.objects.filter(chain__in=chains, last_run_at__isnull=False)
             .count() == 2, "both chains' index runs", lambda: workers.log("indexer"))
    assert fan_out("registry.probe_rpcs") == ids
    wait_for(lambda: not RpcEndpoint.objects.filter(chain__in=chains,
                                                    last_checked_at__isnull=True).exists(),
             "both chains' probes", lambda: workers.log("indexer"))
    assert client.send_task("bindings.track_workflows", queue="default",
                            ignore_result=False).get(timeout=30)["errors"] == {}
    # The chain's tracking ran on the default queue: its endpoint refused, it says so.
    wait_for(lambda: f"Tracking workflows of chain {chains[0].chain_id}" in workers.log(
        "worker"), "the chain's tracking", lambda: workers.log("worker"))

    indexer, worker = workers.log("indexer"), workers.log("worker")
    assert received(indexer, "attestations.index_chain") >= 2
    assert received(indexer, "registry.probe_chain") == 2
    assert received(worker, "bindings.track_chain") == 1
    assert "bindings.track_chain[" not in indexer and "index_chain[" not in worker


@pytest.mark.chain
def test_a_chain_whose_rpc_hangs_does_not_hold_up_another_chains_indexing(
        workers, client, eas_chain):
    node = eas_chain.node
    schema_uid = node.register_schema()
    eas_contracts.multi_attest(node.w3, node.deployment.eas, schema_uid=schema_uid,
                               data=[bytes([n]) * 32 for n in range(1, 4)], sender=node.sender)
    slow = ChainFactory()
    EasDeploymentFactory(chain=slow)

    with HostileRpc("hang", hang_seconds=HANG) as hanging:
        RpcEndpointFactory(chain=slow, url=hanging.url)
        stuck = client.send_task("attestations.index_chain", args=[slow.chain_id],
                                 queue="index", ignore_result=False)
        wait_for(lambda: hanging.requests >= 1, "the slow chain's run to call its endpoint",
                 lambda: workers.log("indexer"))
        started = time.monotonic()
        client.send_task("attestations.index_chain", args=[eas_chain.chain.chain_id],
                         queue="index")
        wait_for(lambda: Attestation.objects.filter(chain=eas_chain.chain).count() == 3,
                 "the other chain to be indexed", lambda: workers.log("indexer"), timeout=HANG)
        indexed_in = time.monotonic() - started

        assert not stuck.ready()  # still waiting for its endpoint
    assert indexed_in < HANG / 2, indexed_in

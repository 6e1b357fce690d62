"""Per-chain queues through real Celery workers on the real Redis broker, started with the
commands of docker-compose.yml's `worker` (-Q default) and `indexer` (-Q index,probe): the
periodic tasks fan out one task per chain onto its queue, and a chain whose RPC endpoint
hangs does not hold up another chain's indexing.

The broker is this test process's Redis database (its worker's), emptied before and after: the queues
have their production names here."""

import re
import time
from datetime import timedelta

import pytest
from celery import Celery
from django.db import connection
from django.utils import timezone

from attestations import eas as eas_contracts
from attestations.models import Attestation, IndexCursor
from bindings.models import Workflow
from registry.models import RpcEndpoint
from tests.anvil import closed_url
from tests.celery.compose_workers import ComposeWorkers
from tests.factories import ChainFactory, EasDeploymentFactory, RpcEndpointFactory
from tests.hostile_rpc import HostileRpc

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'",
                       reason="the worker processes need the test database on a server"),
]
HANG = 20  # seconds the slow chain's endpoint takes to answer


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
    workers = ComposeWorkers(tmp_path_factory.mktemp("workers"), broker)
    workers.start("worker")
    # What prefork gives a 2-core machine.
    workers.start("indexer", "--concurrency", "2", INDEXER_RPC_TIMEOUT_SECONDS=str(HANG + 10))
    try:
        workers.wait_ready()
        yield workers
    finally:
        workers.stop()


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

"""How the indexer runs: adaptive block ranges, the per-chain lock, errors on the cursor, the
old Registered event shape, the Celery task and `manage.py index_chain`."""

import json
from io import StringIO

import eth_abi
import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from attestations import eas as eas_contracts
from attestations.indexer import events, index_chain, reader, rpc, store
from attestations.indexer.lock import LOCK_CLASS
from attestations.models import Attestation, IndexCursor, Schema
from attestations.tasks import index_all_chains, index_one_chain
from registry.chain_client import NoEndpointAvailable
from registry.models import RpcEndpoint
from tests.anvil import StubRpc, closed_url, free_port
from tests.factories import ChainFactory, DeploymentFactory, RpcEndpointFactory

pytestmark = pytest.mark.django_db


def hash32(n: int) -> str:
    return "0x" + f"{n:064x}"


class CrowdedRpc(StubRpc):
    """A node of `head` empty blocks whose getLogs refuses ranges wider than `limit` blocks,
    as providers do ("query returned more than 10000 results")."""

    def __init__(self, head: int, limit: int, **kwargs):
        super().__init__(**kwargs)
        self.head, self.limit, self.ranges, self.refused = head, limit, [], 0

    def answer_request(self, method, params):
        if method == "eth_blockNumber":
            return {"result": hex(self.head)}
        if method == "eth_getBlockByNumber":
            number = self.head if params[0] == "latest" else int(params[0], 16)
            return {"result": {"number": hex(number), "hash": hash32(number)}}
        if method == "eth_getLogs":
            start, end = int(params[0]["fromBlock"], 16), int(params[0]["toBlock"], 16)
            if end - start + 1 > self.limit:
                self.refused += 1
                return {"error": {"code": -32005,
                                  "message": "query returned more than 10000 results"}}
            self.ranges.append((start, end))
            return {"result": []}
        return super().answer_request(method, params)


def test_ranges_shrink_when_the_node_refuses_them_and_cover_every_block():
    with CrowdedRpc(head=1000, limit=100, chain_id=424242) as node:
        chain = ChainFactory(chain_id=424242)
        RpcEndpointFactory(chain=chain, url=node.url)
        deployment = DeploymentFactory(chain=chain, kind="eas", start_block=0)

        report = index_chain(chain)

    assert report.ok, report.as_dict()
    cursor = IndexCursor.objects.get(deployment=deployment)
    assert cursor.next_block == 1001 and cursor.head_block == 1000
    assert cursor.range_size <= 2 * node.limit
    assert node.refused >= 4  # 2000, 1000, 500, 250, 125 were refused
    covered = sorted(node.ranges)
    assert covered[0][0] == 0 and covered[-1][1] == 1000
    assert all(a[1] + 1 == b[0] for a, b in zip(covered, covered[1:]))  # no gap, no overlap


def test_ranges_grow_again_when_quiet(settings):
    settings.INDEXER_MAX_RANGE = 800
    with CrowdedRpc(head=5000, limit=10_000, chain_id=424243) as node:
        chain = ChainFactory(chain_id=424243)
        RpcEndpointFactory(chain=chain, url=node.url)
        deployment = DeploymentFactory(chain=chain, kind="eas", start_block=0)
        IndexCursor.objects.create(deployment=deployment, chain=chain, next_block=0,
                                   range_size=50)
        index_chain(chain)

    sizes = [end - start + 1 for start, end in node.ranges]
    assert sizes[:5] == [50, 100, 200, 400, 800]
    assert IndexCursor.objects.get(deployment=deployment).range_size == 800


def test_is_range_too_large_recognises_provider_answers_and_timeouts():
    for message in ("query returned more than 10000 results", "Log response size exceeded",
                    "block range is too large", "eth_getLogs is limited to a 10,000 range"):
        assert rpc.is_range_too_large(rpc.RpcError("eth_getLogs", {"message": message})), message
    assert rpc.is_range_too_large(NoEndpointAvailable("... http://x timed out."))
    assert not rpc.is_range_too_large(rpc.RpcError("eth_getLogs", {"message": "invalid params"}))
    assert not rpc.is_range_too_large(NoEndpointAvailable("... connection failed."))


def test_an_unreachable_chain_is_recorded_on_its_cursors():
    chain = ChainFactory()
    RpcEndpointFactory(chain=chain, url=f"http://127.0.0.1:{free_port()}")
    deployment = DeploymentFactory(chain=chain, kind="eas", start_block=5)

    report = index_chain(chain)

    assert not report.ok and "NoEndpointAvailable" in report.error
    cursor = IndexCursor.objects.get(deployment=deployment)
    assert "connection failed" in cursor.last_error and cursor.last_error_at is not None
    assert cursor.next_block == 5


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the advisory lock")
def test_a_chain_locked_by_another_run_is_skipped():
    chain = ChainFactory()
    DeploymentFactory(chain=chain, kind="eas")
    params = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in params.items()
                            if k in ("dbname", "host", "port", "user", "password")}) as other:
        other.execute("SELECT pg_advisory_lock(%s, %s)", [LOCK_CLASS, chain.chain_id])
        report = index_chain(chain)
        assert report.skipped and not IndexCursor.objects.exists()
        other.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_CLASS, chain.chain_id])
    assert not index_chain(chain).skipped  # released: the next run goes ahead


def test_the_old_registered_event_shape_is_decoded():
    log = {"topics": [events.REGISTERED_OLD, hash32(0x5C)],
           "data": "0x" + "00" * 12 + "ab" * 20, "blockNumber": "0x10",
           "transactionHash": hash32(1), "blockHash": hash32(2), "logIndex": "0x3"}
    event = events.decode_log(log)
    assert (event.kind, event.uid, event.address) == ("registered", hash32(0x5C), "0x" + "ab" * 20)
    assert event.schema_record is None
    assert event.position == events.Position(hash32(1), 16, hash32(2), 3)


def test_the_new_registered_event_shape_is_decoded():
    data = eth_abi.encode(["(bytes32,address,bool,string)"],
                          [(bytes.fromhex("5c" * 32), "0x" + "00" * 20, True, "bool ok")])
    log = {"topics": [events.REGISTERED, "0x" + "5c" * 32, "0x" + "00" * 12 + "ab" * 20],
           "data": "0x" + data.hex(), "blockNumber": "0x1", "transactionHash": hash32(1),
           "blockHash": hash32(2), "logIndex": "0x0"}
    event = events.decode_log(log)
    assert event.schema_record == ("0x" + "00" * 20, True, b"bool ok")


def test_a_malformed_log_of_a_known_event_is_refused():
    log = {"topics": [events.ATTESTED, hash32(1)], "data": "0x", "blockNumber": "0x1",
           "transactionHash": hash32(1), "blockHash": hash32(2), "logIndex": "0x0"}
    with pytest.raises(events.MalformedLog):
        events.decode_log(log)


@pytest.mark.chain
def test_an_old_style_registration_is_completed_with_get_schema(eas_chain):
    node = eas_chain.node
    uid = node.register_schema("bytes32 documentHash,bool old")
    event = events.Event("registered", events.Position(hash32(1), 1, hash32(2), 0), uid=uid,
                         address=node.sender)
    read = reader.RangeRead(1, 1, hash32(2))
    reader._read_schemas(node.w3, eas_chain.registry, [event], read)
    assert read.schemas == [(event, ("0x" + "00" * 20, True, b"bytes32 documentHash,bool old"))]


@pytest.mark.chain
def test_the_command_prints_what_it_read_and_the_task_indexes_every_active_chain(eas_chain):
    node = eas_chain.node
    schema_uid = node.register_schema()
    eas_contracts.multi_attest(node.w3, node.deployment.eas, schema_uid=schema_uid,
                               data=[bytes(32), bytes([1]) * 32], sender=node.sender)
    out = StringIO()
    call_command("index_chain", "anvil", stdout=out)
    text = out.getvalue()
    assert f"schema_registry {node.deployment.schema_registry}: blocks" in text
    assert "1 new schema(s)" in text and "2 new attestation(s)" in text
    assert f"head {node.w3.eth.block_number}" in text

    out = StringIO()
    call_command("index_chain", "31337", "--from-block", "0", stdout=out)
    assert "rolled back to block 0" in out.getvalue()
    assert Attestation.objects.count() == 2 and Schema.objects.get().attestation_count == 2

    # The periodic task queues one index task per chain (run at once without a broker).
    assert index_all_chains() == [31337]
    assert index_one_chain(31337)["skipped"] == ""
    assert index_one_chain(999_999)["skipped"] == "not an active chain with deployments to index"


@pytest.mark.chain
def test_runs_share_a_chain_client_for_a_while_and_a_failed_run_drops_it(eas_chain, settings):
    settings.INDEXER_CLIENT_SECONDS = 60
    endpoints = RpcEndpoint.objects.filter(chain=eas_chain.chain)
    good_url = endpoints.get().url

    def run() -> tuple[bool, bool]:
        """(whether the run went well, whether it read the chain's endpoints)"""
        with CaptureQueriesContext(connection) as queries:
            report = index_chain(eas_chain.chain)
        return report.ok, any("registry_rpcendpoint" in q["sql"] for q in queries)

    assert run() == (True, True)  # the first run reads the endpoints
    endpoints.update(url=closed_url())
    assert run() == (True, False)  # later ones use its client: an endpoint's change waits...
    settings.INDEXER_CLIENT_SECONDS = 0  # ... this long at most
    assert run() == (False, True)
    settings.INDEXER_CLIENT_SECONDS = 60
    endpoints.update(url=good_url)
    assert run() == (True, True)  # the failed run dropped the client: read again at once


@pytest.mark.chain
@pytest.mark.django_db(transaction=True)  # transactions as in production: SET LOCAL ends
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL setting")
def test_index_writes_commit_without_waiting_for_the_disk_and_nothing_else_does(
        eas_chain, monkeypatch):
    attest_one(eas_chain)
    seen, real_write = [], store.write_range

    def write_range(*args, **kwargs):
        seen.append(setting("synchronous_commit"))
        return real_write(*args, **kwargs)

    monkeypatch.setattr(store, "write_range", write_range)
    assert index_chain(eas_chain.chain).ok

    assert seen == ["off", "off"]  # the range with the attestation, the registry's move
    assert setting("synchronous_commit") == "on"  # the session's own, after the run


def setting(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SHOW {name}")
        return cursor.fetchone()[0]


def attest_one(eas_chain) -> str:
    node = eas_chain.node
    uid, _ = eas_contracts.attest(node.w3, node.deployment.eas, schema_uid=node.register_schema(),
                                  data=bytes(32), sender=node.sender)
    return uid


def test_the_task_skips_an_inactive_chain_without_asking_its_node():
    with StubRpc(chain_id=424244) as node:
        chain = ChainFactory(chain_id=424244, status="inactive")
        RpcEndpointFactory(chain=chain, url=node.url)
        deployment = DeploymentFactory(chain=chain, kind="eas", start_block=0)

        report = index_one_chain(424244)

        assert report["skipped"] == "not an active chain with deployments to index"
        assert node.requests == 0 and not IndexCursor.objects.filter(deployment=deployment)
        chain.status = "active"
        chain.save()
        index_one_chain(424244)
        assert node.requests > 0  # the stub knows no blocks: the run fails, but it ran


def test_the_command_reports_the_blocks_it_read_from_where_it_started():
    # Issue 37 item 6: `--from-block 100` reported the old cursor as its start, and a run
    # with nothing new `blocks 1001-1000`.
    with CrowdedRpc(head=1000, limit=10_000, chain_id=424243) as node:
        chain = ChainFactory(chain_id=424243, status="active")
        RpcEndpointFactory(chain=chain, url=node.url)
        deployment = DeploymentFactory(chain=chain, kind="eas", start_block=0)

        def run(*args) -> str:
            out = StringIO()
            call_command("index_chain", "424243", *args, stdout=out)
            return out.getvalue().splitlines()[0]

        first, again, backfill = run(), run(), run("--from-block", "100")
        node.head = 1005
        json_report = StringIO()
        call_command("index_chain", "424243", "--json", stdout=json_report)

    where = f"eas {deployment.address}:"
    assert first.startswith(f"{where} blocks 0-1000 in 1 range(s),"), first
    assert again.startswith(f"{where} no new block (next block 1001),"), again
    assert backfill.startswith(f"{where} blocks 100-1000 in 1 range(s),"), backfill
    assert backfill.endswith("rolled back to block 100")
    read = json.loads(json_report.getvalue())["deployments"][0]
    assert (read["fromBlock"], read["nextBlock"]) == (1001, 1006)


def test_the_command_refuses_unknown_and_inactive_chains():
    with pytest.raises(CommandError, match="No chain"):
        call_command("index_chain", "nowhere")
    chain = ChainFactory(status="inactive")
    with pytest.raises(CommandError, match="not active"):
        call_command("index_chain", str(chain.chain_id))


@pytest.mark.skipif(connection.vendor == "postgresql", reason="the cache lock of other databases")
def test_without_postgresql_a_cache_lock_serialises_runs():
    from django.core.cache import cache

    chain = ChainFactory()
    DeploymentFactory(chain=chain, kind="eas")
    cache.add(f"indexer-lock:{chain.chain_id}", "another process", 60)
    assert index_chain(chain).skipped
    cache.delete(f"indexer-lock:{chain.chain_id}")
    assert not index_chain(chain).skipped

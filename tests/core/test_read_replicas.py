"""Read replicas (core/replicas.py) against a real streaming replica of the test PostgreSQL
(tests/replica.py): which reads it answers, the primary answering when it lags or dies, and
what a replica's `verified: true` is worth (docs/decisions.md, "Read replicas").

Each test commits (transaction=True): the replica sees only what the primary committed.
While its replay is paused (pg_wal_replay_pause) the replica keeps the state of that moment,
so a row written afterwards tells which database answered.
"""

import logging
import time

import pytest
from django.db import connections
from django.test import override_settings

from attestations.models import Attestation
from core import replicas
from tests.verification.conftest import attest_by_the_executor, indexed_chain

ALIAS = "replica1"
pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def _hash(n: int) -> str:
    return "0x" + f"{n:064x}"


@pytest.fixture(scope="module")
def replica(pg_replica):
    """The session's replica as the alias `replica1`, the reads of the listed routes going
    to it, for this module's tests."""
    default = connections["default"].settings_dict
    connections.settings[ALIAS] = {**default, "HOST": "127.0.0.1", "PORT": pg_replica.port,
                                   "OPTIONS": {**default["OPTIONS"], "connect_timeout": 2},
                                   "TEST": {**default["TEST"], "MIRROR": "default"}}
    routing = override_settings(DATABASE_REPLICAS=[ALIAS],
                                DATABASE_ROUTERS=["core.replicas.ReplicaRouter"])
    routing.enable()
    replicas.forget()
    yield pg_replica
    routing.disable()
    connections[ALIAS].close()
    del connections[ALIAS]
    del connections.settings[ALIAS]
    replicas.forget()


@pytest.fixture
def paused(replica, settings):
    """The replica, caught up and then paused: it answers with the state of that moment
    (its lag allowance raised, so that it stays usable while paused)."""
    settings.DATABASE_REPLICA_MAX_LAG_SECONDS = 3600
    replica.catch_up()
    replica.pause_replay()
    replicas.forget()
    yield replica
    replica.resume_replay()
    replica.catch_up()
    replicas.forget()


def deep_attestation(chain, n: int):
    """Final, and deeper than the indexer could roll back (block 10 under head 1000)."""
    return attest_by_the_executor(chain, document_hash=_hash(n), block_number=10)


def verify(api, document_hash: str) -> dict:
    response = api.post("/v1/verify", {"documentHash": document_hash}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def chain_ids(response) -> set[int]:
    assert response.status_code == 200, response.content
    return {chain["chainId"] for chain in response.json()["results"]}


def trpc(api, path: str, method: str = "get", **body):
    if method == "get":
        response = api.get(f"/trpc/{path}")
    else:
        response = api.post(f"/trpc/{path}", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()["result"]["data"]


def replica_status(anon) -> dict:
    body = anon.get("/readyz").json()
    (status,) = body["checks"]["replicas"]["replicas"]
    assert body["checks"]["replicas"]["status"] == "ok"  # never what makes /readyz fail
    return status


def assert_current(status: dict) -> None:
    """Usable and within a second: 0 when it has replayed all the primary had flushed, else
    the age of its newest replayed commit (the shared test server may be busy meanwhile)."""
    assert status["alias"] == ALIAS and status["usable"] is True, status
    assert 0 <= status["lagSeconds"] <= 1


def test_the_listed_reads_come_from_the_replica_and_the_rest_from_the_primary(
        paused, api, admin, anon):
    # Written before the pause (the fixture's catch-up) would be too late: write, catch up,
    # pause again.
    paused.resume_replay()
    old = indexed_chain(chain_id=7101, short_name="old", confirmations=12)
    deep_attestation(old, 1)
    paused.catch_up()
    paused.pause_replay()
    new = indexed_chain(chain_id=7102, short_name="new", confirmations=12)
    deep_attestation(new, 2)

    # The replica answers the listed reads: it has not replayed chain 7102 yet.
    assert chain_ids(api.get("/chains")) == {7101}
    assert api.get("/chains/7102").status_code == 404
    assert {a["chainId"] for a in api.get("/attestations").json()["results"]} == {7101}
    assert verify(api, _hash(1))["verified"] is True
    assert verify(api, _hash(2))["reason"] == "not_found"
    batch = api.post("/v1/verify/batch", {"documentHashes": [_hash(1), _hash(2)]}, format="json")
    assert [r["verified"] for r in batch.json()["results"]] == [True, False]
    assert anon.get(f"/verify/{_hash(2)}?format=json").json()["verified"] is False
    assert {c["chainId"] for c in trpc(api, "chains.list")["results"]} == {7101}
    assert trpc(api, "verify", "post", documentHash=_hash(2))["verified"] is False

    # The primary answers the rest: the admin API sees both chains.
    admin_chains = admin.get("/v1/admin/chains?limit=100").json()["results"]
    assert {7101, 7102} <= {chain["chainId"] for chain in admin_chains}
    assert replica_status(anon)["usable"] is True


def test_verification_on_the_replica_is_a_prepared_statement(replica, api):
    chain = indexed_chain(chain_id=7201, short_name="prepared", confirmations=12)
    deep_attestation(chain, 3)
    replica.catch_up()
    replicas.forget()
    for _ in range(2):
        assert verify(api, _hash(3))["verified"] is True
    with connections[ALIAS].cursor() as cursor:  # the connection the verification used
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cursor.fetchone()[0] >= 1


def test_a_replica_lagging_more_than_the_maximum_is_skipped_until_it_catches_up(
        replica, api, anon, settings):
    settings.DATABASE_REPLICA_MAX_LAG_SECONDS = 1
    replica.catch_up()
    replicas.forget()
    assert_current(replica_status(anon))
    replica.pause_replay()
    try:
        indexed_chain(chain_id=7301, short_name="lagging")
        time.sleep(1.2)  # the newest commit it has replayed is now older than the maximum
        replicas.forget()
        assert 7301 in chain_ids(api.get("/chains"))  # the primary answered
        status = replica_status(anon)
        assert status["usable"] is False and status["lagSeconds"] > 1
        assert "lags more than 1 s" in status["error"]
        metrics = anon.get("/metrics").content.decode()
        assert f'database_replica_usable{{replica="{ALIAS}"}} 0.0' in metrics
        assert f'database_replica_lag_seconds{{replica="{ALIAS}"}}' in metrics
    finally:
        replica.resume_replay()
    replica.catch_up()
    replicas.forget()
    assert_current(replica_status(anon))


def test_a_killed_replica_leaves_the_primary_answering_without_an_error(
        replica, api, anon, monkeypatch, caplog):
    chain = indexed_chain(chain_id=7401, short_name="killed", confirmations=12)
    deep_attestation(chain, 4)
    replica.catch_up()
    replicas.forget()
    assert verify(api, _hash(4))["verified"] is True  # on the replica: its connection is open
    assert connections[ALIAS].connection is not None
    # No check until the next read: the replica dies between two checks, mid-way.
    monkeypatch.setattr(replicas, "CHECK_INTERVAL", 3600)
    # The replica's error is reported (got_request_exception) before the primary answers:
    # the test client would raise it instead of returning the answer.
    api.raise_request_exception = False
    replica.kill()
    try:
        with caplog.at_level(logging.WARNING, logger="core.replicas"):
            assert verify(api, _hash(4))["verified"] is True
        assert f"Replica {ALIAS} failed a read" in caplog.text
        assert 7401 in chain_ids(api.get("/chains"))
        assert trpc(api, "verify", "post", documentHash=_hash(4))["verified"] is True
        monkeypatch.setattr(replicas, "CHECK_INTERVAL", 1.0)
        replicas.forget()  # a check now finds it down; the primary answers meanwhile
        status = replica_status(anon)
        assert status["usable"] is False and "unavailable" in status["error"]
        assert 7401 in chain_ids(api.get("/chains"))
        response = anon.get("/readyz")
        assert response.json()["checks"]["database"]["status"] == "ok"
    finally:
        replica.restart()
    replica.catch_up()
    replicas.forget()
    assert replica_status(anon)["usable"] is True


def test_a_young_true_from_the_replica_is_the_primarys_answer(paused, api):
    """The rollback argument of docs/decisions.md: a `true` the indexer could still roll
    back is asked of the primary; one deeper than it can reach stands."""
    paused.resume_replay()
    chain = indexed_chain(chain_id=7501, short_name="rolled", confirmations=12)
    # Head 1000, 12 confirmations: the indexer reaches 2 x 64 + 1 = 129 blocks deep.
    young = attest_by_the_executor(chain, document_hash=_hash(5), block_number=900)
    deep = deep_attestation(chain, 6)
    paused.catch_up()
    paused.pause_replay()
    # The primary forgets both, as a reorganisation's rollback would.
    Attestation.objects.filter(pk__in=[young.pk, deep.pk]).delete()

    assert verify(api, _hash(5))["reason"] == "not_found"  # the primary's answer
    assert verify(api, _hash(6))["verified"] is True  # beyond any rollback: the replica's
    batch = api.post("/v1/verify/batch", {"documentHashes": [_hash(5), _hash(6)]},
                     format="json").json()["results"]
    assert [r["verified"] for r in batch] == [False, True]

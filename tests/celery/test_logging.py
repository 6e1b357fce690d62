"""Worker and beat log as the web does, and a task's lines carry the request id of the request
that queued it: real `celery worker` and `celery beat` processes on the real Redis broker."""

import json
import os
import signal
import subprocess
import sys

import pytest
from celery import Celery
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection  # noqa: F401 - read by the skipif conditions
from django.http import HttpResponse
from django.test import RequestFactory

import config.celery  # noqa: F401 - connects the signals that put the request id in messages
from attestations import tasks as attestation_tasks
from attestations.indexer import index_chain
from attestations.indexer.rpc import Tip
from attestations.models import IndexCursor
from config.middleware import RequestIdMiddleware
from tests.executors.test_celery_worker import DEADLINE, database_url, wait_for
from tests.factories import EasDeploymentFactory, RpcEndpointFactory

pytestmark = pytest.mark.django_db(transaction=True)
needs_server = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                  reason="the worker process needs the test database on a server")

REQUEST_ID = "req-logging-4f2a"
# An Infura-style key in the path of an endpoint that does not answer: the indexer's
# warning and the task's result both hold the URL's path.
SECRET = "Zq3kL9vX2mN8pR4tW7yB1cD5"
SECRET_URL = f"http://127.0.0.1:9/v3/{SECRET}"


def json_lines(text: str) -> list[dict]:
    lines = [line for line in text.splitlines() if line.strip()]
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            pytest.fail(f"a line that is not JSON: {line!r}\nlog:\n{text[-4000:]}")
    return parsed


def queue_in_a_request(client: Celery, queue_name: str, chain_id: int) -> list:
    """Queue the index task and a task that logs a secret from inside a request, as a view
    would."""
    sent = []

    def view(request):
        options = {"queue": queue_name, "ignore_result": False}
        sent.append(client.send_task("attestations.index_chain", args=[chain_id], **options))
        sent.append(client.send_task("tests.call_rpc", args=[SECRET_URL], **options))
        return HttpResponse()

    request = RequestFactory().get("/v1/chains", HTTP_X_REQUEST_ID=REQUEST_ID)
    assert RequestIdMiddleware(view)(request)["X-Request-ID"] == REQUEST_ID
    return sent


@needs_server
def test_a_task_logs_in_json_with_the_request_id_that_queued_it_and_secrets_masked(
    start_worker, broker_url, queue, monkeypatch,
):
    deployment = EasDeploymentFactory()
    RpcEndpointFactory(chain=deployment.chain, url=SECRET_URL)
    monkeypatch.setenv("LOG_FORMAT", "json")
    start_worker(quiet=True, include=("tests.celery.tasks",))
    client = Celery("test-client", broker=broker_url, backend=broker_url)
    try:
        index, call_rpc = queue_in_a_request(client, queue, deployment.chain.chain_id)
        try:
            index.get(timeout=DEADLINE)
            assert call_rpc.get(timeout=DEADLINE) == {"url": SECRET_URL}
        except Exception as exc:
            pytest.fail(f"no result from the worker ({exc!r}); worker log:\n{start_worker.log()}")
    finally:
        client.close()
    # The result is stored before the worker logs "succeeded".
    wait_for(lambda: f"{call_rpc.id}] succeeded" in start_worker.log(), "the last line",
             start_worker.log)

    text = start_worker.log()
    assert SECRET not in text
    lines = json_lines(text)
    of_the_request = [line for line in lines if line.get("request_id") == REQUEST_ID]
    [warning] = [line for line in of_the_request if line["logger"] == "attestations.indexer"]
    assert warning["level"] == "WARNING" and "/v3/***" in warning["message"]
    [called] = [line for line in of_the_request if line["logger"] == "tests.celery.tasks"]
    assert called["message"] == "Calling http://127.0.0.1:9/v3/***"
    done = {line["data"]["id"]: line for line in of_the_request
            if line["logger"] == "celery.app.trace"}
    assert set(done) == {index.id, call_rpc.id}, text
    assert "succeeded" in done[index.id]["message"]
    assert done[call_rpc.id]["data"]["return_value"] == "{'url': 'http://127.0.0.1:9/v3/***'}"
    # The worker's own lines (startup, "received") belong to no request.
    received = [line for line in lines if line["message"].endswith(" received")]
    assert len(received) == 2 and {line["request_id"] for line in received} == {"-"}
    assert "***" in next(line for line in received if line["data"]["id"] == call_rpc.id
                         )["data"]["args"]


@needs_server
def test_beat_logs_in_json(broker_url, tmp_path):
    env = {**os.environ, "DATABASE_URL": database_url(), "LOG_FORMAT": "json",
           "CELERY_BROKER_URL": broker_url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    log = tmp_path / "beat.log"
    with log.open("wb") as out:
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config.celery:app", "--quiet", "beat",
             "--loglevel", "INFO", "--pidfile", ""], cwd=settings.BASE_DIR, env=env, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: "beat: Starting" in log.read_text(), "beat to start", log.read_text)
    finally:
        beat.terminate()
        try:
            beat.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(beat.pid, signal.SIGKILL)
            beat.wait(timeout=10)
    lines = json_lines(log.read_text())
    assert any(line["logger"] == "celery.beat" and line["message"] == "beat: Starting..."
               for line in lines), log.read_text()


def test_the_index_task_has_time_limits_of_its_own_and_others_the_defaults():
    app = config.celery.app
    index = app.tasks["attestations.index_chain"]
    assert (index.soft_time_limit, index.time_limit) == (settings.INDEXER_SOFT_TIME_LIMIT,
                                                         settings.INDEXER_TIME_LIMIT)
    assert app.conf.task_soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert app.conf.task_time_limit == settings.CELERY_TASK_TIME_LIMIT
    assert app.conf.task_ignore_result is True
    assert attestation_tasks.index_one_chain.name == "attestations.index_chain"


def test_the_soft_time_limit_stops_an_index_run_and_keeps_the_cursor(monkeypatch):
    deployment = EasDeploymentFactory(start_block=5)
    RpcEndpointFactory(chain=deployment.chain)
    monkeypatch.setattr("attestations.indexer.rpc.head_and_hashes",
                        lambda w3, numbers, tag=None: Tip(100, "0x" + "ab" * 32, {}))

    def out_of_time(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr("attestations.indexer.read_range", out_of_time)
    with pytest.raises(SoftTimeLimitExceeded):
        index_chain(deployment.chain)
    cursor = IndexCursor.objects.get(deployment=deployment)
    assert cursor.next_block == 5 and cursor.last_error == ""
    # The chain's lock was released: the next run goes ahead.
    monkeypatch.setattr("attestations.indexer.rpc.head_and_hashes",
                        lambda w3, numbers, tag=None: Tip(4, "0x" + "ab" * 32, {}))
    assert not index_chain(deployment.chain).skipped

"""Structured access logs and Prometheus metrics (issue 9, observability)."""

import json
import logging

import pytest
from django.conf import settings as django_settings
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import assert_problem
from tests.factories import ChainFactory, ExecutorFactory, IndexCursorFactory, RpcEndpointFactory
from verification.metrics import count_verify

pytestmark = pytest.mark.django_db


def samples(client, **headers) -> dict:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    found = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(found: dict, name: str, **labels) -> float | None:
    return found.get((name, tuple(sorted(labels.items()))))


# Access log.


def access_records(caplog):
    return [r for r in caplog.records if r.name == "config.access"]


def test_each_request_logs_one_access_line_with_its_fields(caplog, api, api_key):
    caplog.set_level(logging.INFO, logger="config.access")
    api.get("/chains", HTTP_X_REQUEST_ID="req-123")
    (record,) = access_records(caplog)
    assert (record.method, record.route, record.path, record.status) == (
        "GET", "/chains", "/chains", 200)
    assert record.key_prefix == api_key.split(".")[0]
    assert record.latency_ms >= 0
    assert record.request_id == "req-123"
    assert api_key.split(".")[1] not in record.getMessage()


def test_a_route_with_parameters_is_logged_as_its_template(caplog, admin):
    caplog.set_level(logging.INFO, logger="config.access")
    admin.get("/v1/admin/chains/424242")
    (record,) = access_records(caplog)
    assert record.route == "/v1/admin/chains/{chain_id}"
    assert record.status == 404


def test_unknown_paths_share_one_route_label(caplog, anon):
    caplog.set_level(logging.INFO, logger="config.access")
    anon.get("/no/such/path")
    assert access_records(caplog)[0].route == "unmatched"


def test_the_json_format_writes_one_object_a_line_with_the_fields():
    from logging.config import dictConfig

    config = {**django_settings.LOGGING}
    dictConfig({**config, "handlers": {"console": {**config["handlers"]["console"],
                                                   "formatter": "json"}}})
    try:
        handler = logging.getLogger().handlers[0]
        record = logging.LogRecord("config.access", logging.INFO, __file__, 1, "GET %s", ("/x",),
                                   None)
        record.route, record.status, record.key_prefix = "/x", 200, "crk_0123456789ab"
        for filter_ in handler.filters:
            filter_.filter(record)
        line = json.loads(handler.format(record))
    finally:
        dictConfig(config)
    assert line["message"] == "GET /x"
    assert line["level"] == "INFO" and line["logger"] == "config.access"
    assert line["route"] == "/x" and line["status"] == 200
    assert line["key_prefix"] == "crk_0123456789ab" and "request_id" in line and "time" in line


# Metrics.


def test_requests_are_counted_by_route_and_status(anon, api):
    before = samples(anon)
    api.get("/chains")
    api.get("/chains")
    anon.get("/chains")
    after = samples(anon)

    def delta(name, **labels):
        return (value(after, name, **labels) or 0) - (value(before, name, **labels) or 0)

    assert delta("http_requests_total", method="GET", route="/chains", status="200") == 2
    assert delta("http_requests_total", method="GET", route="/chains", status="401") == 1
    assert delta("http_request_duration_seconds_count", method="GET", route="/chains") == 3


def test_state_gauges_are_read_at_scrape_time(anon):
    chain = ChainFactory()
    ExecutorFactory.create_batch(2, chain=chain)
    ExecutorFactory(chain=chain, status="offline")
    ExecutorFactory(chain=chain, status="low_funds", balance_wei="1000")
    RpcEndpointFactory(chain=chain, status="healthy", lag_blocks=1, latency_ms=12.0)
    down = RpcEndpointFactory(chain=chain, status="down")
    cursor = IndexCursorFactory(chain=chain, head_block=120, next_block=101)

    found = samples(anon)
    chain_id = str(chain.chain_id)
    assert value(found, "registry_executors", chain_id=chain_id, status="healthy") == 2
    assert value(found, "registry_executors", chain_id=chain_id, status="offline") == 1
    assert value(found, "registry_executors", chain_id=chain_id, status="stale") == 0
    assert value(found, "registry_executors", chain_id=chain_id, status="low_funds") == 1
    assert value(found, "registry_executors", chain_id=chain_id, status="blocked_by_fees") == 0
    up = {labels: v for (name, labels), v in found.items() if name == "registry_rpc_endpoint_up"}
    assert sorted(up.values()) == [0, 1]
    assert value(found, "registry_rpc_endpoint_up", chain_id=chain_id, endpoint_id=str(down.pk),
                 provider=down.provider, status="down") == 0
    assert value(found, "attestations_index_lag_blocks", chain_id=chain_id,
                 deployment_id=str(cursor.deployment_id)) == 20
    assert value(found, "workflows", state="queued") == 0


def test_no_rpc_url_reaches_the_metrics(anon):
    RpcEndpointFactory(url="https://rpc.example.com/v2/AbCdEf0123456789AbCdEf0123456789")
    assert b"AbCdEf0123456789" not in anon.get("/metrics").content


def test_verify_outcomes_are_counted_through_count_verify(anon):
    before = value(samples(anon), "verify_outcomes_total", outcome="verified") or 0
    count_verify("verified")
    count_verify("verified")
    assert value(samples(anon), "verify_outcomes_total", outcome="verified") == before + 2


def test_metrics_need_the_token_when_one_is_set(anon, settings):
    settings.METRICS_TOKEN = "t" * 32
    body = assert_problem(anon.get("/metrics"), 401)
    assert "token" in body["detail"]
    assert_problem(anon.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong"), 401)
    samples(anon, HTTP_AUTHORIZATION=f"Bearer {'t' * 32}")


def test_metrics_refuse_writes(anon):
    assert_problem(anon.post("/metrics"), 405)


def test_gunicorn_workers_add_up_their_metrics_in_multiprocess_mode(db, tmp_path):
    """Two workers, PROMETHEUS_MULTIPROC_DIR set: a scrape counts the requests of both."""
    from django.db import connection

    from bench.harness import bench_env, gunicorn, request

    database = connection.settings_dict
    env = bench_env(
        DATABASE_URL=f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
                     f"{database['NAME']}",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path),
    )

    def healthz_count(port):
        found = {}
        for family in text_string_to_metric_families(request(port, "GET", "/metrics")[1].decode()):
            for sample in family.samples:
                if sample.name == "http_requests_total" and sample.labels["route"] == "/healthz":
                    found[sample.labels["status"]] = sample.value
        return found.get("200", 0)

    with gunicorn(env, workers=2) as port:
        before = healthz_count(port)
        for _ in range(20):
            assert request(port, "GET", "/healthz")[0] == 200
        assert healthz_count(port) == before + 20
    assert any(tmp_path.iterdir())  # the workers wrote their values there

"""Liveness (/healthz) and readiness (/readyz) probes, without a key (SPEC sections 1, 8)."""

import socket

import pytest

from tests.conftest import assert_problem

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_port_url() -> str:
    """A Redis URL on a local port that nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_healthz_answers_ok_without_a_key(anon):
    response = anon.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok"}


def test_healthz_answers_head_for_load_balancers(anon):
    assert anon.head("/healthz").status_code == 200


def test_healthz_ignores_a_wrong_key(anon):
    response = anon.get("/healthz", HTTP_AUTHORIZATION="Bearer wrong", HTTP_X_API_KEY="wrong")
    assert response.status_code == 200


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_probes_refuse_writes_with_a_405_problem(anon, path):
    response = anon.delete(path)
    assert_problem(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, HEAD"


def test_readyz_without_a_broker_checks_the_database(anon, settings):
    settings.CELERY_BROKER_URL = ""
    response = anon.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["broker"]["status"] == "ok"
    assert "in-process" in body["checks"]["broker"]["detail"]
    assert all(check["latencyMs"] >= 0 for check in body["checks"].values())


def test_readyz_is_200_when_the_broker_is_the_real_redis(anon, settings, redis_url):
    settings.CELERY_BROKER_URL = redis_url
    response = anon.get("/readyz")
    assert response.status_code == 200, response.content
    broker = response.json()["checks"]["broker"]
    assert broker["status"] == "ok"
    assert "detail" not in broker  # a broker was checked, not skipped as in-process


def test_readyz_is_a_503_problem_with_checks_when_the_broker_is_unreachable(
    anon, settings, closed_port_url
):
    settings.CELERY_BROKER_URL = closed_port_url
    body = assert_problem(anon.get("/readyz"), 503, "service_unavailable")
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["broker"]["status"] == "unavailable"
    assert body["checks"]["broker"]["detail"]
    assert "broker" in body["detail"]
    port = closed_port_url.rsplit(":", 1)[1].split("/")[0]
    assert f"127.0.0.1:{port}" not in str(body) and port not in body["checks"]["broker"]["detail"]


def test_readyz_follows_the_broker_setting_after_the_celery_app_has_read_it(
    anon, settings, redis_url, closed_port_url
):
    # The Celery app reads its configuration once; the check must still see a change.
    settings.CELERY_BROKER_URL = redis_url
    assert anon.get("/readyz").status_code == 200
    settings.CELERY_BROKER_URL = closed_port_url
    assert_problem(anon.get("/readyz"), 503, "service_unavailable")
    settings.CELERY_BROKER_URL = redis_url
    assert anon.get("/readyz").status_code == 200


def test_readyz_checks_the_broker_of_the_settings_not_of_the_environment(
    anon, settings, monkeypatch, redis_url, closed_port_url
):
    # Celery prefers CELERY_BROKER_URL from the process environment (which .env fills) to
    # Django's settings; the probe must check the broker the settings name.
    monkeypatch.setenv("CELERY_BROKER_URL", redis_url)
    settings.CELERY_BROKER_URL = closed_port_url
    assert_problem(anon.get("/readyz"), 503, "service_unavailable")


def test_readyz_needs_no_key_and_ignores_a_wrong_one(anon):
    response = anon.get("/readyz", HTTP_AUTHORIZATION="Bearer wrong")
    assert response.status_code == 200

"""Liveness (/healthz) and readiness (/readyz) probes, without a key (SPEC sections 1, 8)."""

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from ops import health
from ops.schedules import PERIODIC_TASKS
from tests.anvil import ROOT, free_port
from tests.conftest import assert_problem, redis_test_url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _forget_pings():
    health._ping_cache.clear()
    yield
    health._ping_cache.clear()


@pytest.fixture(scope="module")
def worker_broker():
    """A real Celery worker (solo pool, a queue of its own) on the test Redis; its URL."""
    url = redis_test_url()
    name = f"readyz-{uuid.uuid4().hex[:8]}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config.celery:app", "worker", "-Q", name,
         "-n", f"{name}@%h", "--pool", "solo", "--loglevel", "WARNING", "--without-mingle",
         "--without-gossip"],
        cwd=ROOT, env={**os.environ, "CELERY_BROKER_URL": url},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60  # a loaded machine starts a worker slowly
        while not any(w.startswith(name) for w in _pings(url)):
            assert worker.poll() is None and time.monotonic() < deadline, "no worker came up"
            health._ping_cache.clear()
        yield url
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        health._ping_cache.clear()


def _pings(url):
    try:
        return health._ping_workers(url)
    except Exception:  # the broker is not ready yet either
        time.sleep(0.5)
        return []


@pytest.fixture
def closed_port_url() -> str:
    """A Redis URL on a local port that nothing listens on."""
    return f"redis://127.0.0.1:{free_port()}/0"


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


def test_readyz_is_503_naming_the_workers_when_none_answers_a_ping(anon, settings, redis_url):
    # Before any test of this module starts its worker (module order), nobody listens here.
    settings.CELERY_BROKER_URL = redis_url
    body = assert_problem(anon.get("/readyz"), 503, "service_unavailable")
    assert body["checks"]["broker"]["status"] == "ok"
    assert body["checks"]["workers"]["status"] == "unavailable"
    assert "No Celery worker answered" in body["checks"]["workers"]["detail"]
    assert "workers unavailable (No Celery worker answered" in body["detail"]


def test_readyz_is_200_when_the_broker_is_the_real_redis(anon, settings, worker_broker):
    settings.CELERY_BROKER_URL = worker_broker
    response = anon.get("/readyz")
    assert response.status_code == 200, response.content
    checks = response.json()["checks"]
    assert checks["broker"]["status"] == "ok"
    assert "detail" not in checks["broker"]  # a broker was checked, not skipped as in-process
    assert any(name.startswith("readyz-") for name in checks["workers"]["workers"])


def test_readyz_pings_the_workers_of_its_broker_whatever_celery_app_was_made_last(
    anon, settings, worker_broker, closed_port_url
):
    # Any Celery app made in the process becomes Celery's current app (the tests make
    # some); the ping once went out through that app's connections, to its broker.
    from celery import Celery

    from config.celery import app

    Celery("another", broker=closed_port_url)
    try:
        settings.CELERY_BROKER_URL = worker_broker
        response = anon.get("/readyz")
        assert response.status_code == 200, response.content
        assert any(name.startswith("readyz-") for name in response.json()["checks"]["workers"]["workers"])
    finally:
        app.set_current()


def test_readyz_keeps_the_workers_answer_for_a_few_seconds(anon, settings, redis_url,
                                                           monkeypatch):
    settings.CELERY_BROKER_URL = redis_url
    calls = []
    monkeypatch.setattr(health._probe_app(redis_url).control, "ping",
                        lambda **kwargs: calls.append(kwargs) or [{"w1@host": {"ok": "pong"}}])
    for _ in range(3):
        assert anon.get("/readyz").json()["checks"]["workers"]["workers"] == ["w1@host"]
    assert len(calls) == 1
    health._ping_cache[redis_url] = (time.monotonic() - health.WORKER_PING_CACHE_SECONDS,
                                     ["w1@host"])
    anon.get("/readyz")
    assert len(calls) == 2


def test_readyz_without_a_broker_needs_no_worker(anon, settings):
    settings.CELERY_BROKER_URL = ""
    workers = anon.get("/readyz").json()["checks"]["workers"]
    assert workers["status"] == "ok" and "in-process" in workers["detail"]


# schedules ---------------------------------------------------------------------------------


def test_migrate_left_every_periodic_task_enabled(anon):
    # The test database was made by `migrate`: its post_migrate receiver wrote them.
    assert set(PeriodicTask.objects.filter(enabled=True).values_list("name", flat=True)) >= set(
        PERIODIC_TASKS)
    schedules = anon.get("/readyz").json()["checks"]["schedules"]
    assert schedules["status"] == "ok" and schedules["enabled"] >= len(PERIODIC_TASKS)


@pytest.mark.parametrize("how", ["deleted", "disabled"])
def test_readyz_is_503_naming_the_schedules_without_an_enabled_periodic_task(anon, how):
    tasks = PeriodicTask.objects.all()
    tasks.delete() if how == "deleted" else tasks.update(enabled=False)
    body = assert_problem(anon.get("/readyz"), 503, "service_unavailable")
    assert body["checks"]["schedules"]["status"] == "unavailable"
    assert "No enabled periodic task" in body["checks"]["schedules"]["detail"]
    assert "schedules unavailable" in body["detail"]


def test_readyz_does_not_count_celerys_own_cleanup_task_as_a_schedule(anon):
    # Beat adds celery.backend_cleanup itself, even to a database without our tasks.
    from django_celery_beat.models import CrontabSchedule

    PeriodicTask.objects.all().delete()
    PeriodicTask.objects.create(name="celery.backend_cleanup", task="celery.backend_cleanup",
                                crontab=CrontabSchedule.objects.create(minute="0", hour="4"))
    body = assert_problem(anon.get("/readyz"), 503, "service_unavailable")
    assert body["checks"]["schedules"]["missing"] == sorted(
        spec["task"] for spec in PERIODIC_TASKS.values())
    assert "executors.expire_leases" in body["checks"]["schedules"]["detail"]


def ran(name: str, intervals_ago: float) -> None:
    every = PERIODIC_TASKS[name]["every"]
    PeriodicTask.objects.filter(name=name).update(
        last_run_at=timezone.now() - timedelta(seconds=every * intervals_ago))


def test_readyz_is_503_naming_a_task_the_scheduler_left_behind(anon):
    for name in PERIODIC_TASKS:
        ran(name, 1)
    late = "Expire executor leases"
    ran(late, health.LATE_INTERVALS + 0.5)

    body = assert_problem(anon.get("/readyz"), 503, "service_unavailable")

    schedules = body["checks"]["schedules"]
    assert schedules["status"] == "unavailable"
    assert [item["name"] for item in schedules["late"]] == [late]
    assert schedules["late"][0]["every"] == PERIODIC_TASKS[late]["every"]
    assert late in schedules["detail"] and "Celery beat" in schedules["detail"]


def test_readyz_counts_a_task_run_within_three_intervals_as_on_time(anon):
    for name in PERIODIC_TASKS:
        ran(name, health.LATE_INTERVALS - 0.5)
    response = anon.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json()["checks"]["schedules"]["notRunYet"] == []


def test_readyz_does_not_count_tasks_beat_has_not_run_yet_as_late(anon):
    # A fresh deployment before beat's first tick.
    PeriodicTask.objects.update(last_run_at=None)
    response = anon.get("/readyz")
    assert response.status_code == 200, response.content
    assert set(response.json()["checks"]["schedules"]["notRunYet"]) >= set(PERIODIC_TASKS)


def test_readyz_ignores_a_late_task_that_is_disabled(anon):
    ran("Expire executor leases", 100)
    PeriodicTask.objects.filter(name="Expire executor leases").update(enabled=False)
    assert anon.get("/readyz").status_code == 200


def test_readyz_is_a_503_problem_with_checks_when_the_broker_is_unreachable(
    anon, settings, closed_port_url
):
    settings.CELERY_BROKER_URL = closed_port_url
    body = assert_problem(anon.get("/readyz"), 503, "service_unavailable")
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["broker"]["status"] == "unavailable"
    assert body["checks"]["broker"]["detail"]
    assert "broker" in body["detail"]
    assert body["checks"]["workers"]["status"] == "unavailable"
    port = closed_port_url.rsplit(":", 1)[1].split("/")[0]
    assert f"127.0.0.1:{port}" not in str(body) and port not in body["checks"]["broker"]["detail"]


def test_readyz_follows_the_broker_setting_after_the_celery_app_has_read_it(
    anon, settings, worker_broker, closed_port_url
):
    # The Celery app reads its configuration once; the check must still see a change.
    settings.CELERY_BROKER_URL = worker_broker
    assert anon.get("/readyz").status_code == 200
    settings.CELERY_BROKER_URL = closed_port_url
    assert_problem(anon.get("/readyz"), 503, "service_unavailable")
    settings.CELERY_BROKER_URL = worker_broker
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


# the cache ----------------------------------------------------------------------------------


def redis_cache(url: str) -> dict:
    return {"default": {"BACKEND": "core.cache.FailSoftRedisCache", "LOCATION": url,
                        "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1}}}


def test_readyz_says_the_cache_answers(anon, settings, redis_url):
    settings.CELERY_BROKER_URL = ""
    settings.CACHES = redis_cache(redis_url)
    response = anon.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json()["checks"]["cache"]["status"] == "ok"


def test_a_cache_that_does_not_answer_is_degraded_not_unready(anon, settings, closed_port_url):
    # The service serves on without it (core/cache.py): a shared cache's outage must not take
    # every instance out of the load balancer at once.
    settings.CELERY_BROKER_URL = ""
    settings.CACHES = redis_cache(closed_port_url)
    response = anon.get("/readyz")
    assert response.status_code == 200, response.content
    cache = response.json()["checks"]["cache"]
    assert cache["status"] == "degraded" and "served without it" in cache["detail"]
    assert closed_port_url.rsplit(":", 1)[1].split("/")[0] not in cache["detail"]


def test_healthz_asks_neither_the_database_nor_the_cache(anon, settings, closed_port_url,
                                                        django_assert_num_queries):
    settings.CACHES = redis_cache(closed_port_url)
    with django_assert_num_queries(0):
        assert anon.get("/healthz").status_code == 200
    from core import cache

    assert cache.breaker.current_state == "closed"  # no cache operation was tried either

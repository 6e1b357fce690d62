"""Liveness and readiness probes for load balancers and orchestrators (no key needed)."""

import logging
import threading
import time
from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_safe

from core.problems import problem_response

logger = logging.getLogger(__name__)


@require_safe  # HEAD too: some load balancers probe with it
def healthz(request):
    """The process is up and serving. It asks no dependency (the database, the cache and
    the broker are /readyz's): a hung one must not make the orchestrator restart a process
    that is fine."""
    return JsonResponse({"status": "ok"})


def _check_database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"status": "ok"}


def _check_cache() -> dict:
    """Informational: without the cache the service serves on (core/cache.py), so a shared
    cache that does not answer makes no instance unready (all of them would leave the load
    balancer at once)."""
    from django.core.cache import cache

    try:
        cache.ping()
    except Exception as exc:
        logger.warning("readyz: the cache does not answer: %s: %s", type(exc).__name__, exc)
        return {"status": "degraded", "detail": "The cache does not answer: served without "
                "it (API keys read from the database, rate limits counted per process)."}
    return {"status": "ok"}


def _check_broker() -> dict:
    if not settings.CELERY_BROKER_URL:
        return {"status": "ok", "detail": "no broker: tasks run in-process"}
    with _probe_app(settings.CELERY_BROKER_URL).connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0.2, timeout=2)
    return {"status": "ok"}


@lru_cache(maxsize=4)
def _probe_app(broker_url: str):
    """A Celery client of the broker the settings name, with the project's configuration:
    not the project's app, which reads its broker once, nor Celery's current app, which any
    other app made in the process replaces. Its control commands (the workers' ping) are
    published through its pool of connections for writing, so to `broker_url`: set as the
    write URL, which Celery reads from its configuration before its broker_url, which it
    would read from a CELERY_BROKER_URL in the process environment (.env feeds it) first."""
    from celery import Celery

    probe = Celery("readyz", set_as_current=False)
    probe.config_from_object("django.conf:settings", namespace="CELERY")
    probe.conf.broker_write_url = broker_url
    return probe


def _check_executors() -> dict:
    """Informational: chains whose lease sweep holds back (self-preservation)."""
    from executors.models import SelfPreservation

    holds = [
        {"chainId": hold.chain_id, "since": hold.since.isoformat().replace("+00:00", "Z"),
         "wouldGoOffline": hold.would_go_offline, "executors": hold.executors}
        for hold in SelfPreservation.objects.all()
    ]
    return {"status": "ok", "selfPreservation": holds}


def _check_chains() -> dict:
    """Informational: the stalled chains (attestations/finality.py). A stalled chain is the
    chain's fault or its nodes', not this service's: verdicts still answer, saying so
    (`chainStalled`)."""
    from attestations.models import ChainHead

    stalled = [
        {"chainId": head.chain_id, "since": head.stalled_since.isoformat().replace("+00:00", "Z"),
         "reason": head.stall_reason, "headBlock": head.head_block,
         "headAt": head.head_at.isoformat().replace("+00:00", "Z")}
        for head in ChainHead.objects.filter(stalled_since__isnull=False,
                                             chain__status="active").order_by("chain_id")
    ]
    return {"status": "ok", "stalled": stalled}


def _check_replicas() -> dict:
    """Informational: each read replica's lag and whether it answers reads now. Never
    unavailable: without a usable replica the primary answers (core/replicas.py)."""
    from core.replicas import replica_aliases, statuses

    if not replica_aliases():
        return {"status": "ok", "detail": "no replicas: the primary answers every read",
                "replicas": []}
    found = statuses()
    result = {"status": "ok", "usable": sum(status.usable for status in found),
              "replicas": [status.as_dict() for status in found]}
    if not result["usable"]:
        result["detail"] = "no usable replica: the primary answers every read"
    return result


# How late an enabled periodic task may be, in intervals, before the scheduler (Celery beat,
# or `manage.py run_scheduler` on the embedded default) counts as stopped.
LATE_INTERVALS = 3
# The workers' ping answer is kept this long: /readyz stays cheap under frequent probes.
WORKER_PING_CACHE_SECONDS = 5
WORKER_PING_TIMEOUT_SECONDS = 1.0


def _unavailable(detail: str, **extra) -> dict:
    return {"status": "unavailable", "detail": detail, **extra}


def check_schedules(never_run_is_late: bool = False) -> dict:
    """At least one enabled periodic task, and none the scheduler has left behind.

    A task is late when its last run is older than LATE_INTERVALS of its interval. A task
    never run is not late: on a fresh deployment beat's first tick has not come yet, and on
    the embedded default without `run_scheduler` nothing runs them (tests, one-off
    commands). Beat runs a task that never ran at its first tick, so a stopped beat shows
    as late tasks within LATE_INTERVALS intervals of its last tick. Beat's own health
    check (`manage.py check_beat`, after its start period) counts never-run tasks as late.
    """
    from django_celery_beat.models import PeriodicTask

    from ops.schedules import PERIODIC_TASKS

    # Celery's own (celery.backend_cleanup, which beat adds itself) do not count.
    enabled = list(PeriodicTask.objects.filter(enabled=True).exclude(
        task__startswith="celery.").select_related("interval"))
    missing = sorted({spec["task"] for spec in PERIODIC_TASKS.values()}
                     - {task.task for task in enabled})
    if not enabled:
        return _unavailable("No enabled periodic task (missing: " + ", ".join(missing) + "): "
                            "run `manage.py migrate` (or `manage.py setup_periodic_tasks "
                            "--reset`).", missing=missing)
    now, late, never = timezone.now(), [], []
    for task in enabled:
        if task.interval is None:  # crontab/solar/clocked: no interval to be late by
            continue
        every = timedelta(seconds=task.interval.schedule.run_every.total_seconds())
        if task.last_run_at is None and not never_run_is_late:
            never.append(task.name)
        elif task.last_run_at is None or now - task.last_run_at > LATE_INTERVALS * every:
            late.append({"name": task.name, "every": round(every.total_seconds()),
                         "lastRunAt": task.last_run_at and task.last_run_at.isoformat(
                         ).replace("+00:00", "Z")})
    result = {"enabled": len(enabled), "notRunYet": never, "missing": missing}
    if late:
        names = ", ".join(item["name"] for item in late)
        return _unavailable(f"The scheduler has not run {names} within {LATE_INTERVALS} "
                            "intervals: is Celery beat (or run_scheduler) running?",
                            late=late, **result)
    return {"status": "ok", **result}


_ping_cache: dict[str, tuple[float, list[str]]] = {}
_ping_lock = threading.Lock()


def _ping_workers(broker_url: str) -> list[str]:
    """The names of the Celery workers that answer a ping, kept for a few seconds."""
    with _ping_lock:
        cached = _ping_cache.get(broker_url)
        if cached and time.monotonic() - cached[0] < WORKER_PING_CACHE_SECONDS:
            return cached[1]
    app = _probe_app(broker_url)
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0.2, timeout=2)
        replies = app.control.ping(timeout=WORKER_PING_TIMEOUT_SECONDS, connection=conn)
    workers = sorted(name for reply in replies for name in reply)
    with _ping_lock:
        _ping_cache[broker_url] = (time.monotonic(), workers)
    return workers


def _check_workers() -> dict:
    if not settings.CELERY_BROKER_URL:
        return {"status": "ok", "detail": "no broker: tasks run in-process"}
    workers = _ping_workers(settings.CELERY_BROKER_URL)
    if not workers:
        return _unavailable("No Celery worker answered a ping: is the worker running?")
    return {"status": "ok", "workers": workers}


def _check_webhook_secrets() -> dict:
    """The subscriptions' signing secrets decrypt under the key in force: a SECRET_KEY
    rotated without WEBHOOKS_SECRET_KEY would stop every delivery, and say so only here and
    in the delivery runs' log."""
    from webhooks.secrets import unreadable_secrets

    if unreadable_secrets():
        logger.error("readyz: webhook secrets cannot be decrypted: SECRET_KEY changed without "
                     "WEBHOOKS_SECRET_KEY?")
        return _unavailable("Webhook signing secrets cannot be decrypted: was SECRET_KEY "
                            "changed without WEBHOOKS_SECRET_KEY? Set WEBHOOKS_SECRET_KEY to "
                            "the key they were sealed under (the former SECRET_KEY).")
    return {"status": "ok"}


CHECKS = {"database": _check_database, "cache": _check_cache, "broker": _check_broker,
          "executors": _check_executors, "chains": _check_chains, "schedules": check_schedules,
          "workers": _check_workers, "replicas": _check_replicas,
          "webhookSecrets": _check_webhook_secrets}
# A check is not run when the one it needs failed: it would wait for that dependency again.
NEEDS = {"executors": "database", "chains": "database", "schedules": "database", "workers": "broker",
         "webhookSecrets": "database"}


def run_checks() -> tuple[dict, bool]:
    """Each readiness check's result (with its latency), and whether the service is ready:
    no check unavailable (the cache and the replicas inform only). Every check is bounded by
    its dependency's timeouts (settings), and is answered at once while that dependency's
    breaker is open. /readyz answers with them; /metrics publishes them as
    `readyz_check_ok` (ops/metrics.py)."""
    results, ready = {}, True
    for name, check in CHECKS.items():
        started = time.perf_counter()
        needed = NEEDS.get(name)
        try:
            if needed and results[needed]["status"] == "unavailable":
                result = _unavailable(f"not checked: {needed} unavailable")
            else:
                result = check()
        except Exception as exc:  # any failure of a dependency means "not ready"
            # The probe needs no key: the error's text (hosts, ports) goes to the log only.
            logger.warning("readyz: %s unavailable: %s: %s", name, type(exc).__name__, exc)
            result = {"status": "unavailable", "detail": type(exc).__name__}
        ready = ready and result["status"] != "unavailable"
        result["latencyMs"] = round((time.perf_counter() - started) * 1000, 2)
        results[name] = result
    return results, ready


@require_safe
def readyz(request):
    """The database and the broker (when configured) answer, periodic tasks are scheduled
    and run, a Celery worker answers (when a broker is configured), and the webhook secrets
    can be decrypted."""
    results, ready = run_checks()
    if not ready:
        failing = "; ".join(f"{name} unavailable ({r['detail']})"
                            for name, r in results.items() if r["status"] == "unavailable")
        return problem_response(503, detail=f"Not ready: {failing}.", checks=results)
    return JsonResponse({"status": "ok", "checks": results})

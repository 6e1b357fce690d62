"""Liveness and readiness probes for load balancers and orchestrators (no key needed)."""

import logging
import time

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.http import require_safe

from config.middleware import problem_response

logger = logging.getLogger(__name__)


@require_safe  # HEAD too: some load balancers probe with it
def healthz(request):
    """The process is up and serving."""
    return JsonResponse({"status": "ok"})


def _check_database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"status": "ok"}


def _check_broker() -> dict:
    if not settings.CELERY_BROKER_URL:
        return {"status": "ok", "detail": "no broker: tasks run in-process"}
    from config.celery import app

    # The URL from settings, explicitly: Celery prefers a CELERY_BROKER_URL found in the
    # process environment (which .env feeds) over Django's settings, so the probe could
    # otherwise check a different broker than the one configured.
    with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0.2, timeout=2)
    return {"status": "ok"}


def _check_executors() -> dict:
    """Informational: chains whose lease sweep holds back (self-preservation)."""
    from executors.models import SelfPreservation

    holds = [
        {"chainId": hold.chain_id, "since": hold.since.isoformat().replace("+00:00", "Z"),
         "wouldGoOffline": hold.would_go_offline, "executors": hold.executors}
        for hold in SelfPreservation.objects.all()
    ]
    return {"status": "ok", "selfPreservation": holds}


CHECKS = {"database": _check_database, "broker": _check_broker, "executors": _check_executors}


@require_safe
def readyz(request):
    """The database and the broker (when configured) answer."""
    results, ready = {}, True
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            result = check()
        except Exception as exc:  # any failure of a dependency means "not ready"
            # The probe needs no key: the error's text (hosts, ports) goes to the log only.
            logger.warning("readyz: %s unavailable: %s: %s", name, type(exc).__name__, exc)
            result = {"status": "unavailable", "detail": type(exc).__name__}
            ready = False
        result["latencyMs"] = round((time.perf_counter() - started) * 1000, 2)
        results[name] = result
    if not ready:
        failing = ", ".join(name for name, r in results.items() if r["status"] != "ok")
        return problem_response(503, detail=f"Not ready: {failing} unavailable.", checks=results)
    return JsonResponse({"status": "ok", "checks": results})

"""One access-log line and the request metrics for every request (ops/metrics.py)."""

import logging
import time

from django.conf import settings

from ops.metrics import observe_request, route_of

access_logger = logging.getLogger("config.access")


class AccessLogMiddleware:
    """Times each request; logs method, route, status, latency and the key's prefix (never
    the key), and counts it for /metrics. Placed right inside RequestIdMiddleware, so the
    line carries the request id and the time covers every other middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        seconds = time.perf_counter() - started
        route = route_of(request)
        if route != "/metrics":  # scrapes would drown what they measure
            observe_request(request.method, route, response.status_code, seconds)
        if settings.ACCESS_LOG:
            holder = getattr(request, "auth", None)
            fields = {
                "method": request.method,
                "route": route,
                "path": request.path,
                "status": response.status_code,
                "latency_ms": round(seconds * 1000, 2),
                "key_prefix": getattr(holder, "prefix", None),
            }
            access_logger.info("%s %s %s %.1fms key=%s", request.method, request.path,
                               response.status_code, fields["latency_ms"],
                               fields["key_prefix"] or "-", extra=fields)
        return response

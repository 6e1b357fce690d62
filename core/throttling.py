"""Rate limits per API key, by the key's scope (SPEC section 2), over the shared cache.

A fixed window counted with one atomic `cache.incr` per request: cheap on Redis (no history
list rewritten per request as DRF's SimpleRateThrottle does) and shared by every worker
process. A key may burst up to twice its rate across a window boundary; that is the price of
one round trip. Requests without a key are not throttled here: they get 401 before any work.
"""

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)


class KeyRateThrottle(BaseThrottle):
    """Limits each key to the rate of its scope (settings.API_RATE_LIMITS)."""

    def allow_request(self, request, view):
        holder = request.auth
        rate = settings.API_RATE_LIMITS.get(getattr(holder, "scope", None))
        if holder is None or rate is None:
            return True
        self.wait_seconds = over_limit(f"throttle:{holder.prefix}", rate)
        return self.wait_seconds is None

    def wait(self):
        return getattr(self, "wait_seconds", None)


def over_limit(name: str, rate: tuple[int, int]) -> int | None:
    """Count one request of `name` against `rate` (limit, period in seconds) in a fixed
    window, one atomic `cache.incr`: None while within it, else the seconds until the next
    window. The cache down: None (serve rather than fail: fail open)."""
    limit, period = rate
    now = time.time()
    window = int(now // period)
    key = f"{name}:{period}:{window}"
    try:
        cache.add(key, 0, timeout=period + 1)
        count = cache.incr(key)
    except Exception as exc:
        logger.warning("Rate limit of %s not checked, the cache failed: %s",
                       name.split(":")[0], type(exc).__name__)
        return None
    return None if count <= limit else max(1, math.ceil((window + 1) * period - now))

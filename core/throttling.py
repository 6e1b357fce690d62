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
        limit, period = rate
        now = time.time()
        window = int(now // period)
        name = f"throttle:{holder.prefix}:{period}:{window}"
        try:
            cache.add(name, 0, timeout=period + 1)
            count = cache.incr(name)
        except Exception as exc:  # the cache is down: serve rather than fail (fail open)
            logger.warning("Rate limit not checked, the cache failed: %s", type(exc).__name__)
            return True
        self.wait_seconds = max(1, math.ceil((window + 1) * period - now))
        return count <= limit

    def wait(self):
        return getattr(self, "wait_seconds", None)

"""Rate limits per API key, by the key's scope (SPEC section 2), over the shared cache.

A fixed window counted with one atomic `cache.incr` per request: cheap on Redis (no history
list rewritten per request as DRF's SimpleRateThrottle does) and shared by every worker
process. A key may burst up to twice its rate across a window boundary; that is the price of
one round trip. While the cache does not answer, each process counts on its own (below).
Requests without a key are not throttled here: they get 401 before any work.

What the count says (`Window`) is kept on the request, and config.middleware writes it as
the `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers: the client sees
its budget on every keyed answer, 429s included, at no cost beyond the count itself.
"""

import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends import locmem
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Window:
    """One request counted in a fixed window: the limit, what is left of it, and the whole
    seconds until the window (and the count) starts again."""

    limit: int
    remaining: int
    reset: int

    @property
    def wait(self) -> int | None:
        """None while within the limit, else the seconds to wait (at least 1)."""
        return None if self.remaining >= 0 else max(1, self.reset)

    def headers(self) -> dict[str, str]:
        return {"RateLimit-Limit": str(self.limit),
                "RateLimit-Remaining": str(max(0, self.remaining)),
                "RateLimit-Reset": str(self.reset)}


class KeyRateThrottle(BaseThrottle):
    """Limits each key to the rate of its scope (settings.API_RATE_LIMITS)."""

    def allow_request(self, request, view):
        holder = request.auth
        rate = settings.API_RATE_LIMITS.get(getattr(holder, "scope", None))
        if holder is None or rate is None:
            return True
        window = count_request(f"throttle:{holder.prefix}", rate)
        # On the Django request, where the middleware that writes the headers finds it.
        request._request.rate_limit = window
        self.wait_seconds = window.wait
        return self.wait_seconds is None

    def wait(self):
        return getattr(self, "wait_seconds", None)


# Where requests are counted while the shared cache does not answer: in this process
# (each process allows the whole rate, so all of them together allow it once per process).
# Neither fail open (one key could take every worker while Redis is out) nor fail closed
# (a cache outage would refuse every keyed request): docs/decisions.md.
_here = locmem.LocMemCache("rate-limits-in-process", {"OPTIONS": {"MAX_ENTRIES": 10_000}})


def count_request(name: str, rate: tuple[int, int]) -> Window | None:
    """Count one request of `name` against `rate` (limit, period in seconds) in a fixed
    window, one atomic `cache.incr`; in this process's own count while the shared cache
    fails."""
    limit, period = rate
    now = time.time()
    window = int(now // period)
    key = f"{name}:{period}:{window}"
    try:
        count = _count(cache, key, period)
    except Exception as exc:
        logger.warning("Rate limit of %s counted in this process, the cache failed: %s",
                       name.split(":")[0], type(exc).__name__)
        count = _count(_here, key, period)
    # remaining < 0: over the limit (the headers show 0).
    return Window(limit, limit - count, math.ceil((window + 1) * period - now))


def _count(counter, key: str, period: int) -> int:
    counter.add(key, 0, timeout=period + 1)
    return counter.incr(key)

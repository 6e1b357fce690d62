"""The public verification page's rate limit: per client address, over the shared cache.

The API's limit (core/throttling.py) is per key; the page has no key, so it counts the
client's address instead, in the same way: a fixed window, one atomic `cache.incr` per
request, fail open when the cache is down.
"""

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or behind PUBLIC_VERIFICATION_PROXIES proxies
    (nginx in docker-compose.yml), the address the outermost of them saw in X-Forwarded-For.
    Only that entry is believed: the ones to its left are the client's own say."""
    proxies = settings.PUBLIC_VERIFICATION_PROXIES
    if proxies:
        forwarded = [part.strip() for part in
                     request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def wait_seconds(request) -> int | None:
    """None when the request may go on; else how many seconds until the address may ask
    again (PUBLIC_VERIFICATION_RATE)."""
    rate = settings.PUBLIC_VERIFICATION_RATE
    if rate is None:
        return None
    limit, period = rate
    now = time.time()
    window = int(now // period)
    name = f"page-throttle:{client_address(request)}:{period}:{window}"
    try:
        cache.add(name, 0, timeout=period + 1)
        count = cache.incr(name)
    except Exception as exc:  # the cache is down: serve rather than fail (fail open)
        logger.warning("Page rate limit not checked, the cache failed: %s", type(exc).__name__)
        return None
    if count <= limit:
        return None
    return max(1, math.ceil((window + 1) * period - now))

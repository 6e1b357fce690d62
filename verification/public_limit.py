"""The public verification page's rate limit: per client address, over the shared cache.

The API's limit (core/throttling.py) is per key; the page has no key, so it counts the
client's address instead, with the same counter (`core.throttling.over_limit`).
"""

from django.conf import settings

from core.throttling import over_limit


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
    return over_limit(f"page-throttle:{client_address(request)}", rate)

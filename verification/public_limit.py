"""The public verification page's rate limit: per client address, over the shared cache.

The API's limit (core/throttling.py) is per key; the page has no key, so it counts the
client's address instead, with the same counter (`core.throttling.count_request`), and
answers with the same `RateLimit-*` headers (written by config.middleware). An IPv6 client
is counted by its network (PUBLIC_VERIFICATION_IPV6_PREFIX, a /64 by default): one
subscriber holds a whole /64, and would otherwise have 2**64 budgets.
"""

import ipaddress

from django.conf import settings

from core.throttling import Window, count_request


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


def client_group(address: str) -> str:
    """What the limit counts for `address`: an IPv4 address itself (an IPv4-mapped IPv6 one
    too), an IPv6 address's network of PUBLIC_VERIFICATION_IPV6_PREFIX bits; anything that
    is no address, as it is."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    prefix = settings.PUBLIC_VERIFICATION_IPV6_PREFIX
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def count(request) -> Window | None:
    """Count one verdict of the request's client against PUBLIC_VERIFICATION_RATE; the
    window (None without a limit). Kept on the request, where config.middleware finds it
    for the `RateLimit-*` headers."""
    rate = settings.PUBLIC_VERIFICATION_RATE
    if rate is None:
        return None
    window = count_request(f"page-throttle:{client_group(client_address(request))}", rate)
    request.rate_limit = window
    return window

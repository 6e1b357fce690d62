"""The API keys' one cache: Django's shared cache (Redis in production, shared by every
process), keyed by the key's digest, so that authentication reads the database at most once
a minute per key. Nothing of a key is kept in a process.

A change to a key (revoked, saved, deleted) marks its entry as changed, at once and again
when the transaction commits, for CACHE_SECONDS: meanwhile every request reads the key from
the database, and no request writes the entry (it only ever adds one where there is none).
So a request that read the key before a revocation cannot put it back after it (issue 17),
and the next request after the revocation commits, in any process, is refused.
"""

import time

from django.core.cache import cache
from django.db import transaction

CACHE_SECONDS = 60
USE_INTERVAL_SECONDS = 60  # a key's use is recorded at most once a minute (NetBox's rule)
_CHANGED = "changed"


def _name(digest: str) -> str:
    return f"api-key:v3:{digest}"


def read_through(digest: str, load):
    """What the cache holds for `digest`, else `load()` (which the cache then keeps, unless
    the key changed in the last CACHE_SECONDS). Unknown digests are kept too: as what
    `load()` answered for them (False)."""
    name = _name(digest)
    entry = cache.get(name)
    if entry is not None and entry != _CHANGED:
        return entry
    found = load()
    if entry is None:
        cache.add(name, found, CACHE_SECONDS)
    return found


def forget(digests) -> None:
    """Mark the keys of `digests` changed, now and when the transaction commits."""
    names = {_name(digest): _CHANGED for digest in digests}

    def mark():
        cache.set_many(names, CACHE_SECONDS)

    mark()
    transaction.on_commit(mark)


# prefix -> until when (time.monotonic()) this process leaves recording the key's use to
# others: not what the key authenticates as, only how often its use is written.
_recorded_elsewhere: dict[str, float] = {}


def records_use(prefix: str) -> bool:
    """Whether this request is the one a minute, of all processes, that records the use of
    the key of `prefix` (the cached copy may hold an old last_used_at)."""
    if _recorded_elsewhere.get(prefix, 0) > time.monotonic():
        return False
    if cache.add(f"api-key-used:{prefix}", True, USE_INTERVAL_SECONDS):
        return True
    _recorded_elsewhere[prefix] = time.monotonic() + USE_INTERVAL_SECONDS
    return False

"""The shared cache (Redis in production) as a helper, never as a single point of failure.

Everything the service keeps in the cache can be recomputed or skipped: cached API keys
(read from the database instead), key-use flags, rate-limit counters, task locks. So when
Redis is unreachable, reads miss, writes are dropped and `add` (locks, flags) says no, with
a warning; requests keep being served. `incr` still raises: the rate limit decides itself
(core/throttling.py fails open).
"""

import logging
import time

from django.core.cache.backends import locmem
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)
_WARN_EVERY_SECONDS = 10.0
_last_warning = [0.0]


def _warn(operation: str, exc: Exception) -> None:
    now = time.monotonic()
    if now - _last_warning[0] >= _WARN_EVERY_SECONDS:  # one line per outage burst, not per call
        _last_warning[0] = now
        logger.warning("Cache unavailable (%s: %s: %s); serving without it.", operation,
                       type(exc).__name__, exc)


def _soft(default):
    def wrap(method):
        def call(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except UNAVAILABLE as exc:
                _warn(method.__name__, exc)
                return default() if callable(default) else default
        call.__name__ = method.__name__
        return call
    return wrap


class ServiceKeys:
    """The service names its cache keys itself (short ASCII, no spaces): Django's check
    of every key for memcached's limits, a Python loop over its characters on each get, is
    left out. It cost a verification more than the cache read it guarded."""

    def validate_key(self, key):
        pass


class LocMemCache(ServiceKeys, locmem.LocMemCache):
    pass


class FailSoftRedisCache(ServiceKeys, RedisCache):
    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except UNAVAILABLE as exc:
            _warn("get", exc)
            return default

    add = _soft(False)(RedisCache.add)
    set = _soft(None)(RedisCache.set)
    touch = _soft(False)(RedisCache.touch)
    delete = _soft(False)(RedisCache.delete)
    get_many = _soft(dict)(RedisCache.get_many)
    set_many = _soft(list)(RedisCache.set_many)
    delete_many = _soft(None)(RedisCache.delete_many)
    has_key = _soft(False)(RedisCache.has_key)
    clear = _soft(False)(RedisCache.clear)

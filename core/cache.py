"""The shared cache (Redis in production) as a helper, never as a single point of failure.

Everything the service keeps in the cache can be recomputed or skipped: cached API keys
(read from the database instead), key-use flags, rate-limit counters (counted in the
process instead, core/throttling.py), task locks. So when Redis does not answer, reads miss,
writes are dropped and `add` (locks, flags) says no, with a warning; requests keep being
served. `incr` still raises: the rate limit decides itself.

Each operation waits at most CACHE_TIMEOUT_SECONDS (settings: the client's socket
timeouts). One that failed for want of an answer opens the breaker: for
CACHE_BREAKER_SECONDS every operation of this process fails at once, without asking, then
the next one tries Redis again (and closes the breaker if it answers). A hung Redis costs
each process one timeout per period, not one per operation.
"""

import logging
import time

from django.conf import settings
from django.core.cache.backends import locmem
from django.core.cache.backends.redis import RedisCache
from pybreaker import CircuitBreaker, CircuitBreakerError, CircuitBreakerListener
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError, CircuitBreakerError)
_WARN_EVERY_SECONDS = 10.0
_last_warning = [0.0]


def _warn(operation: str, exc: Exception) -> None:
    now = time.monotonic()
    if now - _last_warning[0] >= _WARN_EVERY_SECONDS:  # one line per outage burst, not per call
        _last_warning[0] = now
        logger.warning("Cache unavailable (%s: %s: %s); serving without it.", operation,
                       type(exc).__name__, exc)


class _Announce(CircuitBreakerListener):
    def state_change(self, cb, old_state, new_state):
        if new_state.name == "open":
            logger.warning("The cache did not answer: this process does without it for "
                           "%s s.", cb.reset_timeout)
        elif new_state.name == "closed" and old_state and old_state.name != "closed":
            logger.warning("The cache answers again.")


# One per process (every thread's cache backend shares it): Redis is one server.
breaker = CircuitBreaker(
    fail_max=1, reset_timeout=settings.CACHE_BREAKER_SECONDS, name="cache",
    listeners=[_Announce()], throw_new_error_on_trip=False,
    exclude=[lambda exc: not isinstance(exc, UNAVAILABLE)])  # a missing key is no outage


def _soft(default):
    def wrap(method):
        def call(self, *args, **kwargs):
            try:
                return breaker.call(method, self, *args, **kwargs)
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
    def ping(self) -> None:
        """In the process: always there."""


class FailSoftRedisCache(ServiceKeys, RedisCache):
    def get(self, key, default=None, version=None):
        try:
            return breaker.call(RedisCache.get, self, key, default, version)
        except UNAVAILABLE as exc:
            _warn("get", exc)
            return default

    def incr(self, key, delta=1, version=None):
        return breaker.call(RedisCache.incr, self, key, delta, version)

    def ping(self) -> None:
        """Raises unless Redis answers (at once while the breaker is open)."""
        breaker.call(lambda: self._cache.get_client(write=True).ping())

    add = _soft(False)(RedisCache.add)
    set = _soft(None)(RedisCache.set)
    touch = _soft(False)(RedisCache.touch)
    delete = _soft(False)(RedisCache.delete)
    get_many = _soft(dict)(RedisCache.get_many)
    set_many = _soft(list)(RedisCache.set_many)
    delete_many = _soft(None)(RedisCache.delete_many)
    has_key = _soft(False)(RedisCache.has_key)
    clear = _soft(False)(RedisCache.clear)

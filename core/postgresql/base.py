"""PostgreSQL as Django's backend, with a bound on every wait for the server (the ENGINE
config/settings.py gives every PostgreSQL alias).

A server that stops answering (hung, paused, a network that drops packets silently) keeps
its TCP connections open: without bounds, each worker that asks waits until gunicorn kills
it, and the web tier stops. Here:
- connecting waits at most DB_CONNECT_TIMEOUT_SECONDS (libpq's `connect_timeout`);
- a statement runs at most DB_STATEMENT_TIMEOUT_SECONDS on the server (`statement_timeout`,
  sent at connect unless DB_SERVER_STATEMENT_TIMEOUT is false: PgBouncer refuses it), and
  the client waits for any one answer (a statement, a commit, a fetch) at most a second
  longer, so that a live server's own timeout answers first and keeps the connection. A
  server that let that second pass does not answer at all: the connection is closed;
- then that alias's breaker opens (as it does on a connect timeout): for DB_BREAKER_SECONDS
  this process refuses new connections to it at once, instead of each request waiting its
  own timeout; the first connection after that tries the server again.
Each of these is an OperationalError, which the service answers with a 503 problem.
"""

import logging

import psycopg
from django.conf import settings
from django.db.backends.postgresql import base
from psycopg.errors import ConnectionTimeout
from psycopg.errors import _WaitTimeout as WaitTimeout  # what Connection.wait(timeout=) raises
from pybreaker import CircuitBreaker, CircuitBreakerError, CircuitBreakerListener

logger = logging.getLogger(__name__)
# A live server's statement_timeout answers within this much of the client's deadline.
DEADLINE_GRACE_SECONDS = 1


class NoAnswer(psycopg.OperationalError):
    """The server did not answer within the deadline, or its breaker is open."""


class BoundedConnection(psycopg.Connection):
    """psycopg's connection, waiting at most `deadline` seconds for any one answer."""

    deadline: float | None = None
    breaker: CircuitBreaker | None = None

    def wait(self, gen, *args, **kwargs):
        if self.deadline is None or "timeout" in kwargs or len(args) > 1:
            return super().wait(gen, *args, **kwargs)  # the caller bounds it (notifies)
        try:
            return super().wait(gen, *args, timeout=self.deadline, **kwargs)
        except WaitTimeout:
            # Its answer may still come: the connection cannot be used again.
            self.close()
            if self.breaker is not None:
                self.breaker.open()
            raise NoAnswer(f"the database did not answer within {self.deadline:g} s") from None


class _Announce(CircuitBreakerListener):
    def state_change(self, cb, old_state, new_state):
        if new_state.name == "open":
            logger.warning("The database (%s) did not answer in time: its connections are "
                           "refused at once for %s s.", cb.name, cb.reset_timeout)
        elif new_state.name == "closed" and old_state and old_state.name != "closed":
            logger.warning("The database (%s) answers again.", cb.name)


_breakers: dict[str, CircuitBreaker] = {}


def breaker(alias: str) -> CircuitBreaker:
    """The breaker of the database `alias` in this process (one per alias: a hung replica
    does not stop the primary)."""
    found = _breakers.get(alias)
    if found is None:
        found = _breakers[alias] = CircuitBreaker(
            fail_max=1, name=alias, listeners=[_Announce()], throw_new_error_on_trip=False,
            # Only silence counts: a refused connection fails fast by itself.
            exclude=[lambda exc: not isinstance(exc, ConnectionTimeout)])
    found.reset_timeout = settings.DB_BREAKER_SECONDS
    return found


def statement_deadline() -> float | None:
    """How long the client waits for any one answer (None: unbounded)."""
    seconds = settings.DB_STATEMENT_TIMEOUT_SECONDS
    return seconds + DEADLINE_GRACE_SECONDS if seconds else None


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        params = super().get_connection_params()
        params.setdefault("connect_timeout", settings.DB_CONNECT_TIMEOUT_SECONDS)
        seconds = settings.DB_STATEMENT_TIMEOUT_SECONDS
        if seconds and settings.DB_SERVER_STATEMENT_TIMEOUT:
            # First, so that a statement_timeout in the URL's own `options` wins.
            params["options"] = " ".join(filter(None, (
                f"-c statement_timeout={seconds * 1000}", params.get("options"))))
        return params

    def get_new_connection(self, conn_params):
        guard = breaker(self.alias)
        try:
            connection = guard.call(super().get_new_connection, conn_params)
        except CircuitBreakerError:
            raise NoAnswer(f"the database ({self.alias}) did not answer in time; it is tried "
                           "again in a few seconds") from None
        # psycopg connects with its own class (Django calls psycopg.connect): ours is that
        # class plus the deadline, and adds no state of its own.
        connection.__class__ = BoundedConnection
        connection.deadline = statement_deadline()
        connection.breaker = guard
        return connection

"""Read replicas (DATABASE_REPLICA_URLS): which reads a replica answers, which replica, and
when the primary answers instead. docs/scaling.md is the operator's guide;
docs/decisions.md ("Read replicas") says why a replica's `verified: true` can be trusted.

The routing, in one place: the setting REPLICA_READ_ROUTES lists the routes (Django URL
names and methods) whose reads a replica answers. Everything else (every write, and the
reads that must see one: the admin API, heartbeats, claims, workflows, webhooks, offchain
submissions read back) stays on the primary. A listed route reads from a replica when:
- it is served over HTTP: `ReplicaReadMiddleware` (the innermost middleware) routes it;
- it is a /trpc procedure: trpc/dispatch.py runs it through `run_read`;
- and a replica is usable: answering, in recovery, and at most
  DATABASE_REPLICA_MAX_LAG_SECONDS behind (checked at most once a CHECK_INTERVAL per
  process, `statuses`). With none usable, the primary answers.
Inside such a read, `ReplicaRouter` (DATABASE_ROUTERS) sends the ORM's reads to the chosen
replica and core/db.py's `run_hot` runs there too; writes, reads of the models in the
setting PRIMARY_READ_MODELS and reads inside a transaction on the primary stay on the
primary. A replica that fails a read (it died, or cancelled the query) is skipped from then
on until a check finds it again, and the read runs once more on the primary: no request
fails because a replica did.
"""

import itertools
import logging
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

logger = logging.getLogger(__name__)

# The lag of each replica is measured at most this often per process.
CHECK_INTERVAL = 1.0

# The replica the current read uses (None: the primary).
_reading: ContextVar[str | None] = ContextVar("replica_reading", default=None)


def reading_alias() -> str:
    """The database alias a read runs on now: the routed replica, else the primary."""
    alias = _reading.get()
    if alias is None or connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return DEFAULT_DB_ALIAS
    return alias


def on_replica() -> bool:
    return reading_alias() != DEFAULT_DB_ALIAS


@contextmanager
def on_primary():
    """The reads inside go to the primary, whatever the route."""
    token = _reading.set(None)
    try:
        yield
    finally:
        _reading.reset(token)


class ReplicaRouter:
    """Django's database router (DATABASE_ROUTERS): reads of a routed request go to its
    replica; everything else to the primary."""

    def db_for_read(self, model, **hints):
        if model._meta.label in settings.PRIMARY_READ_MODELS:
            return DEFAULT_DB_ALIAS
        return reading_alias()

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS  # also for an object read from a replica

    def allow_relation(self, obj1, obj2, **hints):
        return True  # a replica holds the primary's rows

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS


# Choosing a replica ------------------------------------------------------------------------

@dataclass
class ReplicaStatus:
    alias: str
    usable: bool = False
    lag_seconds: float | None = None  # None: unknown (down, or never replayed a commit)
    error: str = ""

    def as_dict(self) -> dict:
        return {"alias": self.alias, "usable": self.usable,
                "lagSeconds": None if self.lag_seconds is None else round(self.lag_seconds, 3),
                **({"error": self.error} if self.error else {})}


# Lag: 0 when the replica has replayed everything the primary had flushed when asked (an
# idle primary commits nothing, so the time since the last replayed commit grows while the
# replica is current); else the time since the last commit it replayed.
_LAG_SQL = """SELECT pg_is_in_recovery(),
       COALESCE(pg_last_wal_replay_lsn() >= %s::pg_lsn, FALSE),
       EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp())::float8"""
_statuses: dict[str, ReplicaStatus] = {}
_checked_at = float("-inf")
_check_lock = threading.Lock()
_turns = itertools.count()


def replica_aliases() -> list[str]:
    return settings.DATABASE_REPLICAS


def choose() -> str | None:
    """A usable replica (in turn), or None: the primary answers."""
    aliases = replica_aliases()
    if not aliases:
        return None
    usable = [status.alias for status in statuses() if status.usable]
    if not usable:
        return None
    return usable[next(_turns) % len(usable)]


def statuses() -> list[ReplicaStatus]:
    """Each replica's status, measured again when older than CHECK_INTERVAL. One thread
    measures; the others meanwhile take the last measurement."""
    global _checked_at
    aliases = replica_aliases()
    if time.monotonic() - _checked_at >= CHECK_INTERVAL and _check_lock.acquire(blocking=False):
        try:
            _checked_at = time.monotonic()
            primary_lsn = _primary_lsn()
            for alias in aliases:
                _statuses[alias] = _measure(alias, primary_lsn)
        finally:
            _check_lock.release()
    return [_statuses.get(alias) or ReplicaStatus(alias, error="not checked yet")
            for alias in aliases]


def forget() -> None:
    """Measure again at the next read (tests; a replica added or removed)."""
    global _checked_at
    _checked_at = float("-inf")
    _statuses.clear()


def _primary_lsn() -> str | None:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_flush_lsn()::text")
            return cursor.fetchone()[0]
    except DatabaseError as exc:  # the replicas are then judged by their replay time only
        logger.warning("Replica check: the primary's WAL position is unknown: %s", exc)
        return None


def _measure(alias: str, primary_lsn: str | None) -> ReplicaStatus:
    db = connections[alias]
    try:
        with db.cursor() as cursor:
            cursor.execute(_LAG_SQL, [primary_lsn])
            in_recovery, caught_up, since_replay = cursor.fetchone()
    except DatabaseError as exc:
        _close(db)
        if _statuses.get(alias, ReplicaStatus(alias)).usable:
            logger.warning("Replica %s is unusable: %s: %s", alias, type(exc).__name__, exc)
        return ReplicaStatus(alias, error=f"unavailable ({type(exc).__name__})")
    if not in_recovery:
        return ReplicaStatus(alias, error="not a replica: not in recovery")
    lag = 0.0 if caught_up else since_replay
    if lag is None:
        return ReplicaStatus(alias, error="has replayed no transaction yet")
    lag = max(lag, 0.0)
    max_lag = settings.DATABASE_REPLICA_MAX_LAG_SECONDS
    if lag > max_lag:
        return ReplicaStatus(alias, lag_seconds=lag, error=f"lags more than {max_lag:g} s")
    return ReplicaStatus(alias, usable=True, lag_seconds=lag)


def _mark_unusable(alias: str, why: str) -> None:
    """Until the next check, which measures it again."""
    logger.warning("Replica %s failed a read (%s); the primary answers.", alias, why)
    _statuses[alias] = ReplicaStatus(alias, error=f"failed a read ({why})")


def _close(db) -> None:
    try:
        db.close()
    except DatabaseError:
        pass
    db.errors_occurred = False


# Running a read on a replica ---------------------------------------------------------------

def _begin(url_name: str, method: str):
    """(alias, token) when this route's reads go to a replica now, else None."""
    if (url_name, "GET" if method == "HEAD" else method) not in settings.REPLICA_READ_ROUTES:
        return None
    alias = choose()
    if alias is None:
        return None
    db = connections[alias]
    if db.errors_occurred:  # left by an earlier read of this request: Django's own check
        if db.connection is not None and db.is_usable():
            db.errors_occurred = False
        else:
            _close(db)
    return alias, _reading.set(alias)


def _end(routed) -> bool:
    """Leave the replica; True when it failed the read, which must then run again."""
    alias, token = routed
    _reading.reset(token)
    db = connections[alias]
    if not db.errors_occurred:
        return False
    if db.connection is None or not db.is_usable():
        _mark_unusable(alias, "connection lost")
        _close(db)
    else:  # alive, but it refused the query (a conflict with recovery, ...)
        db.errors_occurred = False
    return True


def run_read(url_name: str, method: str, call):
    """`call()`, with its reads on a replica when the route is listed and one is usable;
    once more on the primary when the replica failed it. For callers that run a view
    themselves (trpc/dispatch.py); HTTP requests go through ReplicaReadMiddleware."""
    routed = _begin(url_name, method)
    if routed is None:
        return call()
    try:
        result = call()
        if hasattr(result, "render"):
            result.render()  # a response renders inside the read
    except DatabaseError:
        if not _end(routed):
            raise
        routed = None
    else:
        if not _end(routed):
            return result
    return call()


class ReplicaReadMiddleware:
    """The listed routes' reads on a replica (the innermost middleware: it sees the
    resolved route). A request whose replica failed runs once more, on the primary (the
    listed routes only read, so running twice is safe)."""

    def __init__(self, get_response):
        if not replica_aliases():
            raise MiddlewareNotUsed  # no replicas: nothing to route, not even a check
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        routed = request.__dict__.pop("_replica_read", None)
        if routed is not None and _end(routed):
            request._replica_retry = True
            response = self.get_response(request)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(request, "_replica_retry", False):
            routed = _begin(request.resolver_match.url_name, request.method)
            if routed is not None:
                request._replica_read = routed

"""`--replica` for bench/verify.py: what a read replica takes off the primary.

The benchmark then runs on a private primary (tests/private_primary.py: initdb into a
temporary folder, a free port; the machine's cluster is neither copied nor reconfigured),
which the attestations are loaded into; then a streaming replica of it is started as the
tests start one (tests/replica.py: `pg_basebackup -R`, a second server on a free port) and
given to the service as DATABASE_REPLICA_URLS. Both servers are stopped by their pid at the
end. A load of POST /v1/verify is measured with the CPU time (Linux /proc) of the primary's
backends of the benchmark database, the replica's, and gunicorn's workers: the primary's CPU
per verification is what the replica buys (target: about 0).
"""

import os
import sys
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

import harness
from harness import load, say

# Both servers as the machine's PostgreSQL is configured (its default cache).
SETTINGS = {"shared_buffers": "'128MB'"}
_serving = {}  # "replica": the Replica while one serves


def argument(parser) -> None:
    parser.add_argument("--replica", action="store_true",
                        help="Run on a private primary, serve the reads from a streaming "
                             "replica of it, and print the primary's CPU per verification.")
    parser.add_argument("--private", action="store_true",
                        help="Run on a private primary as --replica does, without a replica "
                             "(what --replica's figures compare with).")


@contextmanager
def database_url(args, default: str):
    """The benchmark's DATABASE_URL: a private primary's database with --replica (its
    base backup then takes seconds) or --private, else DATABASE_URL or `default`."""
    if not (args.replica or args.private):
        yield os.environ.get("DATABASE_URL", default)
        return
    if str(harness.ROOT) not in sys.path:  # before setup_django puts it there
        sys.path.insert(0, str(harness.ROOT))
    from tests.private_primary import PrivatePrimary

    primary = PrivatePrimary(**SETTINGS).start()
    try:
        say(f"private primary on 127.0.0.1:{primary.port} (pid {primary.pid})")
        yield primary.create_database(urlsplit(default).path.lstrip("/"))
    finally:
        primary.stop()


@contextmanager
def serving(env: dict, args):
    """`env`, with a replica in DATABASE_REPLICA_URLS when `args.replica`."""
    if not args.replica:
        yield env
        return
    from django.db import DatabaseError, connection

    from tests.replica import Replica

    try:  # on the replica too, for warm_cache
        with connection.cursor() as cursor:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
    except DatabaseError:
        pass
    primary = urlsplit(env["DATABASE_URL"])
    started = time.perf_counter()
    replica = Replica(primary.hostname, primary.port, primary.username, **SETTINGS).start()
    try:
        replica.catch_up()
        say(f"replica on 127.0.0.1:{replica.port} (pid {replica.pid}), base backup and "
            f"start {time.perf_counter() - started:.1f} s, caught up")
        _serving["replica"] = replica
        yield {**env, "DATABASE_REPLICA_URLS": replica.url(_database(env))}
    finally:
        _serving.pop("replica", None)
        replica.stop()


def warm_cache(relations) -> None:
    """The replica's copies of `relations` read into the OS cache as well: it answers the
    reads (verify.warm_cache says why)."""
    from django.db import connection

    replica = _serving.get("replica")
    for relation in relations if replica else ():
        replica.sql("SELECT pg_prewarm(%s, 'read')", [relation],
                    database=connection.settings_dict["NAME"])


def backends(env: dict) -> list[int]:
    """The replica's backends of the benchmark database (none without one): its share of
    the database CPU."""
    replica = _serving.get("replica")
    return _replica_backends(replica, _database(env)) if replica else []


def _database(env: dict) -> str:
    return urlsplit(env["DATABASE_URL"]).path.lstrip("/")


def _replica_backends(replica, database: str) -> list[int]:
    return [pid for (pid,) in replica.sql(
        "SELECT pid FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'",
        [database])]


def cpu_lines(port: int, verify, args, env: dict) -> list[str]:
    """A round of POST /v1/verify with the CPU of the primary's and the replica's backends
    counted; the lines to print. Nothing without --replica."""
    replica = _serving.get("replica")
    if replica is None:
        return []
    load(port, "warm-up", verify, seconds=1, concurrency=args.concurrency)  # connect all
    primary, copies = harness.database_backends(), _replica_backends(replica, _database(env))
    workers = harness.children(harness.SERVERS[port])
    before = [harness.cpu_seconds(pids) for pids in (primary, copies, workers)]
    result = load(port, "POST /v1/verify (replica serving)", verify,
                  seconds=args.seconds * 3, concurrency=args.concurrency)
    after = [harness.cpu_seconds(pids) for pids in (primary, copies, workers)]
    on_primary, on_replica, on_workers = ((b - a) / result.requests * 1e6
                                          for a, b in zip(before, after))
    verdict = "PASS" if on_primary <= 0.05 * (on_primary + on_replica) else "FAIL"
    return [
        "",
        f"== {result.requests} verifications with the replica serving reads "
        f"({len(primary)} primary backends, {len(copies)} replica backends)",
        result.line(),
        f"CPU per verification (us): primary {on_primary:.1f}   replica {on_replica:.1f}   "
        f"gunicorn workers {on_workers:.0f}",
        f"primary's share of the database CPU: "
        f"{on_primary / max(on_primary + on_replica, 1e-9):.1%}   (target: about 0, at most "
        f"5 %)  {verdict}",
    ]

"""`--replica` for bench/verify.py: what a read replica takes off the primary.

A real streaming replica of the machine's PostgreSQL, started as the tests start one
(tests/replica.py: `pg_basebackup -R` of the whole cluster, a second server on a free port),
after the attestations are loaded; the service gets it as DATABASE_REPLICA_URLS. Then a load
of POST /v1/verify is measured with the CPU time (Linux /proc) of the primary's backends of
the benchmark database, the replica's, and gunicorn's workers: the primary's CPU per
verification is what the replica buys (target: about 0).
"""

from contextlib import contextmanager
from urllib.parse import urlparse

import harness
from harness import load, say

_serving = {}  # "replica": the Replica while one serves


def argument(parser) -> None:
    parser.add_argument("--replica", action="store_true",
                        help="Serve reads from a streaming replica started here, and print "
                             "the primary's CPU per verification.")


@contextmanager
def serving(env: dict, args):
    """`env`, with a replica in DATABASE_REPLICA_URLS when `args.replica`."""
    if not args.replica:
        yield env
        return
    from tests.replica import Replica  # the tests' replica, started the same way

    database = _database(env)
    say("starting a streaming replica (pg_basebackup of the whole cluster) ...")
    replica = Replica().start()
    try:
        replica.catch_up()
        say(f"replica on 127.0.0.1:{replica.port} (pid {replica.pid}), caught up")
        _serving["replica"] = replica
        yield {**env, "DATABASE_REPLICA_URLS": replica.url(database)}
    finally:
        _serving.pop("replica", None)
        replica.stop()


def _database(env: dict) -> str:
    return urlparse(env["DATABASE_URL"]).path.lstrip("/")


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

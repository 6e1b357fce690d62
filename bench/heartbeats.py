"""Executor leases under load: heartbeats per second, and one expiry sweep over 100,000 executors.

1. Sustained POST /v1/chain-registry/{chain}/heartbeat, spread over registered executors, next
   to GET /healthz on the same gunicorn against PostgreSQL, in interleaved rounds
   (target: heartbeats at least 60 % of healthz, judged on the median of the paired rounds,
   so that a slow spell of a shared host does not decide).
2. One executor_leases_expire() over 100,000 lapsed executors inserted with COPY (target:
   2 s at most); then, for scale, the other kinds of sweep over the same table: nothing due,
   all held back by self-preservation, all going offline, and a steady state where 1 % lapse.

With --profile, also where a heartbeat's time goes, in-process (wall clock per step, the
queries, cProfile). Everything it inserts is removed at the end.

    .venv/bin/python bench/heartbeats.py [--executors 200] [--seconds 3] [--rounds 7]
        [--concurrency 8] [--workers 2] [--sweep-executors 100000] [--profile]

Set DATABASE_URL to use another database (default: a local PostgreSQL `chain_registry_bench`).
"""

import itertools
import json
import logging
import sys
import threading
import time
import uuid
from datetime import timedelta

import harness
from eth_account import Account
from eth_account.messages import encode_defunct
from eth_utils import keccak
from harness import (
    bench_env,
    ensure_database,
    load,
    merge,
    request,
    say,
)

HEARTBEAT_CHAIN = 900_100
SWEEP_CHAINS = range(900_200, 900_300)  # 100 chains of 1,000 executors each by default
BENCH_NAME = "bench-heartbeats"


def setup_django(env) -> None:
    """Django in this process, on the benchmark's database (for data, the sweep, profiling)."""
    harness.setup_django(env)
    # A held-back sweep warns once per chain: a hundred lines that say nothing here.
    logging.getLogger("executors.sweep").setLevel(logging.ERROR)


def ensure_chain(chain_id: int, short_name: str):
    from registry.models import Chain

    return Chain.objects.get_or_create(
        chain_id=chain_id, defaults={"name": f"Bench {short_name}", "short_name": short_name}
    )[0]


def remove_chains(chain_ids) -> None:
    """Executors and their history by plain SQL (the ORM's cascade would fetch every row),
    then the chains."""
    from django.db import connection

    from executors.models import Executor, ExecutorStatusChange, SelfPreservation
    from registry.models import Chain

    executors, changes = Executor._meta.db_table, ExecutorStatusChange._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {changes} WHERE executor_id IN "
                       f"(SELECT id FROM {executors} WHERE chain_id = ANY(%s))", [list(chain_ids)])
        cursor.execute(f"DELETE FROM {executors} WHERE chain_id = ANY(%s)", [list(chain_ids)])
    SelfPreservation.objects.filter(chain_id__in=chain_ids).delete()
    Chain.objects.filter(chain_id__in=chain_ids).delete()
    vacuum()


def vacuum() -> None:
    """VACUUM ANALYZE the executor tables: a sweep over 100,000 rows leaves as many dead ones,
    and a server with autovacuum off (this one's is) would let every run slow down the next."""
    from django.db import connection

    from executors.models import Executor, ExecutorStatusChange

    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {Executor._meta.db_table}, "
                       f"{ExecutorStatusChange._meta.db_table}")


# 1. Heartbeats -----------------------------------------------------------------------------


def register_executors(port: int, key: str, count: int) -> list[str]:
    headers = {"X-API-Key": key, "Content-Type": "application/json"}
    ids = []
    for n in range(count):
        # Each registration proves its address: the challenge, signed by a key of its own.
        account = Account.from_key(keccak(text=f"bench heartbeat executor {n}"))
        status, payload = request(port, "POST", f"/v1/chain-registry/{HEARTBEAT_CHAIN}/challenge",
                                  headers, json.dumps({"address": account.address}).encode())
        if status != 200:
            raise RuntimeError(f"challenge answered {status}: {payload[:300]!r}")
        message = json.loads(payload)["message"]
        signature = bytes(account.sign_message(encode_defunct(text=message)).signature).hex()
        body = json.dumps({"address": account.address, "name": f"bench-{n}",
                           "proof": {"message": message, "signature": "0x" + signature}})
        status, payload = request(port, "POST", f"/v1/chain-registry/{HEARTBEAT_CHAIN}/register",
                                  headers, body.encode())
        if status not in (200, 201):
            raise RuntimeError(f"register answered {status}: {payload[:300]!r}")
        ids.append(json.loads(payload)["executorId"])
    return ids


def heartbeat_requests(key: str, ids: list[str]):
    """A request factory for load(): each call heartbeats the next executor in turn."""
    headers = {"X-API-Key": key, "Content-Type": "application/json"}
    path = f"/v1/chain-registry/{HEARTBEAT_CHAIN}/heartbeat"
    bodies = itertools.cycle([json.dumps({"executorId": i, "status": "ok"}).encode() for i in ids])
    lock = threading.Lock()

    def make():
        with lock:
            body = next(bodies)
        return "POST", path, headers, body

    return make


def bench_heartbeats(env, key: str, args) -> tuple[float, list[str]]:
    healthz = harness.healthz
    with harness.serve(env, args) as port:
        ids = register_executors(port, key, args.executors)
        heartbeat = heartbeat_requests(key, ids)
        load(port, "warm-up", heartbeat, seconds=1, concurrency=args.concurrency)
        load(port, "warm-up", healthz, seconds=1, concurrency=args.concurrency)
        cpu = {"GET /healthz": harness.CpuUse(), "POST .../heartbeat": harness.CpuUse()}
        pairs = harness.paired_rounds(
            port, ("GET /healthz", healthz), ("POST .../heartbeat", heartbeat),
            rounds=args.rounds, seconds=args.seconds, concurrency=args.concurrency,
            around=lambda name: cpu[name].measuring(port))
    health, beats = merge(pairs.baseline), merge(pairs.measured)
    ratio = pairs.median_ratio
    health_cpu, beat_cpu = (cpu["GET /healthz"].per_request(health.requests),
                            cpu["POST .../heartbeat"].per_request(beats.requests))
    say(
        "",
        f"== heartbeats: gunicorn workers={args.workers} (front: {args.front}), concurrency={args.concurrency}, "
        f"{args.executors} executors, {args.rounds} interleaved rounds x {args.seconds}s",
        health.line(),
        beats.line(),
        *pairs.lines("heartbeats / healthz throughput", 0.6),
        "CPU per request (us), less sensitive to other load on the machine than throughput:",
        f"  GET /healthz         {health_cpu}",
        f"  POST .../heartbeat   {beat_cpu}",
        f"  healthz / heartbeat CPU: {health_cpu.total / beat_cpu.total:.1%}",
    )
    return ratio, ids


def profile_heartbeats(key: str, ids: list[str], repeat: int = 1000) -> None:
    """Where a heartbeat's server time goes, in this process through Django's handler
    (django.test.Client): wall-clock per step, the queries, then cProfile."""
    import cProfile
    import pstats
    from collections import Counter
    from unittest import mock

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.views import APIView

    from executors import models, serializers
    from executors.api.views import ChainRegistryViewSet

    client = Client(HTTP_X_API_KEY=key, HTTP_HOST="127.0.0.1")
    path = f"/v1/chain-registry/{HEARTBEAT_CHAIN}/heartbeat"
    bodies = [json.dumps({"executorId": i, "status": "ok"}) for i in ids]

    def beat(n):
        response = client.post(path, bodies[n % len(bodies)], content_type="application/json")
        assert response.status_code == 200, response.content

    def healthz(_):
        client.get("/healthz")

    def per_request_us(call) -> float:
        call(0)  # the first call opens the connection and reads the key: not counted
        spent.clear()
        started = time.perf_counter()
        for n in range(repeat):
            call(n)
        return (time.perf_counter() - started) / repeat * 1e6

    spent = Counter()

    def timed(name, function):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - started
        return wrapper

    steps = [  # (label, owner, attribute); each one's time includes the ones nested in it
        ("DRF's dispatch (all but rendering)", APIView, "dispatch"),
        ("  authentication, permission, throttle", APIView, "initial"),
        ("  the heartbeat action", ChainRegistryViewSet, "heartbeat"),
        ("    body validation (serializer)", serializers.HeartbeatSerializer, "is_valid"),
        ("    Executor.heartbeat", models.Executor, "heartbeat"),
        ("      the renewal UPDATE", models, "_renew_lease"),
    ]
    healthz_us = per_request_us(healthz)
    patches = [mock.patch.object(owner, attribute, timed(label, getattr(owner, attribute)))
               for label, owner, attribute in steps]
    for patch in patches:
        patch.start()
    try:
        beat_us = per_request_us(beat)
    finally:
        for patch in patches:
            patch.stop()
    say("", f"== in-process, {repeat} requests each (django.test.Client)",
        f"GET /healthz                              {healthz_us:6.0f} us",
        f"POST .../heartbeat                        {beat_us:6.0f} us",
        *(f"{label:<42}{spent[label] / (repeat + 1) * 1e6:6.0f} us" for label, *_ in steps))
    with CaptureQueriesContext(connection) as queries:
        beat(1)
    say(f"queries per heartbeat: {len(queries)}", *(f"  {q['sql'][:120]}..." for q in queries))

    profiler = cProfile.Profile()
    profiler.enable()
    for n in range(repeat):
        beat(n)
    profiler.disable()
    say("", f"== cProfile of {repeat} in-process heartbeats (cumulative; project, DRF, ORM)")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(
        r"/(executors|registry|config)/|rest_framework/(views|serializers|request|response)\.py"
        r"|django/db/models/(query|sql/compiler)\.py|django/core/handlers/base\.py", 30)


# 2. The sweep over 100,000 executors -------------------------------------------------------


def insert_lapsed_executors(count: int, lapsed_at) -> None:
    """`count` healthy executors whose lease ran out at `lapsed_at`, spread over SWEEP_CHAINS,
    with COPY into vacuumed tables; then ANALYZE, as autovacuum would after such a load."""
    from django.db import connection

    from executors.models import Executor

    remove_chains(SWEEP_CHAINS)  # what an interrupted run left behind
    chains = list(SWEEP_CHAINS)
    for chain_id in chains:
        ensure_chain(chain_id, f"bench-sweep-{chain_id}")
    columns = ("id", "chain_id", "address", "name", "endpoint_url", "version", "capabilities",
               "metadata", "registered_by", "status", "status_changed_at", "registered_at",
               "last_heartbeat_at", "lease_expires_at")
    heartbeat_at = lapsed_at - timedelta(seconds=30)
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {Executor._meta.db_table} ({', '.join(columns)}) "
                                "FROM STDIN") as copy:
            for n in range(count):
                copy.write_row((
                    uuid.uuid4(), chains[n * len(chains) // count], "0x" + f"{0x5EE00000 + n:040x}",
                    "", "", "", "[]", "{}", BENCH_NAME, "healthy", heartbeat_at,
                    heartbeat_at, heartbeat_at, lapsed_at,
                ))
        cursor.execute(f"ANALYZE {Executor._meta.db_table}")


def timed_sweep(label: str, now, target: float = 2.0) -> float:
    from executors.sweep import executor_leases_expire

    started = time.perf_counter()
    report = executor_leases_expire(now)
    seconds = time.perf_counter() - started
    held = f", held back on {len(report.held_back)} chains ({sum(report.held_back.values())} " \
           f"executors)" if report.held_back else ""
    say(f"{label:<50} {seconds:6.3f} s   stale {report.stale:6d}, offline {report.offline:6d}"
        f"{held}   {'PASS' if seconds <= target else 'FAIL'}")
    return seconds


def renew_all_but(share: float, lapsed_at, renewed_until) -> None:
    """Back to a steady state: every sweep executor healthy, all but `share` of them with a
    lease until `renewed_until` (as if they had heartbeated), the others lapsed at
    `lapsed_at`; then VACUUM, as a steady table would be."""
    from django.db import connection

    from executors.models import Executor

    every = round(1 / share)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Executor._meta.db_table} SET status = 'healthy', lease_expires_at = "
            "CASE WHEN ('x' || right(address, 8))::bit(32)::int %% %s = 0 "  # sequence number
            "THEN %s ELSE %s END WHERE chain_id = ANY(%s)",
            [every, lapsed_at, renewed_until, list(SWEEP_CHAINS)],
        )
    vacuum()


def bench_sweep(count: int) -> float:
    from django.conf import settings
    from django.utils import timezone

    from executors.models import Executor

    lease, grace = settings.EXECUTOR_LEASE_SECONDS, settings.EXECUTOR_GRACE_SECONDS
    lapsed_at = timezone.now() - timedelta(seconds=1)
    started = time.perf_counter()
    insert_lapsed_executors(count, lapsed_at)
    say("", f"== expiry sweep: {Executor.objects.count()} executors in the table "
        f"({count} inserted with COPY in {time.perf_counter() - started:.1f} s, "
        f"{len(SWEEP_CHAINS)} chains), lease {lease}s, grace {grace}s")
    before, after_grace = lapsed_at - timedelta(seconds=1), lapsed_at + timedelta(seconds=grace)
    timed_sweep("nothing due yet", before)
    headline = timed_sweep(f"all {count} leases ran out: healthy -> stale", lapsed_at)
    timed_sweep("grace over: all held back (self-preservation)", after_grace)
    share = settings.EXECUTOR_SELF_PRESERVATION_SHARE
    settings.EXECUTOR_SELF_PRESERVATION_SHARE = 1.0  # an operator's choice: never hold back
    try:
        timed_sweep("grace over, hold disabled: stale -> offline", after_grace)
    finally:
        settings.EXECUTOR_SELF_PRESERVATION_SHARE = share
    renew_all_but(0.01, lapsed_at, lapsed_at + timedelta(hours=1))
    timed_sweep("steady state, ~1 % lapsed: healthy -> stale", lapsed_at)
    timed_sweep("steady state, ~1 % past grace: stale -> offline", after_grace)
    say(f"one sweep of {count} lapsed executors: {headline:.3f} s   (target: at most 2 s)  "
        f"{'PASS' if headline <= 2 else 'FAIL'}")
    return headline


def main():
    parser = harness.arguments(__doc__.split("\n")[0], seconds=3, rounds=7)
    parser.add_argument("--executors", type=int, default=200)
    parser.add_argument("--sweep-executors", type=int, default=100_000, help="0: no sweep")
    parser.add_argument("--profile", action="store_true",
                        help="Also profile heartbeats in-process (cProfile, django.test.Client).")
    args = parser.parse_args()

    env = bench_env()
    ensure_database(env)
    setup_django(env)
    key = harness.create_api_key(env, BENCH_NAME, "executor")
    remove_chains([HEARTBEAT_CHAIN])  # what an interrupted run left, registered by a lost key
    ensure_chain(HEARTBEAT_CHAIN, "bench-heartbeats")
    try:
        ratio, ids = bench_heartbeats(env, key, args)
        if args.profile:
            profile_heartbeats(key, ids)
        remove_chains([HEARTBEAT_CHAIN])  # the sweep's counts are of its own executors only
        summary = [f"heartbeats {ratio:.1%} of healthz (target: at least 60 %)"]
        if args.sweep_executors:
            seconds = bench_sweep(args.sweep_executors)
            summary.append(f"sweep of {args.sweep_executors} lapsed executors {seconds:.2f} s "
                           "(target: at most 2 s)")
        say("", "== summary: " + "; ".join(summary))
    finally:
        remove_chains([HEARTBEAT_CHAIN, *SWEEP_CHAINS])
        from registry.models import ApiKey

        ApiKey.objects.filter(name=BENCH_NAME).delete()


if __name__ == "__main__":
    main()

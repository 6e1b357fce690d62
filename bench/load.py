"""Mixed load: verify 80 %, queries 15 %, heartbeats 5 %, at a fixed concurrency for 60 s
against gunicorn on PostgreSQL; prints throughput, p50/p99 per kind and overall, and errors.

Target (issue 9): no errors; p99 within 2x of the single-endpoint figures, which the run
measures too (each kind alone, same concurrency, a short round before the mixed one).

    .venv/bin/python bench/load.py [--seconds 60] [--concurrency 8] [--workers 2]
        [--attestations 200000] [--executors 200] [--single-seconds 10]

Data: bench/verify.py's chain and attestations (loaded once, kept), bench/heartbeats.py's
executors, in the database of DATABASE_URL (default: a local `chain_registry_bench_load`).
"""

import os
import random
import threading

import harness
import heartbeats
import verify
from harness import gunicorn, load, say

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/chain_registry_bench_load"
BENCH_NAME = "bench-load"
MIX = (("verify", 80), ("query", 15), ("heartbeat", 5))


def query_requests(key: str):
    headers = {"X-API-Key": key}
    paths = [f"/attestations?chainId={verify.CHAIN}&limit=20", "/chains",
             f"/schemas?chainId={verify.CHAIN}",
             f"/attestations?chainId={verify.CHAIN}&revoked=true&limit=5"]
    rng, lock = random.Random(3), threading.Lock()

    def make():
        with lock:
            path = rng.choice(paths)
        return "GET", path, headers, None

    return make


def mixed(factories: dict):
    """One factory drawing each request's kind by MIX."""
    kinds = [kind for kind, weight in MIX for _ in range(weight)]
    rng, lock = random.Random(4), threading.Lock()

    def make():
        with lock:
            kind = rng.choice(kinds)
        return factories[kind]()

    return make


def main():
    parser = harness.arguments(__doc__.split("\n")[0], seconds=60)
    parser.add_argument("--single-seconds", type=float, default=10)
    parser.add_argument("--attestations", type=int, default=200_000)
    parser.add_argument("--executors", type=int, default=200)
    args = parser.parse_args()

    env = harness.django_database(DATABASE_URL=os.environ.get("DATABASE_URL", DATABASE_URL))
    verify.prepare_attestations(args.attestations)
    heartbeats.ensure_chain(heartbeats.HEARTBEAT_CHAIN, "bench-heartbeats")
    key = harness.create_api_key(env, BENCH_NAME, "admin")  # admin: verify, queries and heartbeats
    try:
        with gunicorn(env, workers=args.workers) as port:
            ids = heartbeats.register_executors(port, key, args.executors)
            factories = {"verify": verify.verify_requests(key, args.attestations),
                         "query": query_requests(key),
                         "heartbeat": heartbeats.heartbeat_requests(key, ids)}
            load(port, "warm-up", mixed(factories), seconds=2, concurrency=args.concurrency)
            single = {kind: load(port, f"{kind} alone", factory, seconds=args.single_seconds,
                                 concurrency=args.concurrency)
                      for kind, factory in factories.items()}
            result = load(port, "mixed", mixed(factories), seconds=args.seconds,
                          concurrency=args.concurrency)
    finally:
        from registry.models import ApiKey

        ApiKey.objects.filter(name=BENCH_NAME).delete()
    say("", f"== mixed load: {dict(MIX)} %, gunicorn workers={args.workers}, "
            f"concurrency={args.concurrency}, {args.seconds:.0f} s, "
            f"{args.attestations} attestations",
        *(r.line() for r in single.values()), result.line())
    worst_single = max(r.percentile(99) for r in single.values())
    ratio = result.percentile(99) / worst_single if worst_single else 0
    say(f"errors: {result.errors}  (target 0)  {'PASS' if result.errors == 0 else 'FAIL'}",
        f"mixed p99 / worst single-endpoint p99: {ratio:.2f}  (target at most 2)  "
        f"{'PASS' if ratio <= 2 else 'FAIL'}")


if __name__ == "__main__":
    main()

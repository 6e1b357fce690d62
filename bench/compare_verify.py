"""What a change does to POST /v1/verify, measured against another checkout side by side.

On a shared host the machine's speed drifts by half between spells, more than most changes
move the figures of bench/verify.py. This serves both checkouts at once (two gunicorns on
the same database) and alternates between them round by round, so that a spell weighs on
both alike: per checkout, verify and /healthz throughput and CPU per request, and the
paired verify/healthz ratios as bench/verify.py prints them.

    git worktree add /tmp/before <commit> && cp .env /tmp/before/   # the same SECRET_KEY
    .venv/bin/python bench/compare_verify.py /tmp/before [--rounds 9] [--seconds 3] [--cold]

The other checkout runs on this one's virtualenv; run bench/verify.py first (it loads the
attestations and migrates the database: both checkouts must accept that schema), with the
same DATABASE_URL and --attestations when not the default.
"""

import os
from contextlib import ExitStack
from pathlib import Path

import harness
from harness import ROOT, Paired, bench_env, gunicorn, load, merge, paired_rounds, say
from verify import (
    DATABASE_URL,
    VERIFY,
    cache_argument,
    cache_line,
    measured_round,
    verify_requests,
)


def main():
    parser = harness.arguments(__doc__.splitlines()[0], seconds=3, rounds=9)
    parser.add_argument("other", type=Path, help="the checkout to compare with")
    parser.add_argument("--attestations", type=int, default=1_000_000)
    cache_argument(parser)
    args = parser.parse_args()
    env = bench_env(DATABASE_URL=os.environ.get("DATABASE_URL", DATABASE_URL))
    harness.setup_django(env)
    key = harness.create_api_key(env, "bench-compare-verify", "api")
    requests = (("GET /healthz", harness.healthz),
                (VERIFY, verify_requests(key, args.attestations)))
    roots = {"this": ROOT, "other": args.other.resolve()}
    pairs = {name: Paired([], []) for name in roots}
    cpu = {(name, request): harness.CpuUse() for name in roots for request, _ in requests}
    warmed = []
    with ExitStack() as stack:
        ports = {name: stack.enter_context(gunicorn(env, workers=args.workers, root=root))
                 for name, root in roots.items()}
        for port in ports.values():  # warm both up: imports, connections, prepared statements
            for _name, make in requests:
                load(port, "warm-up", make, seconds=1, concurrency=args.concurrency)
        for _ in range(args.rounds):  # one pair on each checkout in turn
            for name, port in ports.items():
                pair = paired_rounds(port, *requests, rounds=1, seconds=args.seconds,
                                     concurrency=args.concurrency,
                                     around=lambda request, name=name, port=port:
                                     measured_round(request, cpu[name, request], port,
                                                    cold=args.cold, warmed=warmed))
                pairs[name].baseline.extend(pair.baseline)
                pairs[name].measured.extend(pair.measured)
    say(f"== POST /v1/verify against GET /healthz, {args.rounds} alternating rounds x "
        f"{args.seconds}s, concurrency {args.concurrency}", cache_line(args.cold, warmed))
    for name, paired in pairs.items():
        say(f"{name}: {roots[name]}")
        for (request, _), results in zip(requests, (paired.baseline, paired.measured)):
            served = merge(results)
            say(f"  {served.line()}   CPU {cpu[name, request].per_request(served.requests)}")
        say(*(f"  {line}" for line in paired.lines("verify / healthz throughput", 0.7)))


if __name__ == "__main__":
    main()

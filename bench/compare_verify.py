"""What a change does to POST /v1/verify, measured against another checkout side by side.

On a shared host the machine's speed drifts by half between spells, more than most changes
move the figures of bench/verify.py. This serves both checkouts at once (two gunicorns on
the same database) and alternates between them round by round, so that a spell weighs on
both alike: per checkout, verify and /healthz throughput and CPU per request, and the
median of the paired verify/healthz ratios.

    git worktree add /tmp/before <commit> && cp .env /tmp/before/   # the same SECRET_KEY
    .venv/bin/python bench/compare_verify.py /tmp/before [--rounds 9] [--seconds 3]

The other checkout runs on this one's virtualenv; run bench/verify.py first (it loads the
attestations and migrates the database: both checkouts must accept that schema).
"""

import statistics
from contextlib import ExitStack
from pathlib import Path

import harness
from harness import ROOT, bench_env, gunicorn, load, say
from verify import DATABASE_URL, verify_requests


def main():
    parser = harness.arguments(__doc__.splitlines()[0], seconds=3, rounds=9)
    parser.add_argument("other", type=Path, help="the checkout to compare with")
    parser.add_argument("--attestations", type=int, default=1_000_000)
    args = parser.parse_args()
    env = bench_env(DATABASE_URL=DATABASE_URL)
    harness.setup_django(env)
    key = harness.create_api_key(env, "bench-compare-verify", "api")
    verify = verify_requests(key, args.attestations)
    healthz = lambda: ("GET", "/healthz", {}, None)  # noqa: E731
    roots = {"this": ROOT, "other": args.other.resolve()}
    with ExitStack() as stack:
        ports = {name: stack.enter_context(gunicorn(env, workers=args.workers, root=root))
                 for name, root in roots.items()}
        for port in ports.values():  # warm both up: imports, connections, prepared statements
            for make in (verify, healthz):
                load(port, "warm-up", make, seconds=1, concurrency=args.concurrency)
        rounds = {name: [] for name in ports}
        for _ in range(args.rounds):
            for name, port in ports.items():
                pair = []
                for make in (healthz, verify):
                    cpu = harness.CpuUse()
                    with cpu.measuring(port):
                        result = load(port, name, make, seconds=args.seconds,
                                      concurrency=args.concurrency)
                    pair.append((result.rps, cpu.per_request(result.requests).total))
                rounds[name].append(pair)
    say(f"== POST /v1/verify against GET /healthz, {args.rounds} alternating rounds x "
        f"{args.seconds}s, concurrency {args.concurrency}, medians")
    for name, pairs in rounds.items():
        ratio = statistics.median(v[0] / h[0] for h, v in pairs)
        say(f"{name:6s} {roots[name]}\n"
            f"       healthz {statistics.median(h[0] for h, _ in pairs):7.1f} req/s "
            f"{statistics.median(h[1] for h, _ in pairs):5.0f} us CPU   verify "
            f"{statistics.median(v[0] for _, v in pairs):7.1f} req/s "
            f"{statistics.median(v[1] for _, v in pairs):5.0f} us CPU   verify/healthz "
            f"{ratio:.1%}   (pairs: {' '.join(f'{v[0] / h[0]:.0%}' for h, v in pairs)})")


if __name__ == "__main__":
    main()

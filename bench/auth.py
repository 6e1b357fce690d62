"""Cost of key authentication: authenticated GET /v1/admin/chains next to GET /healthz.

Both run on the same gunicorn against PostgreSQL, in interleaved rounds, next to the same
list served without authentication by a second gunicorn (bench/wsgi_without_auth.py): the
difference is what authentication costs. Also counts the writes to the API key table during
the run (the target: none per request).

    .venv/bin/python bench/auth.py [--seconds 5] [--rounds 3] [--concurrency 8]

Set DATABASE_URL to use another database (default: a local PostgreSQL `chain_registry_bench`).
"""

import harness
from harness import ROOT, gunicorn, load, merge, say


def key_table_updates(env) -> int:
    return harness.psql_value(
        env, "SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'registry_apikey'")


def in_process_share(env, key: str, repeat: int = 2000) -> tuple[float, float]:
    """Microseconds of authenticate_key() (cache warm) and of a whole authenticated request
    through Django's handler, in this process: the share of the work that is authentication."""
    import os
    import sys
    import time

    sys.path.insert(0, str(ROOT))
    os.environ.update({k: v for k, v in env.items() if k in ("DATABASE_URL", "LOG_LEVEL")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test import Client

    from registry.authentication import authenticate_key

    client = Client(HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_HOST="127.0.0.1")
    client.get("/v1/admin/chains")
    started = time.perf_counter()
    for _ in range(repeat):
        authenticate_key(key)
    auth_us = (time.perf_counter() - started) / repeat * 1e6
    started = time.perf_counter()
    for _ in range(repeat // 10):
        client.get("/v1/admin/chains")
    request_us = (time.perf_counter() - started) / (repeat // 10) * 1e6
    return auth_us, request_us


def main():
    parser = harness.arguments(__doc__.split("\n")[0])
    args = parser.parse_args()

    env, key = harness.keyed_database("bench-auth", "admin")

    healthz = harness.healthz
    chains = lambda: ("GET", "/v1/admin/chains", {"Authorization": f"Bearer {key}"}, None)  # noqa: E731
    chains_open = lambda: ("GET", "/v1/admin/chains", {}, None)  # noqa: E731
    names = ("GET /healthz", "GET /v1/admin/chains (auth)", "GET /v1/admin/chains (no auth)")
    runs = {name: [] for name in names}
    # Two servers, run one at a time (an idle one takes no CPU): the service as deployed, and
    # the same code with authentication switched off for this one endpoint.
    with gunicorn(env, workers=args.workers) as port, \
            gunicorn(env, workers=args.workers, app="wsgi_without_auth:application",
                     pythonpath=str(ROOT / "bench")) as open_port:
        load(port, "warm-up", chains, seconds=1, concurrency=args.concurrency)
        load(open_port, "warm-up", chains_open, seconds=1, concurrency=args.concurrency)
        updates_before = key_table_updates(env)
        for _ in range(args.rounds):
            for name, target, make in zip(names, (port, port, open_port),
                                          (healthz, chains, chains_open)):
                runs[name].append(load(target, name, make, seconds=args.seconds,
                                       concurrency=args.concurrency))
        updates = key_table_updates(env) - updates_before

    health, authed, open_ = (merge(runs[name]) for name in names)
    say(
        f"gunicorn workers={args.workers} concurrency={args.concurrency} "
        f"rounds={args.rounds} x {args.seconds}s each",
        health.line(),
        authed.line(),
        open_.line(),
        f"authenticated list / healthz throughput: {authed.rps / health.rps:.1%}",
        f"cost of authentication (same endpoint with / without it): "
        f"{1 - authed.rps / open_.rps:.1%} of throughput (target: under 20 %)",
        f"writes to the API key table during {authed.requests} authenticated requests: {updates}",
    )
    auth_us, request_us = in_process_share(env, key)
    say(
        f"in-process: authenticate_key() {auth_us:.0f} us of a {request_us:.0f} us authenticated "
        f"GET /v1/admin/chains ({auth_us / request_us:.1%} of its server time)",
    )


if __name__ == "__main__":
    main()

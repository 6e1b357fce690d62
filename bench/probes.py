"""One RPC probe cycle over 500 endpoints: its wall time against one probe timeout.

Live anvil nodes, closed ports and a slow server that answers after the timeout are registered
as 500 RpcEndpoints of one chain (distinct URLs on the same servers: a query string varies
them, http://127.0.0.1:PORT/?n=17), all with the same timeoutMs. Then probe_rpcs(due_only=False)
runs several times (target: a cycle takes at most 2 × the timeout), and once more split into
its network part (probe_endpoints) and its database part (apply_results). No gunicorn.

Everything it inserts is removed at the end, and every process it started is stopped by pid.

    .venv/bin/python bench/probes.py [--endpoints 500] [--anvils 5] [--slow 100] [--closed 150]
        [--timeout-ms 1000] [--cycles 3] [--concurrency N]

Set DATABASE_URL to use another database (default: a local PostgreSQL `chain_registry_bench`).
"""

import argparse
import os
import signal
import subprocess
import sys
import time
from collections import Counter

from harness import PYTHON, ROOT, django_database, say

BENCH_CHAIN = 900_400

# The slow server runs in a process of its own, so that its threads do not compete with the
# probe loop for this process's GIL.
SLOW_SERVER = """
import sys, time
from tests.anvil import StubRpc
stub = StubRpc(delay=float(sys.argv[1]), chain_id=int(sys.argv[2])).start()
print(stub.url, flush=True)
while True:
    time.sleep(3600)
"""


def start_slow_server(delay: float) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([PYTHON, "-c", SLOW_SERVER, str(delay), str(BENCH_CHAIN)],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
    return process, process.stdout.readline().strip()


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def register(chain, urls: list[str], timeout_ms: int) -> None:
    from registry.models import RpcEndpoint

    RpcEndpoint.objects.bulk_create([
        RpcEndpoint(chain=chain, url=url, provider="bench", probe_timeout_ms=timeout_ms)
        for url in urls
    ])


def endpoint_urls(args, anvils, slow_url: str) -> dict[str, list[str]]:
    from tests.anvil import free_port

    live = args.endpoints - args.slow - args.closed
    closed_ports = [free_port() for _ in range(10)]  # bound and released: nothing listens
    return {
        "live": [f"{anvils[n % len(anvils)].url}/?n={n}" for n in range(live)],
        "slow": [f"{slow_url}/?n={n}" for n in range(args.slow)],
        "closed": [f"http://127.0.0.1:{closed_ports[n % 10]}/?n={n}" for n in range(args.closed)],
    }


def error_kinds(chain) -> Counter:
    from registry.models import RpcEndpoint

    errors = RpcEndpoint.objects.filter(chain=chain).values_list("last_error", flat=True)
    return Counter(error.split(":")[0] if error else "-" for error in errors)


def bench(args, chain, anvils, slow_url: str) -> bool:
    from registry.models import RpcEndpoint
    from registry.probes import apply_results, probe_endpoints, probe_rpcs

    urls = endpoint_urls(args, anvils, slow_url)
    register(chain, [url for group in urls.values() for url in group], args.timeout_ms)
    say(f"{args.endpoints} endpoints: {len(urls['live'])} on {len(anvils)} anvil nodes, "
        f"{len(urls['slow'])} on a server answering after {args.timeout_ms * 1.5:.0f} ms, "
        f"{len(urls['closed'])} on closed ports; timeout {args.timeout_ms} ms each", "")

    limit = 2 * args.timeout_ms / 1000
    walls = []
    for cycle in range(1, args.cycles + 1):
        started = time.perf_counter()
        summary = probe_rpcs(due_only=False, chain=chain)
        walls.append(time.perf_counter() - started)
        counts = ", ".join(f"{k} {v}" for k, v in summary.items())
        say(f"cycle {cycle}: {walls[-1]:6.3f} s = {walls[-1] * 1000 / args.timeout_ms:4.2f} "
            f"× timeout   ({counts})")

    endpoints = list(RpcEndpoint.objects.filter(chain=chain))
    started = time.perf_counter()
    results = probe_endpoints(endpoints)
    network = time.perf_counter() - started
    apply_results(results)
    database = time.perf_counter() - started - network
    say("", f"split cycle: network {network:6.3f} s, database {database:6.3f} s "
            f"(update of {len(results)} endpoints and their history rows)",
        f"last errors: {dict(error_kinds(chain))}")

    worst = max(walls)
    passed = worst <= limit
    say("", f"worst cycle {worst:.3f} s, target ≤ {limit:.3f} s (2 × {args.timeout_ms} ms): "
            f"{'PASS' if passed else 'FAIL'}")
    return passed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endpoints", type=int, default=500)
    parser.add_argument("--anvils", type=int, default=5)
    parser.add_argument("--slow", type=int, default=100)
    parser.add_argument("--closed", type=int, default=150)
    parser.add_argument("--timeout-ms", type=int, default=1000)
    parser.add_argument("--cycles", type=int, default=3)
    parser.add_argument("--concurrency", type=int,
                        help="RPC_PROBE_CONCURRENCY for this run (default: the setting's)")
    args = parser.parse_args()
    if args.slow + args.closed > args.endpoints:
        parser.error("--slow and --closed leave no live endpoints")

    env = django_database()
    from django.conf import settings

    from registry.models import Chain
    from tests.anvil import Anvil

    if args.concurrency:
        settings.RPC_PROBE_CONCURRENCY = args.concurrency
    say(f"database {env['DATABASE_URL']}, RPC_PROBE_CONCURRENCY {settings.RPC_PROBE_CONCURRENCY}")
    Chain.objects.filter(chain_id=BENCH_CHAIN).delete()  # what a crashed run left behind
    chain = Chain.objects.create(chain_id=BENCH_CHAIN, name="Bench probes",
                                 short_name="bench-probes")
    anvils, slow = [], None
    try:
        for _ in range(args.anvils):
            anvils.append(Anvil(BENCH_CHAIN).start())
        slow, slow_url = start_slow_server(delay=args.timeout_ms * 1.5 / 1000)
        return 0 if bench(args, chain, anvils, slow_url) else 1
    finally:
        for node in anvils:
            node.stop()
        if slow is not None:
            stop(slow)
        chain.delete()  # its endpoints and their probe history go with it


if __name__ == "__main__":
    sys.exit(main())

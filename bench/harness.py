"""Shared pieces of the benchmarks: a gunicorn server on a free port and a load generator.

The load generator is plain Python threads (no extra tools): it shares the machine with the
server, so absolute figures are lower than on separate hosts. Ratios measured in one run,
with rounds interleaved, are what the targets are about.
"""

import argparse
import http.client
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/chain_registry_bench"


SERVERS: dict[int, int] = {}  # port -> pid of the gunicorn master serving it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_env(**extra) -> dict:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    env.setdefault("LOG_LEVEL", "WARNING")
    for scope in ("ADMIN", "API", "EXECUTOR"):  # measure the service, not its rate limits
        env.setdefault(f"RATE_LIMIT_{scope}", "none")
    # Loads of millions of rows are single statements longer than the service's timeout.
    env.setdefault("DB_STATEMENT_TIMEOUT_SECONDS", "0")
    env.update(extra)
    return env


def setup_django(env) -> None:
    """Django in this process, on the benchmark's database (for data, sweeps, profiling)."""
    sys.path.insert(0, str(ROOT))
    os.environ.update({k: v for k, v in env.items()
                       if k in ("DATABASE_URL", "LOG_LEVEL", "DB_STATEMENT_TIMEOUT_SECONDS")
                       or k.startswith("RATE_LIMIT_")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def manage(*args, env) -> str:
    done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    return done.stdout


def create_api_key(env, name: str, scope: str) -> str:
    """A new API key of `scope`, through the management command (it prints it last)."""
    return manage("create_api_key", "--name", name, "--scope", scope,
                  env=env).strip().splitlines()[-1]


def psql(url: str, sql: str, database: str | None = None) -> subprocess.CompletedProcess:
    """psql on the server of the PostgreSQL `url` (a private primary's has its own port),
    in its database or in `database`."""
    if database is not None:
        url = urlunsplit(urlsplit(url)._replace(path=f"/{database}"))
    return subprocess.run(["psql", url, "-tAqc", sql], capture_output=True, text=True)


def psql_value(env, sql: str) -> int:
    """The integer `sql` answers in the benchmark database, read with psql (outside the
    Django connection, whose own statistics it must not disturb)."""
    done = psql(env["DATABASE_URL"], sql)
    done.check_returncode()
    return int(done.stdout.strip() or 0)


def ensure_database(env) -> None:
    """Create the benchmark database if needed and migrate it."""
    url = env["DATABASE_URL"]
    if url.startswith("postgres"):
        name = urlsplit(url).path.lstrip("/")
        psql(url, f"CREATE DATABASE {name}", database="postgres")  # fails when it exists
    manage("migrate", "--no-input", "-v", "0", env=env)


def django_database(**extra) -> dict:
    """The benchmark environment (bench_env), its database migrated, and Django set up on it
    in this process."""
    env = bench_env(**extra)
    ensure_database(env)
    setup_django(env)
    return env


def keyed_database(key_name: str, scope: str) -> tuple[dict, str]:
    """The benchmark environment, its database migrated and seeded with chains, and a new
    API key of `scope` (for benches that only send requests)."""
    env = bench_env()
    ensure_database(env)
    key = create_api_key(env, key_name, scope)
    seed_chains(env)
    return env, key


@contextmanager
def gunicorn(env, workers: int = 2, app: str = "config.wsgi:application",
             pythonpath: str | None = None, root: Path = ROOT):
    """gunicorn serving the checkout at `root` (this one by default) on a free port."""
    port = free_port()
    extra = ["--pythonpath", pythonpath] if pythonpath else []
    # gunicorn.conf.py's settings, but no recycling of workers after max_requests: the CPU
    # figures follow the workers by process id, and a bench measures a request's own cost.
    env = {**env, "GUNICORN_MAX_REQUESTS": "0"}
    proc = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", app, "-b", f"127.0.0.1:{port}",
         "-w", str(workers), "--log-level", "warning", *extra],
        cwd=root, env=env,
    )
    try:
        deadline = time.time() + 90  # a loaded machine (shared CPUs) starts slowly
        while True:
            try:
                status = request(port, "GET", "/healthz")[0]
                if status == 200:
                    break
            except OSError:
                pass
            if time.time() > deadline or proc.poll() is not None:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.2)
        SERVERS[port] = proc.pid
        yield port
    finally:
        SERVERS.pop(port, None)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


@contextmanager
def serve(env, args):
    """gunicorn (args.workers), behind nginx with deploy/nginx.conf when `--front nginx`
    (what docker-compose.yml publishes); yields the port the load goes to. Through the
    front, CPU figures still count gunicorn's workers only (not nginx)."""
    from front import nginx_front

    with gunicorn(env, workers=args.workers) as port:
        if args.front != "nginx":
            yield port
            return
        with nginx_front(port) as front_port:
            SERVERS[front_port] = SERVERS[port]
            try:
                yield front_port
            finally:
                SERVERS.pop(front_port, None)


def cpu_seconds(pids) -> float:
    """User + system CPU time the processes `pids` have used so far (Linux /proc)."""
    return sum(_cpu_each(pids).values())


def _cpu_each(pids) -> dict[int, float]:
    """User + system CPU seconds of each of `pids` that is still running."""
    used = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue  # ended
        used[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return used


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return [int(child) for child in listing.read().split()]


def request(port: int, method: str, path: str, headers=None, body: bytes | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@dataclass
class LoadResult:
    name: str
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else 0.0

    def line(self) -> str:
        return (f"{self.name:<32} {self.rps:9.1f} req/s   p50 {self.percentile(50):6.2f} ms   "
                f"p99 {self.percentile(99):6.2f} ms   errors {self.errors}")


def timed(name: str, call, *, seconds: float, concurrency: int) -> LoadResult:
    """Call `call()` from `concurrency` threads for `seconds`; a call that returns False
    counts as an error. Any measured thing: an HTTP request, a web3.py lookup."""
    latencies, errors, lock = [], [0], threading.Lock()
    stop_at = time.perf_counter() + seconds

    def worker():
        mine, failed = [], 0
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            succeeded = call()
            mine.append((time.perf_counter() - started) * 1000)
            failed += succeeded is False
        with lock:
            latencies.extend(mine)
            errors[0] += failed

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return LoadResult(name, len(latencies), errors[0], time.perf_counter() - started, latencies)


def load(port: int, name: str, make_request, *, seconds: float, concurrency: int,
         ok=(200,)) -> LoadResult:
    """Call `make_request()` -> (method, path, headers, body) from `concurrency` threads."""

    def call() -> bool:
        method, path, headers, body = make_request()
        try:
            status, _ = request(port, method, path, headers, body)
        except OSError:
            return False
        return status in ok

    return timed(name, call, seconds=seconds, concurrency=concurrency)


def healthz():
    """The baseline request of every ratio target: GET /healthz (for `load`)."""
    return "GET", "/healthz", {}, None


def arguments(description: str, *, seconds: float = 5, rounds: int = 3) -> argparse.ArgumentParser:
    """The options every HTTP benchmark takes; a script adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=seconds)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--front", choices=("direct", "nginx"), default="direct",
                        help="nginx: the load goes through deploy/nginx.conf in front of "
                             "gunicorn, as docker-compose.yml publishes the service")
    return parser


def seed_chains(env, count: int = 10) -> None:
    """`count` active chains (900000...) for the list endpoints to return."""
    manage("shell", "-c", (
        "from registry.models import Chain\n"
        f"for i in range({count}):\n"
        "    Chain.objects.get_or_create(chain_id=900000 + i, defaults={'name': f'Bench {i}', "
        "'short_name': f'bench-{i}'})"
    ), env=env)


def attest_all(w3, deployment, sender, count: int, per_tx: int,
               schema: str = "bytes32 documentHash") -> str:
    """`count` attestations of `schema` (registered first) on an anvil with the EAS
    contracts, `per_tx` per multiAttest transaction (bench/indexer.py, indexer_chains.py).
    Returns the schema's uid."""
    from attestations import eas as eas_contracts

    schema_uid = eas_contracts.register_schema(w3, deployment.schema_registry, schema,
                                               sender=sender)
    for start in range(0, count, per_tx):
        data = [(i + 1).to_bytes(32, "big") for i in range(start, min(count, start + per_tx))]
        eas_contracts.multi_attest(w3, deployment.eas, schema_uid=schema_uid, data=data,
                                   sender=sender)
    return schema_uid


def merge(results: list[LoadResult]) -> LoadResult:
    return LoadResult(
        results[0].name,
        sum(r.requests for r in results),
        sum(r.errors for r in results),
        sum(r.seconds for r in results),
        [ms for r in results for ms in r.latencies_ms],
    )


def median(values):
    return statistics.median(values)


@dataclass
class Paired:
    """Interleaved rounds of a baseline and a measured request: round i of each ran back to
    back, so that a slow spell of the machine (a shared host) weighs on both of a pair."""

    baseline: list[LoadResult]
    measured: list[LoadResult]

    @property
    def ratios(self) -> list[float]:
        return [m.rps / b.rps for b, m in zip(self.baseline, self.measured)]

    @property
    def median_ratio(self) -> float:
        return median(self.ratios)

    @property
    def pooled_ratio(self) -> float:
        return merge(self.measured).rps / merge(self.baseline).rps

    def lines(self, label: str, target: float) -> list[str]:
        ratios = " ".join(f"{r:.1%}" for r in self.ratios)
        verdict = "PASS" if self.median_ratio >= target else "FAIL"
        return [
            f"{label}: median of {len(self.ratios)} paired rounds {self.median_ratio:.1%}   "
            f"(target: at least {target:.0%})  {verdict}",
            f"  each pair: {ratios}; all rounds pooled: {self.pooled_ratio:.1%}",
        ]


def paired_rounds(port: int, baseline, measured, *, rounds: int, seconds: float,
                  concurrency: int, around=None) -> Paired:
    """`rounds` pairs of (baseline, measured) load rounds; `around(name)` is an optional
    context manager entered around each round (CPU accounting, say)."""
    pairs = Paired([], [])
    for _ in range(rounds):
        for (name, make), results in ((baseline, pairs.baseline), (measured, pairs.measured)):
            with (around(name) if around else nullcontext()):
                results.append(load(port, name, make, seconds=seconds, concurrency=concurrency))
    return pairs


def say(*lines):
    print(*lines, sep="\n", flush=True)
    sys.stdout.flush()


# CPU accounting ---------------------------------------------------------------------------


@dataclass
class CpuShare:
    server: float
    database: float
    client: float

    @property
    def total(self) -> float:
        return self.server + self.database + self.client

    def __str__(self):
        return (f"gunicorn workers {self.server:5.0f}   PostgreSQL {self.database:4.0f}   "
                f"load generator {self.client:4.0f}   total {self.total:5.0f}")


class CpuUse:
    """CPU seconds used while measuring: gunicorn's workers, the PostgreSQL backends of the
    benchmark's database, and this process (the load generator)."""

    def __init__(self, backends=None):
        self.server = self.database = self.client = 0.0
        self.backends = backends or database_backends  # the PostgreSQL processes counted

    @contextmanager
    def measuring(self, port: int):
        workers = children(SERVERS[port])
        before = (cpu_seconds(workers), _cpu_each(self.backends()), own_cpu_seconds())
        yield
        after = (cpu_seconds(workers), _cpu_each(self.backends()), own_cpu_seconds())
        self.server += after[0] - before[0]
        # Backends come and go (a worker reconnects after DB_CONN_MAX_AGE): one that started
        # during the round counts whole, and one that ended is left out rather than taken
        # off with all it used before (what it used in the round until it ended is lost).
        self.database += sum(used - before[1].get(pid, 0.0) for pid, used in after[1].items())
        self.client += after[2] - before[2]

    def per_request(self, requests: int) -> CpuShare:
        return CpuShare(*(seconds / requests * 1e6
                          for seconds in (self.server, self.database, self.client)))


def database_backends() -> list[int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid()")
        return [pid for (pid,) in cursor.fetchall()]


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

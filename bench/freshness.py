"""Freshness: from a block being mined to what it holds verifying through POST /v1/verify.

Targets (issue 20, at confirmations 1): p50 <= 1 block + 1 s, p99 <= 2 blocks + 2 s.

The pieces, for other benchmarks (bench/binding.py) and tests (tests/stack):
- `BlockClock(rpc_url)`: a thread that polls the node's eth_blockNumber every 20 ms and
  notes when each block first showed: the "mined" time, 20 ms late at most.
- `VerifyWatch(service_url, api_key)`: a thread that asks POST /v1/verify/batch every 50 ms
  (`every`) about the document hashes given to it that have not verified yet, and notes
  when each first verified.
- `freshness(clock, watch, blocks)`: seconds from mined to verified, per document hash
  (`blocks`: {document hash: block number of its attestation}); `summary(...)`: p50, p99
  and the targets at the clock's block time.

Against a running service whose chain is the node at `--rpc` (the node's first account, which
attests, trusted; the chain's confirmations 1 for the targets as stated):

    .venv/bin/python bench/freshness.py --service http://127.0.0.1:8000 --api-key KEY \
        --rpc http://127.0.0.1:8545 --eas 0xEAS... --schema 0xSCHEMA... [--count 30]

It attests `--count` random document hashes one after the other and prints the summary.
"""

import argparse
import json
import math
import os
import re
import secrets
import statistics
import sys
import threading
import time
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class _Poller:
    """A daemon thread calling `poll()` every `every` seconds until stopped."""

    every = 0.05

    def __enter__(self):
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self):
        while not self._stop.wait(self.every):
            try:
                self.poll()
            except requests.RequestException:
                pass  # a missed poll: the next one is 20-50 ms away

    def poll(self):
        raise NotImplementedError


class BlockClock(_Poller):
    every = 0.02

    def __init__(self, rpc_url: str):
        self.rpc_url, self.session = rpc_url, requests.Session()
        self.first_seen: dict[int, float] = {}  # block number -> time.time() it showed

    def poll(self):
        answer = self.session.post(self.rpc_url, json={
            "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": []}, timeout=2)
        head, now = int(answer.json()["result"], 16), time.time()
        self.first_seen.setdefault(head, now)

    def block_time(self) -> float:
        """The median time between consecutive blocks seen."""
        gaps = [self.first_seen[n] - self.first_seen[n - 1] for n in self.first_seen
                if n - 1 in self.first_seen]
        return statistics.median(gaps) if gaps else float("nan")

    def mined_at(self, block: int) -> float:
        """When `block` showed: that number's first poll, or the next block's (a poll
        missed it) at the latest."""
        later = [t for n, t in self.first_seen.items() if n >= block]
        return min(later) if later else float("nan")


class VerifyWatch(_Poller):
    def __init__(self, service_url: str, api_key: str, chain_id: int | None = None,
                 every: float | None = None):
        if every is not None:
            self.every = every
        self.url = service_url.rstrip("/") + "/v1/verify/batch"
        self.session = requests.Session()
        self.session.headers["X-API-Key"] = api_key
        self.chain_id = chain_id
        self.pending: set[str] = set()
        self.verified_at: dict[str, float] = {}
        self._lock = threading.Lock()

    def add(self, document_hash: str) -> None:
        with self._lock:
            self.pending.add(document_hash)

    def poll(self):
        with self._lock:
            pending = sorted(self.pending)
        for start in range(0, len(pending), 1000):  # every pending one, 1,000 a request
            body = {"documentHashes": pending[start:start + 1000],
                    **({"chainId": self.chain_id} if self.chain_id else {})}
            answer = self.session.post(self.url, json=body, timeout=10)
            now = time.time()
            answer.raise_for_status()
            with self._lock:
                for result in answer.json()["results"]:
                    if result["verified"]:
                        self.verified_at.setdefault(result["documentHash"], now)
                        self.pending.discard(result["documentHash"])

    def wait(self, timeout: float) -> bool:
        """Whether every hash given verified within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while self.pending and time.monotonic() < deadline:
            time.sleep(0.05)
        return not self.pending


class HeadClock:
    """A newHeads subscription on the node's websocket (anvil answers ws on its http port):
    when each block was pushed, as the follower is told of it (the stages' start)."""

    def __init__(self, rpc_url: str):
        self.url = "ws" + rpc_url.removeprefix("http")
        self.first_seen: dict[int, float] = {}

    def __enter__(self):
        from websockets.sync.client import connect

        self._ws = connect(self.url, compression=None).__enter__()
        self._ws.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "eth_subscribe",
                                  "params": ["newHeads"]}))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._ws.close()
        self._thread.join(timeout=5)

    def _run(self):
        from websockets.exceptions import ConnectionClosed

        try:
            for raw in self._ws:
                now, message = time.time(), json.loads(raw)
                if message.get("method") == "eth_subscription":
                    self.first_seen.setdefault(int(message["params"]["result"]["number"], 16),
                                               now)
        except ConnectionClosed:
            pass


class RowWatch(_Poller):
    """Asks the database every 10 ms which of the document hashes given to it have an
    attestation row: when the index run's commit made each visible (10 ms late at most)."""

    every = 0.01

    def __init__(self, database_url: str):
        import psycopg

        self.connection = psycopg.connect(database_url, autocommit=True)
        self.pending: set[str] = set()
        self.committed_at: dict[str, float] = {}

    def add(self, document_hash: str) -> None:
        self.pending.add(document_hash)

    def poll(self):
        pending = list(self.pending)
        if not pending:
            return
        rows = self.connection.execute(
            "SELECT document_hash FROM attestations_attestation WHERE document_hash = ANY(%s)",
            [pending]).fetchall()
        now = time.time()
        for (document_hash,) in rows:
            self.committed_at.setdefault(document_hash, now)
            self.pending.discard(document_hash)

    def __exit__(self, *exc):
        super().__exit__(*exc)
        self.connection.close()


_CELERY_LINE = re.compile(r"Task attestations\.index_chain\[(?P<id>[^\]]+)\] (?:received|"
                          r"succeeded in (?P<runtime>[0-9.e-]+)s: .*'head': (?P<head>\d+))")


def index_runs(log: Path) -> list[dict]:
    """The index runs of the stack's indexer log (Celery's own lines, JSON format): each
    {received, started, ended, head}, times as time.time()."""
    runs: dict[str, dict] = {}
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        match = _CELERY_LINE.search(entry.get("message", ""))
        if not match:
            continue
        at = datetime.strptime(entry["time"], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        run = runs.setdefault(match["id"], {})
        if match["runtime"] is None:
            run["received"] = at
        else:
            run.update(ended=at, started=at - float(match["runtime"]), head=int(match["head"]))
    return [run for run in runs.values() if {"received", "ended"} <= set(run)]


STAGES = ("mined -> head pushed (websocket)", "head pushed -> run received (follower, broker)",
          "received -> run started", "started -> committed (in the database)",
          "committed -> verify said true", "head pushed -> verify said true")


def stages(clock: BlockClock, heads: HeadClock, rows: RowWatch, watch: VerifyWatch,
           blocks: dict[str, int], runs: list[dict]) -> list[tuple[float, ...]]:
    """Per document, the seconds of each of STAGES ("mined": the clock's poll, up to 20 ms
    late). Its run is the first to end, after its head was pushed, with its block read."""
    measured = []
    for document, block in blocks.items():
        pushed = heads.first_seen.get(block)
        committed, verified = rows.committed_at.get(document), watch.verified_at.get(document)
        if None in (pushed, committed, verified):
            continue
        done = [run for run in runs if run["head"] >= block and run["ended"] >= pushed]
        if not done:
            continue
        run = min(done, key=lambda r: r["ended"])
        measured.append((pushed - clock.mined_at(block), run["received"] - pushed, run["started"] - run["received"],
                         committed - run["started"], verified - committed, verified - pushed))
    return measured


def describe_stages(rows: list[tuple[float, ...]]) -> str:
    if not rows:
        return "stages: none measured"
    lines = [f"stages of {len(rows)} documents, p50 / p99 in ms (each stage's own "
             "percentiles: they do not add up):"]
    for n, name in enumerate(STAGES):
        values = [row[n] for row in rows]
        lines.append(f"  {name:<46} {1000 * percentile(values, 0.5):7.1f} / "
                     f"{1000 * percentile(values, 0.99):7.1f}")
    return "\n".join(lines)


def freshness(clock: BlockClock, watch: VerifyWatch, blocks: dict[str, int]) -> list[float]:
    """Seconds from mined to verified of each document hash that verified."""
    return sorted(watch.verified_at[h] - clock.mined_at(block) for h, block in blocks.items()
                  if h in watch.verified_at)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def summary(seconds: list[float], block_time: float) -> dict:
    p50, p99 = percentile(seconds, 0.5), percentile(seconds, 0.99)
    p50_target, p99_target = block_time + 1, 2 * block_time + 2
    return {"count": len(seconds), "blockTime": block_time, "p50": p50, "p99": p99,
            "max": max(seconds), "p50Target": p50_target, "p99Target": p99_target,
            "ok": p50 <= p50_target and p99 <= p99_target}


def describe(result: dict) -> str:
    return (f"freshness, mined -> verified, {result['count']} documents at a block every "
            f"{result['blockTime']:.2f} s: p50 {result['p50']:.2f} s (target <= "
            f"{result['p50Target']:.2f}), p99 {result['p99']:.2f} s (target <= "
            f"{result['p99Target']:.2f}), max {result['max']:.2f} s"
            + ("" if result["ok"] else "  ** MISSED **"))


def run_on_stack(args) -> None:
    """Start anvil (a block every second) and the compose stack, attest `--count` documents
    one after the other, and print the freshness and where its time goes (`stages`)."""
    import shutil
    import tempfile

    import psycopg
    import redis

    from bench.binding import CHAIN_ID, start_stack
    from tests.stack.compose import database_url
    from tests.stack.test_stack import Client, readme_keys, register

    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/freshness")
    name = f"{urlsplit(base).path.strip('/') or 'freshness'}_freshness"
    admin_db = database_url(base, "postgres")
    with psycopg.connect(admin_db, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/9")
    redis.Redis.from_url(redis_url).flushdb()
    folder = Path(tempfile.mkdtemp(prefix="freshness-"))
    node, deployed, schema = _chain(CHAIN_ID)
    stack = None
    try:
        stack = start_stack(folder, database_url(base, name), redis_url, "2")
        client = Client(stack.url, readme_keys(stack))
        register(client, node, deployed.deployment)
        client.admin("trusted-attesters", {"chainId": CHAIN_ID, "address": deployed.sender,
                                           "note": "freshness"})
        _wait(lambda: "websocket" in stack.healthcheck("follower").stdout,
              "the follower follows the websocket", 90)
        time.sleep(3)  # a few quiet blocks: the first runs' catching up is not measured
        seconds, stage_rows = measure(node.url, stack.url, client.keys["api"], deployed.w3,
                                      deployed.deployment.eas, schema, deployed.sender,
                                      args.count, {"database": database_url(base, name),
                                                   "indexer_log": folder / "indexer.log"})
        print(describe(summary(seconds, 1.0)))
        print(describe_stages(stage_rows))
    finally:
        if stack is not None:
            stack.stop()
        node.stop()
        if args.keep_logs:
            print(f"the processes' logs are in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
        with psycopg.connect(admin_db, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        redis.Redis.from_url(redis_url).flushdb()


def _chain(chain_id: int):
    """anvil mining a block a second, with the EAS contracts and the document schema."""
    from attestations import eas
    from tests.anvil import Anvil
    from tests.conftest import deploy_eas_on

    node = Anvil(chain_id=chain_id).start()
    deployed = deploy_eas_on(node)
    schema = eas.register_schema(deployed.w3, deployed.deployment.schema_registry,
                                 "bytes32 documentHash", sender=deployed.sender)
    node.rpc("evm_setIntervalMining", [1])
    return node, deployed, schema


def _wait(check, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"{what}: not within {timeout} s")
        time.sleep(0.5)


def measure(rpc_url, service_url, api_key, w3, eas_address, schema, sender, count,
            stack=None):
    """Attest `count` documents one after the other: (freshness in seconds, stage rows);
    the stages with a `stack` (a dict: its database URL, its indexer's log) only."""
    from attestations import eas

    blocks = {}
    with ExitStack() as watches:
        clock = watches.enter_context(BlockClock(rpc_url))
        watch = watches.enter_context(VerifyWatch(service_url, api_key))
        if stack:
            heads = watches.enter_context(HeadClock(rpc_url))
            rows = watches.enter_context(RowWatch(stack["database"]))
        for _ in range(count):
            document = "0x" + secrets.token_hex(32)
            _, receipt = eas.attest(w3, eas_address, schema_uid=schema,
                                    data=bytes.fromhex(document[2:]), sender=sender)
            blocks[document] = receipt["blockNumber"]
            watch.add(document)
            if stack:
                rows.add(document)
        if not watch.wait(60):
            print(f"{len(watch.pending)} document(s) not verified within 60 s", file=sys.stderr)
    seconds = freshness(clock, watch, blocks)
    if not stack:
        return seconds, []
    return seconds, stages(clock, heads, rows, watch, blocks, index_runs(stack["indexer_log"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--service", help="the service's URL (without it: a stack of its own)")
    parser.add_argument("--api-key")
    parser.add_argument("--rpc", help="the chain's RPC URL (anvil)")
    parser.add_argument("--eas", help="the EAS contract's address")
    parser.add_argument("--schema", help="a `bytes32 documentHash` schema uid")
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--keep-logs", action="store_true", help="keep the stack's logs")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    if args.service is None:
        run_on_stack(args)
        return

    from web3 import HTTPProvider, Web3

    w3 = Web3(HTTPProvider(args.rpc))
    seconds, _ = measure(args.rpc, args.service, args.api_key, w3, args.eas, args.schema,
                         w3.eth.accounts[0].lower(), args.count)
    print(describe(summary(seconds, 1.0)))


if __name__ == "__main__":
    main()

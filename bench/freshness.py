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
import math
import secrets
import statistics
import sys
import threading
import time
from pathlib import Path

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--service", required=True, help="the service's URL")
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--rpc", required=True, help="the chain's RPC URL (anvil)")
    parser.add_argument("--eas", required=True, help="the EAS contract's address")
    parser.add_argument("--schema", required=True, help="a `bytes32 documentHash` schema uid")
    parser.add_argument("--count", type=int, default=30)
    args = parser.parse_args()

    from web3 import HTTPProvider, Web3

    from attestations import eas

    w3 = Web3(HTTPProvider(args.rpc))
    sender = w3.eth.accounts[0].lower()
    blocks = {}
    with BlockClock(args.rpc) as clock, VerifyWatch(args.service, args.api_key) as watch:
        for _ in range(args.count):
            document = "0x" + secrets.token_hex(32)
            _, receipt = eas.attest(w3, args.eas, schema_uid=args.schema,
                                    data=bytes.fromhex(document[2:]), sender=sender)
            blocks[document] = receipt["blockNumber"]
            watch.add(document)
        if not watch.wait(60):
            print(f"{len(watch.pending)} document(s) not verified within 60 s", file=sys.stderr)
        print(describe(summary(freshness(clock, watch, blocks), clock.block_time())))


if __name__ == "__main__":
    main()

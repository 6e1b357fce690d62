"""Binding at chain scale (issue 20): documents from POST /workflows/batch to confirmed and
verified, on the production stack, in each binding mode.

For each mode: a fresh stack of docker-compose.yml (tests/stack/compose.py: web behind
nginx, the workers, the follower, beat, on this machine's PostgreSQL and Redis) and a fresh
anvil mining a block every `--block-time` seconds with the real EAS contracts; the chain
registered through the admin API at confirmations 1, in the mode. `--executors` reference
executors (`python -m executor_client --batch N`, anvil's accounts 1..; an idle one asks for
jobs every 0.25 s) run beside it. Then, timed: `--documents` documents posted in requests of
1,000 (`--clients` requests at a time, as an issuer with a large batch would send them, one
per core here), until every workflow is confirmed and every document verifies (POST
/v1/verify/batch, as many at a time). Printed per mode:

- documents per second, end to end (first POST to the last document verified);
- gas per document: the gasUsed of every distinct transaction of the run, over the documents;
- freshness: for a sample of documents, from their transaction's block showing on the node
  to POST /v1/verify/batch first saying verified (bench/freshness.py's clock and watch; the
  watch asks every 0.25 s, so a figure is up to 0.25 s late: asked every 0.1 s, the
  watch's own requests took a tenth of the documents/s).

Targets: merkle >= 1,000 documents/s end to end; merkle gas per document <= 2 % of single's
at 100 documents per batch; freshness p50 <= 1 block + 1 s, p99 <= 2 blocks + 2 s.

    .venv/bin/python bench/binding.py [--documents 10000] [--executors 4] [--batch 100]
        [--modes single,multi,merkle] [--block-time 1] [--sample 200] [--clients 2]

Set DATABASE_URL to the PostgreSQL server to use (default: the local one); each mode gets a
database of its own, dropped afterwards. Redis: REDIS_URL (default redis://127.0.0.1:6379/9),
emptied before and after.
"""

import argparse
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import redis
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.freshness import BlockClock, VerifyWatch, describe, freshness, summary  # noqa: E402
from tests.stack.compose import BIN, ROOT, Stack, database_url  # noqa: E402

CHAIN_ID = 31337
PER_REQUEST = 1000  # documents per POST /workflows/batch
# anvil's development accounts 1.. (0 deploys the contracts)
EXECUTOR_KEYS = [
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
    "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
    "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
    "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
]


def say(*lines: str) -> None:
    for line in lines:
        print(line, flush=True)


def chain_with_eas(block_time: float):
    """anvil with the EAS contracts, the document and root schemas, mining on its clock."""
    from attestations import eas
    from eas_primitives.merkle import ROOT_SCHEMA
    from tests.anvil import Anvil
    from tests.conftest import deploy_eas_on

    node = Anvil(chain_id=CHAIN_ID).start()
    deployed = deploy_eas_on(node)
    for schema in ("bytes32 documentHash", ROOT_SCHEMA):
        eas.register_schema(deployed.w3, deployed.deployment.schema_registry, schema,
                            sender=deployed.sender)
    node.rpc("evm_setIntervalMining", [int(block_time)])  # whole seconds: anvil takes no fraction
    return node, deployed


def start_stack(folder: Path, database: str, redis_url: str, workers: str,
                settings: dict | None = None) -> Stack:
    overrides = {"WEB_CONCURRENCY": workers, "RATE_LIMIT_API": "1000000/min",
                 "RATE_LIMIT_EXECUTOR": "1000000/min", "RATE_LIMIT_ADMIN": "1000000/min",
                 **(settings or {})}
    stack = Stack(folder, {"SECRET_KEY": secrets.token_urlsafe(40)},
                  {"postgres": database, "redis": redis_url}, overrides)
    return stack.run()


def one_mode(mode: str, args, base_url: str, redis_url: str) -> dict:
    from tests.stack.test_stack import Client, readme_keys, register

    name = f"{urlsplit(base_url).path.strip('/') or 'binding'}_binding_{mode}"
    admin_db = database_url(base_url, "postgres")
    with psycopg.connect(admin_db, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    database = database_url(base_url, name)
    redis.Redis.from_url(redis_url).flushdb()
    node, deployed = chain_with_eas(args.block_time)
    executors: list[subprocess.Popen] = []
    stack = None
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"binding-{mode}-"))
        if args.keep_logs:
            say(f"{mode}: the processes' logs are in {folder}")
        try:
            stack = start_stack(folder, database, redis_url, str(args.web_workers))
            client = Client(stack.url, readme_keys(stack))
            register(client, node, deployed.deployment)
            # The bench's executors are trusted once they prove their addresses (the chain's
            # explicit `automatic` policy: docs/security.md): binding is what it measures.
            client.call("PATCH", f"/v1/admin/chains/{CHAIN_ID}", "admin",
                        {"bindingMode": mode, "executorTrust": "automatic"})
            wait_for(lambda: len(client.call("GET", f"/schemas?chainId={CHAIN_ID}",
                                             "api")["results"]) >= 2,
                     "the schemas are indexed", 60)
            executors = [start_executor(stack, client, node, key, n, args.batch)
                         for n, key in enumerate(EXECUTOR_KEYS[:args.executors])]
            wait_for(lambda: all("registered" in stack.tail(f"executor-{n}")
                                 for n in range(len(executors))),
                     "the executors registered", 120)  # before the clock starts
            return run_documents(mode, args, stack, client, node, database)
        finally:
            if not args.keep_logs:
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        for process in executors:
            process.terminate()
        for process in executors:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        if stack is not None:
            stack.stop()
        node.stop()
        with psycopg.connect(admin_db, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        redis.Redis.from_url(redis_url).flushdb()


def start_executor(stack: Stack, client, node, key: str, n: int, batch: int) -> subprocess.Popen:
    key_file = stack.folder / f"executor-{n}.key"  # the key in a file, as a Docker secret
    key_file.write_text(key)
    env = {**stack.env("web"), "SERVICE_URL": stack.url, "EXECUTOR_API_KEY": client.keys["executor"],
           "EXECUTOR_KEY_FILE": str(key_file), "EXECUTOR_RPC_URL": node.url,
           "EXECUTOR_CHAIN": "anvil"}
    return subprocess.Popen(
        [str(BIN / "python"), "-m", "executor_client", "--batch", str(batch), "--name",
         f"bench-{n}", "--poll-seconds", "0.25", "--receipt-timeout", "60"],
        cwd=ROOT, env=env, stdout=stack.log(f"executor-{n}"), stderr=subprocess.STDOUT)


def wait_for(check, what: str, timeout: float, every: float = 0.25):
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"{what}: not within {timeout} s")
        time.sleep(every)


def run_documents(mode: str, args, stack: Stack, client, node, database: str) -> dict:
    documents = ["0x" + secrets.token_hex(32) for _ in range(args.documents)]
    sample = set(random.sample(documents, min(args.sample, len(documents))))
    with (BlockClock(node.url) as clock, psycopg.connect(database, autocommit=True) as db,
          VerifyWatch(stack.url, client.keys["api"], every=0.25) as watch):
        for document in sample:
            watch.add(document)
        started = time.time()
        chunks = [documents[start:start + PER_REQUEST]
                  for start in range(0, len(documents), PER_REQUEST)]
        with ThreadPoolExecutor(args.clients) as pool:
            list(pool.map(lambda chunk: client.call("POST", "/workflows/batch", "api", {
                "workflows": [{"documentHash": d, "chainId": CHAIN_ID} for d in chunk]}),
                chunks))
        posted = time.time()

        def confirmed() -> int:
            return db.execute("SELECT count(*) FROM verification_workflow "
                              "WHERE state = 'confirmed'").fetchone()[0]

        wait_for(lambda: confirmed() >= len(documents), f"{mode}: every workflow confirmed",
                 args.timeout, every=0.1)
        all_confirmed = time.time()
        verified = verify_all(stack.url, client.keys["api"], documents, args.clients)
        finished = time.time()
        if verified != len(documents):
            raise SystemExit(f"{mode}: {len(documents) - verified} documents do not verify")
        rows = db.execute("SELECT document_hash, tx_hash, block_number FROM verification_workflow"
                          ).fetchall()
    blocks = {document: block for document, _, block in rows if document in sample}
    gas = total_gas(node.url, {tx for _, tx, _ in rows})
    return {"mode": mode, "documents": len(documents),
            "perSecond": len(documents) / (finished - started),
            "posting": posted - started, "toConfirmed": all_confirmed - started,
            "transactions": len({tx for _, tx, _ in rows}), "gasPerDocument": gas / len(documents),
            "freshness": summary(freshness(clock, watch, blocks), clock.block_time())}


def verify_all(url: str, api_key: str, documents: list[str], clients: int) -> int:
    """How many of `documents` verify: POST /v1/verify/batch of 1,000 each, `clients` at a
    time."""
    chunks = [documents[start:start + 1000] for start in range(0, len(documents), 1000)]

    def verified(chunk: list[str]) -> int:
        answer = requests.post(url + "/v1/verify/batch", json={"documentHashes": chunk},
                               headers={"X-API-Key": api_key}, timeout=60)
        answer.raise_for_status()
        return sum(result["verified"] for result in answer.json()["results"])

    with ThreadPoolExecutor(clients) as pool:
        return sum(pool.map(verified, chunks))


def total_gas(rpc_url: str, tx_hashes: set[str]) -> int:
    session, total, hashes = requests.Session(), 0, sorted(tx_hashes)
    for start in range(0, len(hashes), 500):
        batch = [{"jsonrpc": "2.0", "id": i, "method": "eth_getTransactionReceipt",
                  "params": [h]} for i, h in enumerate(hashes[start:start + 500])]
        for answer in session.post(rpc_url, json=batch, timeout=60).json():
            total += int(answer["result"]["gasUsed"], 16)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--executors", type=int, default=4, choices=range(1, len(EXECUTOR_KEYS) + 1))
    parser.add_argument("--batch", type=int, default=100, help="jobs per claim")
    parser.add_argument("--modes", default="single,multi,merkle")
    parser.add_argument("--block-time", type=int, default=1)
    parser.add_argument("--sample", type=int, default=200,
                        help="documents whose freshness is measured")
    parser.add_argument("--clients", type=int, default=2,
                        help="requests at a time when posting and verifying the documents")
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--keep-logs", action="store_true",
                        help="keep each mode's folder of process logs")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/binding")
    # The helpers it shares with the tests import Django's settings (no database is used here).
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/9")
    say(f"{args.documents} documents, {args.executors} executors claiming {args.batch} at a "
        f"time, a block every {args.block_time} s, confirmations 1 (load average "
        f"{os.getloadavg()[0]:.1f})")
    results = {}
    for mode in args.modes.split(","):
        result = results[mode] = one_mode(mode, args, base, redis_url)
        say(f"{mode}: {result['perSecond']:,.0f} documents/s end to end ({result['documents']} "
            f"in {result['documents'] / result['perSecond']:.1f} s: posted in "
            f"{result['posting']:.1f} s, all confirmed at {result['toConfirmed']:.1f} s), "
            f"{result['transactions']} transactions, {result['gasPerDocument']:,.0f} gas per "
            "document",
            f"{mode}: " + describe(result["freshness"]))
    if "merkle" in results:
        say(f"merkle: {results['merkle']['perSecond']:,.0f} documents/s (target >= 1,000)")
    if "single" in results:
        for mode in ("multi", "merkle"):
            if mode in results:
                share = 100 * results[mode]["gasPerDocument"] / results["single"]["gasPerDocument"]
                target = " (target <= 2 %)" if mode == "merkle" else ""
                say(f"{mode}: gas per document {share:.2f} % of single's{target}")


if __name__ == "__main__":
    main()

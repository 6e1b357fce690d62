"""Binding in the field (issue 38, item 5): documents bound on anvil mining on its clock (not
automine) while a fault schedule, driven with anvil's own methods, does to the reference
executors what real networks do.

For each mode (`merkle`, `multi`): a fresh compose stack (bench/binding.py's: web behind
nginx, the workers, the follower, beat), anvil with the EAS contracts mining a block every
`--block-time` seconds and keeping its state in a file, `--executors` reference executors
(`python -m executor_client --batch N --journal ...`, their keys in files). The documents are
posted at `--rate` a second (requests of 100) while, from `--start` seconds on:

- the base fee is `--spike-factor` times what it was, for `--spike-seconds`
  (anvil_setNextBlockBaseFeePerGas before every block);
- for the last `--cap-seconds` of the spike the chain's `maxFeePerGasCap` is below the
  spiked fees (the executors hold: `blocked_by_fees`; before it they replace what the spike
  priced out, at the spike's prices), and they resume by themselves when it ends;
- `--drop-share` of the executors' transactions are dropped from the mempool as they appear
  (anvil_dropTransaction);
- after the spike, the node is stopped and started again with its state (`--state`: the
  mempool is lost);
- then one executor is killed (SIGKILL, in the middle of whatever it was doing) and
  started again with its journal.

Printed per mode: documents lost (not confirmed, or not verifying, at the end; target 0),
documents bound twice (a document attested in two transactions, or in two attested Merkle
batches; target 0), blocks from the spike's end until every document posted before it was
mined (target <= 5; those posted under the cap waited for it) beside the chain's own floor
for that backlog (its gas over the block gas limit: no executor mines it sooner), the fees
paid against the base fee + tip that would have sufficed in each transaction's block
(target <= 115 %), and the statuses each executor went through.

    .venv/bin/python bench/field.py [--documents 10000] [--modes merkle,multi]
        [--executors 4] [--batch 100] [--rate 100] [--spike-seconds 60] [--cap-seconds 20]
        [--gas-limit 60000000]

DATABASE_URL and REDIS_URL as bench/binding.py. Settings of the stack for the run:
WORKFLOW_DISPATCH_TIMEOUT_SECONDS=30 (the jobs a killed executor held go back to the queue
within the run; the default is 10 minutes).
"""

import argparse
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import redis
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.binding import EXECUTOR_KEYS, say, verify_all, wait_for  # noqa: E402
from tests.stack.compose import BIN, ROOT, Stack, database_url  # noqa: E402

CHAIN_ID = 31337
PER_REQUEST = 100
GWEI = 10**9


class Node:
    """anvil on one port with its state in a file, restartable."""

    def __init__(self, folder: Path, block_time: int, gas_limit: int):
        from tests.anvil import Anvil

        self.state, self.block_time = folder / "anvil-state.json", block_time
        self.options = ("--state", str(self.state), "--gas-limit", str(gas_limit))
        self.anvil = Anvil(chain_id=CHAIN_ID, args=self.options).start()
        self.port, self.url = self.anvil.port, self.anvil.url

    def rpc(self, method, params=None):
        return self.anvil.rpc(method, params)

    def restart(self) -> float:
        """Stop (anvil writes its state), start again on the same port; seconds it took."""
        from tests.anvil import Anvil

        started = time.monotonic()
        self.anvil.stop()
        self.anvil = Anvil(chain_id=CHAIN_ID, port=self.port,
                           args=(*self.options, "--block-time", str(self.block_time))).start()
        return time.monotonic() - started

    def stop(self):
        self.anvil.stop()


def deploy(node: Node):
    from attestations import eas
    from eas_primitives.merkle import ROOT_SCHEMA
    from tests.conftest import deploy_eas_on

    deployed = deploy_eas_on(node.anvil)
    for schema in ("bytes32 documentHash", ROOT_SCHEMA):
        eas.register_schema(deployed.w3, deployed.deployment.schema_registry, schema,
                            sender=deployed.sender)
    node.rpc("evm_setIntervalMining", [node.block_time])
    return deployed


class Executors:
    """The reference executors as processes, each with its key file and journal."""

    def __init__(self, stack: Stack, client, node: Node, count: int, batch: int):
        self.stack, self.client, self.node, self.batch = stack, client, node, batch
        self.keys = EXECUTOR_KEYS[:count]
        self.processes = [self.start(n) for n in range(count)]

    def start(self, n: int) -> subprocess.Popen:
        folder = self.stack.folder
        key_file = folder / f"executor-{n}.key"
        key_file.write_text(self.keys[n])
        env = {**self.stack.env("web"), "SERVICE_URL": self.stack.url,
               "EXECUTOR_API_KEY": self.client.keys["executor"], "EXECUTOR_KEY_FILE": str(key_file),
               "EXECUTOR_RPC_URL": self.node.url, "EXECUTOR_CHAIN": "anvil"}
        return subprocess.Popen(
            [str(BIN / "python"), "-m", "executor_client", "--batch", str(self.batch), "--name",
             f"field-{n}", "--poll-seconds", "0.25", "--receipt-timeout", "60",
             "--journal", str(folder / f"executor-{n}.journal")],
            cwd=ROOT, env=env, stdout=self.stack.log(f"executor-{n}"), stderr=subprocess.STDOUT)

    def kill_and_restart(self, n: int, pause: float = 3.0) -> None:
        os.kill(self.processes[n].pid, signal.SIGKILL)
        self.processes[n].wait()
        time.sleep(pause)
        self.processes[n] = self.start(n)

    def addresses(self) -> set[str]:
        from eth_account import Account

        return {Account.from_key(key).address.lower() for key in self.keys}

    def stop(self):
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()


class Faults:
    """The fault schedule, run by the main thread (anvil is tied to the thread that starts
    it: tests/anvil.py). Outside the spike the base fee is held at `--base-gwei`; what
    happened at which block is in `events`."""

    def __init__(self, args, node: Node, client, executors: Executors):
        self.args, self.node, self.client, self.executors = args, node, client, executors
        self.base = int(args.base_gwei * GWEI)
        self.fee = self.base  # the next block's base fee, set before each block
        self.events: dict[str, int] = {}
        self.spike_over_at = None
        self.backlog = 0  # the documents posted before the spike's end, not mined at it
        self.dropped = 0
        self.addresses = executors.addresses()
        self.seen: set[str] = set()

    def note(self, event: str, detail: str = "") -> None:
        self.events[event] = int(self.node.rpc("eth_blockNumber"), 16)
        say(f"  {event}{detail} at block {self.events[event]}")

    def run(self, backlog_left) -> None:
        """The schedule; `backlog_left(at)` counts the documents posted before `at` that are
        not mined yet: the node restart and the executor's death wait for the spike's
        backlog, so that the blocks after the spike measure the spike alone."""
        args = self.args
        self.wait(args.start)
        spiked = self.base * args.spike_factor
        self.fee = spiked
        self.note("spike", f" x{args.spike_factor} ({spiked / GWEI:.0f} gwei)")
        self.wait(args.spike_seconds - args.cap_seconds)  # replaced at the spike's prices
        cap = spiked // 4  # below the spike, above ordinary fees: they hold
        self.client.call("PATCH", f"/v1/admin/chains/{CHAIN_ID}", "admin",
                         {"maxFeePerGasCap": str(cap)})
        self.note("cap", f" of {cap / GWEI:.0f} gwei")
        self.wait(args.cap_seconds)
        self.fee = self.base
        self.note("spike over")
        self.spike_over_at = datetime.now(UTC)
        self.backlog = backlog_left(self.spike_over_at)
        self.wait(300, until=lambda: backlog_left(self.spike_over_at) == 0)
        self.note("spike's backlog mined")
        self.client.call("PATCH", f"/v1/admin/chains/{CHAIN_ID}", "admin",
                         {"maxFeePerGasCap": None})
        self.note("cap lifted")
        took = self.node.restart()
        self.note("node restarted", f" with its state ({took:.1f} s, mempool lost)")
        self.wait(10)
        self.executors.kill_and_restart(0)
        self.note("executor 0 killed", " and started again")

    def wait(self, seconds: float, until=None) -> None:
        """`seconds` (or until `until()`) of the steady faults: the base fee set before
        each block, the executors' new transactions dropped at `--drop-share`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (until and until()):
            try:
                self.node.rpc("anvil_setNextBlockBaseFeePerGas", [hex(self.fee)])
                self.drop_some()
            except requests.RequestException:  # the node restarting
                pass
            time.sleep(0.2)

    def drop_some(self) -> None:
        """Drop `--drop-share` of the executors' transactions newly in the mempool."""
        content = self.node.rpc("txpool_content")
        for section in ("pending", "queued"):
            for address, by_nonce in content.get(section, {}).items():
                if address.lower() not in self.addresses:
                    continue
                for tx in by_nonce.values():
                    if tx["hash"] in self.seen:
                        continue
                    self.seen.add(tx["hash"])
                    if random.random() < self.args.drop_share:
                        self.node.rpc("anvil_dropTransaction", [tx["hash"]])
                        self.dropped += 1


def one_mode(mode: str, args, base_url: str, redis_url: str) -> dict:
    from bench.binding import start_stack
    from tests.stack.test_stack import Client, readme_keys, register

    name = f"{urlsplit(base_url).path.strip('/') or 'field'}_field_{mode}"
    admin_db = database_url(base_url, "postgres")
    with psycopg.connect(admin_db, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    database = database_url(base_url, name)
    redis.Redis.from_url(redis_url).flushdb()
    folder = Path(tempfile.mkdtemp(prefix=f"field-{mode}-"))
    if args.keep_logs:
        say(f"{mode}: the processes' logs are in {folder}")
    node = Node(folder, args.block_time, args.gas_limit)
    stack = executors = None
    try:
        deployed = deploy(node)
        stack = start_stack(folder, database, redis_url, str(args.web_workers),
                            {"WORKFLOW_DISPATCH_TIMEOUT_SECONDS": "30"})
        client = Client(stack.url, readme_keys(stack))
        register(client, node.anvil, deployed.deployment)
        # Its executors are trusted once they prove their addresses (the chain's explicit
        # `automatic` policy: docs/security.md): binding under faults is what it measures.
        client.call("PATCH", f"/v1/admin/chains/{CHAIN_ID}", "admin",
                    {"bindingMode": mode, "executorTrust": "automatic"})
        wait_for(lambda: len(client.call("GET", f"/schemas?chainId={CHAIN_ID}", "api")
                             ["results"]) >= 2, "the schemas are indexed", 60)
        executors = Executors(stack, client, node, args.executors, args.batch)
        wait_for(lambda: all("registered" in stack.tail(f"executor-{n}")
                             for n in range(args.executors)), "the executors registered", 120)
        faults = Faults(args, node, client, executors)
        return run_documents(mode, args, stack, client, node, database, executors, faults)
    finally:
        if executors is not None:
            executors.stop()
        if stack is not None:
            stack.stop()
        node.stop()
        with psycopg.connect(admin_db, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        redis.Redis.from_url(redis_url).flushdb()
        if not args.keep_logs:
            shutil.rmtree(folder, ignore_errors=True)


def run_documents(mode, args, stack, client, node, database, executors, faults) -> dict:
    documents = ["0x" + secrets.token_hex(32) for _ in range(args.documents)]
    chunks = [documents[start:start + PER_REQUEST]
              for start in range(0, len(documents), PER_REQUEST)]
    first_block = int(node.rpc("eth_blockNumber"), 16)
    started = time.monotonic()

    def post_all():  # at --rate documents a second, beside the faults
        for n, chunk in enumerate(chunks):
            time.sleep(max(0.0, started + n * PER_REQUEST / args.rate - time.monotonic()))
            client.call("POST", "/workflows/batch", "api", {
                "workflows": [{"documentHash": d, "chainId": CHAIN_ID} for d in chunk]})

    poster = threading.Thread(target=post_all, daemon=True)
    poster.start()
    with psycopg.connect(database, autocommit=True) as db:
        faults.run(lambda at: db.execute(
            "SELECT count(*) FROM verification_workflow WHERE created_at <= %s AND "
            "block_number IS NULL AND state NOT IN ('failed', 'expired')", [at]).fetchone()[0])
        poster.join()

        def settled() -> bool:
            return db.execute("SELECT count(*) FROM verification_workflow WHERE state NOT IN "
                              "('confirmed', 'failed', 'expired')").fetchone()[0] == 0

        faults.wait(args.timeout, until=settled)
        if not settled():
            say(f"{mode}: not every workflow settled within {args.timeout:.0f} s")
        report = measure(db, documents, node, faults, executors, first_block)
    report["verified"] = verify_all(stack.url, client.keys["api"], documents, 2)
    report["lost"] = max(report["lost"], len(documents) - report["verified"])
    report["seconds"] = time.monotonic() - started
    return report


def measure(db, documents, node, faults, executors, first_block) -> dict:
    states = dict(db.execute("SELECT state, count(*) FROM verification_workflow GROUP BY state"
                             ).fetchall())
    addresses = sorted(executors.addresses())
    # A document attested in two transactions (single and multi modes) ...
    twice = db.execute(
        "SELECT count(*) FROM (SELECT document_hash FROM attestations_attestation WHERE "
        "attester = ANY(%s) AND document_hash IS NOT NULL GROUP BY document_hash "
        "HAVING count(*) > 1) AS twice", [addresses]).fetchone()[0]
    # ... in two attested Merkle batches, or in one whose root was attested twice.
    twice += db.execute(
        "SELECT count(*) FROM (SELECT l.document_hash FROM attestations_merkleleaf l JOIN "
        "attestations_merklebatch b ON b.id = l.batch_id WHERE b.attestation_uid <> '' "
        "GROUP BY l.document_hash HAVING count(DISTINCT b.root) > 1) AS twice").fetchone()[0]
    twice += db.execute(
        "SELECT coalesce(sum(b.leaf_count), 0) FROM attestations_merklebatch b WHERE b.root IN "
        "(SELECT decoded->>'merkleRoot' FROM attestations_attestation WHERE attester = ANY(%s) "
        "AND decoded ? 'merkleRoot' GROUP BY 1 HAVING count(*) > 1)", [addresses]).fetchone()[0]
    spike_end = faults.events["spike over"]
    # The documents posted before the spike ended: the block of the last one mined.
    last_mined = db.execute("SELECT max(block_number) FROM verification_workflow WHERE "
                            "created_at <= %s", [faults.spike_over_at]).fetchone()[0]
    fees, gas_used = fee_ratio(node, executors.addresses(), first_block)
    fill = []  # each block's gas used, in % of its limit, from the spike's end to the last
    for number in range(spike_end + 1, (last_mined or spike_end) + 1):
        block = node.rpc("eth_getBlockByNumber", [hex(number), False])
        fill.append(round(100 * int(block["gasUsed"], 16) / int(block["gasLimit"], 16)))
    block_gas = int(node.rpc("eth_getBlockByNumber", ["latest", False])["gasLimit"], 16)
    floor = -(-faults.backlog * gas_used // (len(documents) * block_gas))
    changes = db.execute(
        "SELECT e.name, c.to_status FROM executors_executorstatuschange c JOIN "
        "executors_executor e ON e.id = c.executor_id ORDER BY c.created_at, c.id").fetchall()
    statuses: dict[str, list[str]] = {}
    for name, status in changes:
        statuses.setdefault(name, []).append(status)
    return {"documents": len(documents), "states": states,
            "lost": len(documents) - states.get("confirmed", 0), "twice": twice,
            "blocksAfterSpike": max(0, (last_mined or spike_end) - spike_end),
            "backlog": faults.backlog, "fill": fill, "floor": floor, "gasPerDocument": gas_used // len(documents),
            "blockGas": block_gas, "feeRatio": fees, "dropped": faults.dropped, "statuses": statuses,
            "events": faults.events}


def fee_ratio(node: Node, addresses: set[str], first_block: int) -> tuple[float, int]:
    """What the executors' mined transactions paid, over what the base fee + the node's tip
    would have cost in the same blocks (their gas used at base fee + tip); and their gas."""
    session = requests.Session()
    tip = int(node.rpc("eth_maxPriorityFeePerGas"), 16)
    paid = sufficed = used = 0
    last = int(node.rpc("eth_blockNumber"), 16)
    for number in range(first_block, last + 1):
        block = node.rpc("eth_getBlockByNumber", [hex(number), True])
        ours = [tx for tx in block["transactions"] if tx["from"].lower() in addresses]
        if not ours:
            continue
        base = int(block["baseFeePerGas"], 16)
        batch = [{"jsonrpc": "2.0", "id": i, "method": "eth_getTransactionReceipt",
                  "params": [tx["hash"]]} for i, tx in enumerate(ours)]
        for answer in session.post(node.url, json=batch, timeout=60).json():
            receipt = answer["result"]
            gas = int(receipt["gasUsed"], 16)
            paid += gas * int(receipt["effectiveGasPrice"], 16)
            sufficed += gas * (base + tip)
            used += gas
    return (paid / sufficed if sufficed else 0.0), used


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--modes", default="merkle,multi")
    parser.add_argument("--executors", type=int, default=4, choices=range(2, len(EXECUTOR_KEYS) + 1))
    parser.add_argument("--batch", type=int, default=100, help="jobs per claim")
    parser.add_argument("--rate", type=float, default=100, help="documents posted a second")
    parser.add_argument("--block-time", type=int, default=1)
    parser.add_argument("--gas-limit", type=int, default=60_000_000,
                        help="the block gas limit: Ethereum mainnet's since November 2025 "
                             "(anvil's own default is 30 million)")
    parser.add_argument("--base-gwei", type=float, default=1.0,
                        help="the base fee outside the spike")
    parser.add_argument("--start", type=float, default=10, help="seconds before the spike")
    parser.add_argument("--spike-seconds", type=float, default=60)
    parser.add_argument("--spike-factor", type=int, default=20)
    parser.add_argument("--cap-seconds", type=float, default=20)
    parser.add_argument("--drop-share", type=float, default=0.1)
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--keep-logs", action="store_true",
                        help="keep each mode's folder of process logs")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/field")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/9")
    say(f"{args.documents} documents at {args.rate:.0f}/s, {args.executors} executors claiming "
        f"{args.batch}, a block every {args.block_time} s of {args.gas_limit:,} gas; from {args.start:.0f} s: base fee "
        f"x{args.spike_factor} for {args.spike_seconds:.0f} s (capped the last "
        f"{args.cap_seconds:.0f} s), {args.drop_share:.0%} of the executors' transactions "
        "dropped, then the node restarted, then an executor killed")
    for mode in args.modes.split(","):
        result = one_mode(mode, args, base, redis_url)
        say(f"{mode}: documents lost {result['lost']} (target 0), bound twice "
            f"{result['twice']} (target 0); {result['verified']} of {result['documents']} "
            f"verify; workflows {result['states']}",
            f"{mode}: after the spike, the last document posted before its end was mined "
            f"{result['blocksAfterSpike']} blocks later (target <= 5); the chain's floor for "
            f"the {result['backlog']} documents waiting at the spike's end "
            f"({result['gasPerDocument']} gas each, blocks of {result['blockGas']}): "
            f"{result['floor']} block(s); the blocks' gas used after the spike, in % of their "
            f"limit: {', '.join(map(str, result['fill']))}",
            f"{mode}: fees paid {100 * result['feeRatio']:.1f} % of base fee + tip "
            "(target <= 115 %)",
            f"{mode}: {result['dropped']} transactions dropped; {result['seconds']:.0f} s "
            "in all",
            *(f"{mode}: {name}: {' -> '.join(statuses)}"
              for name, statuses in sorted(result["statuses"].items())))


if __name__ == "__main__":
    main()

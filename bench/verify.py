"""Document verification at scale: POST /v1/verify over 1,000,000 (or 10,000,000) indexed
attestations.

1. Loads the attestations into PostgreSQL over 16 chains (bench/bulk_attestations.py: COPY,
   indexes built after the load; kept between runs: --reload to load again), each chain
   with 100 executors and some trusted attesters, a tenth of the attestations by untrusted
   addresses and a fiftieth revoked; a quarter of the documents attested twice.
2. Measures POST /v1/verify (hashes drawn at random: nine in ten verify, the others were
   never attested) next to
   GET /healthz on the same gunicorn, in interleaved rounds (targets: at least 70 % of
   healthz's throughput, judged on the median of the paired rounds, so that a slow spell of
   a shared host does not decide; p99 at most 20 ms at concurrency 8), and counts the
   database writes made meanwhile (target: none per request). Before each verify round the
   table and its document-hash index are read into the OS cache (see `warm_cache`; --cold
   measures without).
   Then POST /v1/verify/batch with 1,000 distinct hashes per request, in rounds interleaved
   with single verifications (target: at least 20x the single requests' hashes per second).
3. Prints EXPLAIN ANALYZE of the hot query (target: an index scan on the document hash).
4. Asks the same of the chain directly: getAttestation(uid) and the head block on anvil with
   the real EAS contracts, through web3.py as a client would, and as raw JSON-RPC (the
   node's own cost, a lower bound); target: the service at least 3x faster than web3.py.

    .venv/bin/python bench/verify.py [--attestations 1000000] [--chains 16] [--seconds 3]
        [--rounds 7] [--concurrency 8] [--workers 2] [--reload] [--no-chain] [--cold] [--replica]
        [--private]

--replica runs on a private primary started here, serves the reads from a streaming replica
of it (bench/replica.py) and prints the primary's CPU per verification; --private runs on
such a primary without a replica, for comparison. Both load the attestations each time.

Set DATABASE_URL to use another database (default: a local PostgreSQL
`chain_registry_bench_verify`; a load empties its attestation table). 10,000,000
attestations take about 9 GB of disk with their indexes. The machine's load (other processes) weighs on every figure:
ratios measured in one run are what the targets are about.
"""

import hashlib
import itertools
import json
import random
import threading
import time
from contextlib import contextmanager

import bulk_attestations as data
import harness
import replica
from harness import load, merge, say

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/chain_registry_bench_verify"
CHAIN = data.FIRST_CHAIN
CHAINS = 16
BENCH_NAME = data.BENCH_NAME
VERIFY = "POST /v1/verify"
BATCH = "POST /v1/verify/batch"
BATCH_SIZE = 1000
document_hash = data.document_hash


# 1. The data (bench/bulk_attestations.py) -----------------------------------------------------


def prepare_attestations(count: int, chains: int = CHAINS, reload: bool = False) -> None:
    """The bench chains and `count` attestations over them (kept between runs)."""
    from django.db import connections

    data.prepare(count, chains, reload)
    # A backend that goes idle reports its rows written up to 10 s later, at its exit at
    # once: without this the index cursors' update above counted as the service's writes.
    connections.close_all()


def warm_cache() -> float | None:
    """Reads the attestation table and its document-hash index into the OS page cache, as a
    database server that holds its working set in memory has them. Returns the seconds it
    took, or None where the pg_prewarm extension cannot be installed.

    Why: this host pages out file cache that nothing touched for about 30 s (DAMON reclaim),
    and the pages of a million attestations looked up at random are touched far less often
    than that, so without it most lookups read their heap page from disk through the
    hypervisor: I/O waits, and more PostgreSQL CPU per verification. That measures the
    host's memory policy, not the service. It runs before each verify round, outside the
    measurement (PostgreSQL's own cache, 128 MB by default, holds a fraction of the data)."""
    from django.db import DatabaseError, connection

    from attestations.models import Attestation

    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
            relations = (Attestation._meta.db_table, "attestation_document_idx")
            for relation in relations:
                cursor.execute("SELECT pg_prewarm(%s, 'read')", [relation])
        replica.warm_cache(relations)
    except DatabaseError as exc:
        say(f"(the OS cache is not warmed: pg_prewarm is unavailable: {exc})")
        return None
    return time.perf_counter() - started


# 2. The service under load ------------------------------------------------------------------


def random_documents(count: int, rng, miss_share: float):
    """Hashes of random documents of the loaded set that verify (some through a later
    attestation, the first being untrusted or revoked), and (`miss_share`) of ones never
    seen: the misses are those, as at any size of the set."""
    while True:
        n = rng.randrange(data.documents(count))
        if rng.random() < miss_share:
            yield "0x" + hashlib.sha256(f"missing {n}".encode()).hexdigest()
        elif data.earliest_valid(n, count) is not None:
            yield document_hash(n)


def verify_requests(key: str, count: int, miss_share: float = 0.1, pool: int = 100_000):
    """A request factory: random documents of the loaded set, and some hashes never seen.
    The bodies are drawn before the load starts, so that the load generator, which shares
    the machine, spends its CPU on sending them rather than on hashing."""
    documents = random_documents(count, random.Random(1), miss_share)
    return _cycling("/v1/verify", key, [
        json.dumps({"documentHash": next(documents)}).encode() for _ in range(pool)])


def batch_requests(key: str, count: int, miss_share: float = 0.1, pool: int = 200):
    """As verify_requests, BATCH_SIZE distinct random documents per request."""
    documents = random_documents(count, random.Random(2), miss_share)
    bodies = []
    for _ in range(pool):
        batch = list(dict.fromkeys(itertools.islice(documents, BATCH_SIZE)))
        while len(batch) < BATCH_SIZE:  # a document drawn twice: draw more
            batch = list(dict.fromkeys([*batch, next(documents)]))
        bodies.append(json.dumps({"documentHashes": batch}).encode())
    return _cycling("/v1/verify/batch", key, bodies)


def _cycling(path: str, key: str, bodies: list[bytes]):
    headers = {"X-API-Key": key, "Content-Type": "application/json"}
    cycle, lock = itertools.cycle(bodies), threading.Lock()

    def make():
        with lock:
            body = next(cycle)
        return "POST", path, headers, body

    return make


def database_writes(env) -> int:
    """Rows inserted, updated and deleted so far in the benchmark database (all tables)."""
    time.sleep(1)  # statistics reach the collector in batches
    return harness.psql_value(
        env, "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables")


def check_answers(port: int, key: str, count: int) -> None:
    """Documents of each kind answer as the generated layout says: verified by their only
    attestation, verified by a later one where the first is untrusted or revoked, not
    verified, unknown; and a batch answers each as one request does."""
    headers = {"X-API-Key": key, "Content-Type": "application/json"}

    def ask(digest):
        status, body = harness.request(port, "POST", "/v1/verify", headers,
                                       json.dumps({"documentHash": digest}).encode())
        assert status == 200, body
        return json.loads(body)

    asked = [*example_documents(count), "0x" + "ff" * 32]
    for d in asked[:-1]:
        answer, expected = ask(document_hash(d)), data.earliest_valid(d, count)
        assert answer["verified"] == (expected is not None), (d, answer)
        assert expected is None or answer["attestationId"] == data.uid(expected), (d, answer)
    unknown = ask(asked[-1])
    assert not unknown["verified"] and unknown["reason"] == "not_found"
    hashes = [document_hash(d) for d in asked[:-1]] + asked[-1:]
    status, body = harness.request(port, "POST", "/v1/verify/batch", headers,
                                   json.dumps({"documentHashes": hashes}).encode())
    assert status == 200, body
    for result in json.loads(body)["results"]:
        assert {k: v for k, v in result.items() if k != "documentHash"} == ask(
            result["documentHash"])


def example_documents(count: int) -> list[int]:
    """A document of each kind: one attestation; a first untrusted or revoked and a later
    valid one; none valid."""
    kinds = {}
    for d in range(min(data.documents(count), 10_000)):
        attestations = data.attestations_of(d, count)
        first, valid = attestations[0], data.earliest_valid(d, count)
        kind = (len(attestations), data.trusted(first), data.revoked(first), valid is None)
        kinds.setdefault(kind, d)
    return list(kinds.values())


def bench_service(env, key: str, args):
    healthz = harness.healthz
    verify = verify_requests(key, args.attestations)
    with harness.serve(env, args) as port:
        check_answers(port, key, args.attestations)
        load(port, "warm-up", verify, seconds=1, concurrency=args.concurrency)
        load(port, "warm-up", healthz, seconds=1, concurrency=args.concurrency)
        writes_before = database_writes(env)
        # PostgreSQL's CPU: the primary's backends, and the replica's when one serves.
        cpu = {name: harness.CpuUse(lambda: harness.database_backends() + replica.backends(env))
               for name in ("GET /healthz", VERIFY)}
        warmed = []
        pairs = harness.paired_rounds(port, ("GET /healthz", healthz), (VERIFY, verify),
                                      rounds=args.rounds, seconds=args.seconds,
                                      concurrency=args.concurrency,
                                      around=lambda name: measured_round(
                                          name, cpu[name], port, cold=args.cold,
                                          warmed=warmed))
        verified = merge(pairs.measured)
        writes = database_writes(env) - writes_before
        single = load(port, "POST /v1/verify (1 client)", verify, seconds=args.seconds,
                      concurrency=1)
        batched = bench_batch(port, key, args, verify)
        replica_lines = replica.cpu_lines(port, verify, args, env)
    ratio, p99 = pairs.median_ratio, verified.percentile(99)
    health_cpu = cpu["GET /healthz"].per_request(merge(pairs.baseline).requests)
    verify_cpu = cpu[VERIFY].per_request(verified.requests)
    say(
        "",
        f"== POST /v1/verify: gunicorn workers={args.workers} (front: {args.front}), concurrency={args.concurrency}, "
        f"{args.attestations} attestations, {args.rounds} interleaved rounds x {args.seconds}s",
        cache_line(args.cold, warmed),
        merge(pairs.baseline).line(),
        verified.line(),
        single.line(),
        *pairs.lines("verify / healthz throughput", 0.7),
        "CPU per request (us), less sensitive to other load on the machine than throughput:",
        f"  GET /healthz      {health_cpu}",
        f"  POST /v1/verify   {verify_cpu}",
        f"  healthz / verify CPU: {health_cpu.total / verify_cpu.total:.1%}",
        f"verify p99 at concurrency {args.concurrency}: {p99:.2f} ms   (target: at most 20 ms)  "
        f"{'PASS' if p99 <= 20 else 'FAIL'}",
        f"database rows written during {verified.requests} verifications (and the healthz "
        f"rounds): {writes}   (API key use is recorded at most once a minute per key)",
    )
    say(*batched.lines(f"{BATCH} ({BATCH_SIZE} hashes) / {VERIFY}, hashes per second", 20))
    say(*replica_lines)
    return ratio, p99, verified, single, batched


class Batched(harness.Paired):
    """Paired rounds of single verifications (baseline) and batches: ratios in hashes/s."""

    @property
    def ratios(self) -> list[float]:
        return [m.rps * BATCH_SIZE / b.rps for b, m in zip(self.baseline, self.measured)]

    @property
    def pooled_ratio(self) -> float:
        return merge(self.measured).rps * BATCH_SIZE / merge(self.baseline).rps

    def lines(self, label: str, target: float) -> list[str]:
        verdict = "PASS" if self.median_ratio >= target else "FAIL"
        single, batch = merge(self.baseline), merge(self.measured)
        return [
            "",
            f"== {BATCH}: {BATCH_SIZE} distinct hashes per request (a tenth never seen), "
            f"interleaved with {VERIFY} rounds, same concurrency",
            single.line(), batch.line(),
            f"hashes/s: single {single.rps:.0f}, batched {batch.rps * BATCH_SIZE:.0f}",
            f"{label}: median of {len(self.ratios)} paired rounds {self.median_ratio:.1f}x   "
            f"(target: at least {target}x)  {verdict}",
            "  each pair: " + " ".join(f"{r:.1f}x" for r in self.ratios)
            + f"; all rounds pooled: {self.pooled_ratio:.1f}x",
        ]


def bench_batch(port: int, key: str, args, verify) -> Batched:
    """Batch verification next to single verification: hashes per second of each."""
    batch = batch_requests(key, args.attestations)
    load(port, "warm-up", batch, seconds=1, concurrency=args.concurrency)
    pairs = harness.paired_rounds(port, (VERIFY, verify), (BATCH, batch),
                                  rounds=max(3, args.rounds // 2), seconds=args.seconds,
                                  concurrency=args.concurrency)
    return Batched(pairs.baseline, pairs.measured)


@contextmanager
def measured_round(request: str, cpu_use, port: int, *, cold: bool, warmed: list):
    """Around a load round (harness.paired_rounds): a verify round starts with a warm
    cache (unless `cold`; the seconds it took go to `warmed`), and the round's CPU use is
    counted in `cpu_use`."""
    if request == VERIFY and not cold and None not in warmed:  # None: pg_prewarm is missing
        warmed.append(warm_cache())
    with cpu_use.measuring(port):
        yield


def cache_argument(parser) -> None:
    parser.add_argument("--cold", action="store_true",
                        help="Do not read the data into the OS cache before verify rounds.")


def cache_line(cold: bool, warmed: list) -> str:
    if cold:
        return "OS cache not warmed (--cold): lookups may read their pages from disk"
    if None in warmed:
        return "OS cache not warmed (pg_prewarm unavailable): lookups may read from disk"
    return (f"table and document-hash index read into the OS cache before each verify round "
            f"({sum(warmed) / len(warmed):.2f} s on average, not measured)")


# 3. The plan --------------------------------------------------------------------------------


def explain(count: int) -> bool:
    from django.db import connection
    from django.utils import timezone

    from verification.sql import VERIFICATION_SQL

    params = {"document_hash": document_hash(count // 4), "chain_id": None, "now": timezone.now()}
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + VERIFICATION_SQL, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    indexed = "Index Scan using attestation_document_idx" in plan
    say("", "== EXPLAIN ANALYZE of the hot query", plan,
        f"index scan on the document hash: {'PASS' if indexed else 'FAIL'}")
    return indexed


# 4. The chain directly ----------------------------------------------------------------------


def bench_chain(args, service) -> float:
    """getAttestation(uid) and eth_blockNumber on anvil: through web3.py, and raw."""
    from web3 import HTTPProvider, Web3

    from attestations import eas
    from eas_primitives.abi import eas_abi
    from tests.anvil import Anvil

    node = Anvil(chain_id=31337).start()
    try:
        w3 = Web3(HTTPProvider(node.url))
        sender = w3.eth.accounts[0].lower()
        deployment = eas.deploy_eas(w3, sender=sender)
        schema_uid = eas.register_schema(w3, deployment.schema_registry, "bytes32 documentHash",
                                         sender=sender)
        uids = eas.multi_attest(w3, deployment.eas, schema_uid=schema_uid, sender=sender,
                                data=[bytes.fromhex(document_hash(n)[2:]) for n in range(200)])
        node.mine(20)
        local = threading.local()
        rng, lock = random.Random(2), threading.Lock()

        def pick_uid():
            with lock:
                return rng.choice(uids)

        def web3_lookup():
            if not hasattr(local, "contract"):
                client = Web3(HTTPProvider(node.url))
                local.client = client
                local.contract = client.eth.contract(
                    address=Web3.to_checksum_address(deployment.eas), abi=eas_abi())
            attestation = local.contract.functions.getAttestation(
                bytes.fromhex(pick_uid()[2:])).call()
            local.client.eth.block_number  # noqa: B018 (confirmations need the head)
            return attestation

        calldata = {uid: local_calldata(w3, deployment.eas, uid) for uid in uids}
        port = node.port

        def raw_lookup():
            uid = pick_uid()
            body = json.dumps([
                {"jsonrpc": "2.0", "id": 1, "method": "eth_call",
                 "params": [{"to": deployment.eas, "data": calldata[uid]}, "latest"]},
                {"jsonrpc": "2.0", "id": 2, "method": "eth_blockNumber", "params": []},
            ]).encode()
            return "POST", "/", {"Content-Type": "application/json"}, body

        web3_runs = [harness.timed("web3.py getAttestation + blockNumber", web3_lookup,
                                   seconds=args.seconds, concurrency=args.concurrency)
                     for _ in range(args.rounds)]
        raw = merge([load(port, "raw JSON-RPC batch (same calls)", raw_lookup,
                          seconds=args.seconds, concurrency=args.concurrency)
                     for _ in range(args.rounds)])
        web3_single = harness.timed("web3.py (1 client)", web3_lookup, seconds=args.seconds,
                                    concurrency=1)
    finally:
        node.stop()
    web3_all = merge(web3_runs)
    _, _, verified, single, _ = service
    speedup = verified.rps / web3_all.rps
    latency = web3_single.percentile(50) / single.percentile(50)
    say(
        "",
        f"== the same lookup asked of anvil (EAS getAttestation(uid) and the head block), "
        f"concurrency {args.concurrency}",
        web3_all.line(), raw.line(), web3_single.line(),
        f"service / web3.py throughput: {speedup:.1f}x   (target: at least 3x)  "
        f"{'PASS' if speedup >= 3 else 'FAIL'}",
        f"service / raw JSON-RPC throughput: {verified.rps / raw.rps:.1f}x   (the node's own "
        "cost, no client library)",
        f"one client, median latency: service {single.percentile(50):.2f} ms, web3.py "
        f"{web3_single.percentile(50):.2f} ms ({latency:.1f}x)",
        "(anvil holds its state in memory on this machine: a remote provider adds a network "
        "round trip, and a lookup by document hash alone needs eth_getLogs over every "
        "attestation of the schema, which the index answers instead)",
    )
    return speedup


def local_calldata(w3, address: str, uid: str) -> str:
    from web3 import Web3

    from eas_primitives.abi import eas_abi

    contract = w3.eth.contract(address=Web3.to_checksum_address(address), abi=eas_abi())
    return contract.encode_abi("getAttestation", args=[bytes.fromhex(uid[2:])])


def main():
    parser = harness.arguments(__doc__.split("\n")[0], seconds=3, rounds=7)
    parser.add_argument("--attestations", type=int, default=1_000_000)
    parser.add_argument("--chains", type=int, default=CHAINS,
                        help="Chains the attestations are spread over.")
    parser.add_argument("--reload", action="store_true", help="Load the attestations again.")
    parser.add_argument("--no-chain", action="store_true", help="Skip the anvil comparison.")
    cache_argument(parser)
    replica.argument(parser)
    args = parser.parse_args()

    with replica.database_url(args, DATABASE_URL) as url:
        env = harness.django_database(DATABASE_URL=url)
        prepare_attestations(args.attestations, args.chains, args.reload)
        key = harness.create_api_key(env, BENCH_NAME, "api")
        try:
            with replica.serving(env, args) as served:
                service = bench_service(served, key, args)
            run_the_rest(args, service)
        finally:
            from registry.models import ApiKey

            ApiKey.objects.filter(name=BENCH_NAME).delete()


def run_the_rest(args, service) -> None:
    """The plan, and the chain compared; the summary."""
    indexed = explain(args.attestations)
    summary = [f"verify {service[0]:.1%} of healthz (target >= 70 %)",
               f"p99 {service[1]:.2f} ms (target <= 20 ms)",
               f"batch {service[4].median_ratio:.1f}x single in hashes/s (target >= 20x)",
               f"index scan {'yes' if indexed else 'NO'}"]
    if not args.no_chain:
        speedup = bench_chain(args, service)
        summary.append(f"{speedup:.1f}x web3.py getAttestation on anvil (target >= 3x)")
    say("", "== summary: " + "; ".join(summary))


if __name__ == "__main__":
    main()

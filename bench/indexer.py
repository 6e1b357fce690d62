"""The indexer's rate (attestations per second) next to a bare web3.py script, on one anvil.

An anvil node gets the real EAS contracts and 10,000 attestations of a document schema, made
with multiAttest (`--per-tx` per transaction). Then, in interleaved rounds on the same node:
- bare: web3.py alone, no database: eth_getLogs for Attested over the same block ranges and
  getAttestation for each uid in JSON-RPC batches (`w3.batch_requests()`) of the same size;
- raw: the same calls as JSON-RPC batches over `requests`, decoded with eth_abi (the leanest
  client, for scale);
- project: `index_chain` (schema registry and EAS, decoding, writing to the database), after
  a rollback of everything it read.
Targets: >= 2,000 attestations/s, and >= 50 % of the bare script's rate.

Peak memory (tracemalloc, in runs that are not timed) is measured with ranges pinned at
`--memory-range` blocks, over the second half of the blocks and then over all of them: it
follows what one range holds, not the number of blocks read.

    .venv/bin/python bench/indexer.py [--attestations 10000] [--per-tx 100] [--rounds 3]
        [--memory-range 10]

Many chains in parallel (`--chains N`, bench/indexer_chains.py): N anvils with
`--attestations` each (default 5,000), indexed by real Celery worker processes on the
`index` queue, one task per chain: total attestations/s with 1 worker and with 2, in
interleaved rounds, and the CPU seconds of the anvils, the workers and PostgreSQL beside it.
Target: 2 workers >= 1.6 x the rate of 1 (on a 2-core machine).

    .venv/bin/python bench/indexer.py --chains 8 [--attestations 5000] [--rounds 3]
        [--broker redis://127.0.0.1:6379/0]

A busy chain (`--dense N`): N attestations (default 20,000) packed into blocks of
`--per-block` (default all in one), so that one block's logs pass the transport's 10 MiB cap
(RPC_RESPONSE_MAX_BYTES): the indexer shrinks its ranges to one block and reads that block
from its transactions' receipts. Printed: the blocks, the size of one block's getLogs answer
against the cap, and per round (after a rollback) the seconds and attestations/s of
`index_chain`, and its ranges. Target: every attestation indexed, no record skipped.

    .venv/bin/python bench/indexer.py --dense 20000 [--per-block 20000] [--rounds 2]

Set DATABASE_URL to use another database (default: a local PostgreSQL `chain_registry_bench`).
Everything it inserts is removed at the end, and the anvils it started are stopped.
"""

import argparse
import os
import statistics
import time
import tracemalloc

from harness import attest_all, django_database, say

BENCH_CHAIN = 900_500


def bare_script(url: str, eas_address: str, from_block: int, range_size: int,
                batch_size: int) -> int:
    """What a lean web3.py indexer does: logs, then batched getAttestation. Returns the count."""
    from web3 import HTTPProvider, Web3

    from attestations.indexer.events import ATTESTED
    from eas_primitives.abi import eas_abi

    w3 = Web3(HTTPProvider(url))
    contract = w3.eth.contract(address=Web3.to_checksum_address(eas_address), abi=eas_abi())
    head = w3.eth.block_number
    count = 0
    for start in range(from_block, head + 1, range_size):
        logs = w3.eth.get_logs({"address": contract.address, "topics": [ATTESTED],
                                "fromBlock": start, "toBlock": min(head, start + range_size - 1)})
        uids = [bytes(log["data"]) for log in logs]
        for chunk in range(0, len(uids), batch_size):
            with w3.batch_requests() as batch:
                for uid in uids[chunk:chunk + batch_size]:
                    batch.add(contract.functions.getAttestation(uid))
                count += len(batch.execute())
    return count


def bare_raw(url: str, eas_address: str, from_block: int, range_size: int,
             batch_size: int) -> int:
    """The leanest client: JSON-RPC batches over requests, results decoded with eth_abi,
    no web3 objects and no database. An upper bound rather than a usual script."""
    import eth_abi
    import requests

    from attestations.indexer.events import ATTESTED, GET_ATTESTATION

    session = requests.Session()

    def post(body):
        return session.post(url, json=body, timeout=30).json()

    head = int(post({"jsonrpc": "2.0", "id": 0, "method": "eth_blockNumber"})["result"], 16)
    count = 0
    for start in range(from_block, head + 1, range_size):
        logs = post({"jsonrpc": "2.0", "id": 0, "method": "eth_getLogs", "params": [{
            "address": eas_address, "topics": [ATTESTED], "fromBlock": hex(start),
            "toBlock": hex(min(head, start + range_size - 1))}]})["result"]
        uids = [log["data"] for log in logs]
        for chunk in range(0, len(uids), batch_size):
            answers = post([{"jsonrpc": "2.0", "id": i, "method": "eth_call", "params": [
                {"to": eas_address, "data": GET_ATTESTATION + uid[2:]}, "latest"]}
                for i, uid in enumerate(uids[chunk:chunk + batch_size])])
            for answer in answers:
                eth_abi.decode(["(bytes32,bytes32,uint64,uint64,uint64,bytes32,address,address,"
                                "bool,bytes)"], bytes.fromhex(answer["result"][2:]))
                count += 1
    return count


def bench_chain(url: str, eas):
    """The node as the bench chain, with its schema registry and EAS deployments."""
    from registry.models import Chain, ContractName, ContractVersion, Deployment, RpcEndpoint

    Chain.objects.filter(pk=BENCH_CHAIN).delete()
    chain = Chain.objects.create(chain_id=BENCH_CHAIN, name="Bench anvil",
                                 short_name="bench-indexer", confirmations=2)
    RpcEndpoint.objects.create(chain=chain, url=url, provider="bench")
    name, _ = ContractName.objects.get_or_create(name="bench-eas")
    version, _ = ContractVersion.objects.get_or_create(contract_name=name, version="1.4.0",
                                                       defaults={"abi": []})
    deployments = [
        Deployment.objects.create(chain=chain, contract_version=version, kind=kind,
                                  address=address, start_block=block)
        for kind, address, block in (
            ("schema_registry", eas.schema_registry, eas.schema_registry_block),
            ("eas", eas.eas, eas.eas_block))
    ]
    return chain, deployments


def remove_chain(chain) -> None:
    """Everything the bench chain brought."""
    from attestations.models import Attestation, IndexCursor, Schema
    from registry.models import Deployment

    IndexCursor.objects.filter(chain=chain).delete()
    Attestation.objects.filter(chain=chain).delete()
    Schema.objects.filter(chain=chain).delete()
    Deployment.objects.filter(chain=chain).delete()
    chain.delete()


def project_run(chain, deployments) -> tuple[float, int]:
    """Roll everything back (not timed), then index the chain: (seconds, attestations)."""
    from attestations.indexer import index_chain, store
    from attestations.models import Attestation, IndexCursor

    for cursor in IndexCursor.objects.filter(deployment__in=deployments):
        store.rollback(cursor, cursor.deployment.start_block, reorg=False)
        IndexCursor.objects.filter(pk=cursor.pk).update(range_size=2000)
    started = time.perf_counter()
    report = index_chain(chain)
    elapsed = time.perf_counter() - started
    assert report.ok, report.as_dict()
    project_run.ranges = sum(d.ranges for d in report.deployments)
    return elapsed, Attestation.objects.filter(chain=chain).count()


def peak_memory(chain, deployments, from_block: int) -> float:
    """Peak traced memory (MiB) of one indexing run from `from_block` to the head."""
    from attestations.indexer import index_chain, store
    from attestations.models import IndexCursor

    for cursor in IndexCursor.objects.filter(deployment__in=deployments):
        store.rollback(cursor, max(from_block, cursor.deployment.start_block), reorg=False)
    tracemalloc.start()
    report = index_chain(chain)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert report.ok, report.as_dict()
    return peak / 2**20


def dense_case(args) -> None:
    """--dense: the indexer on a chain whose blocks hold more than one answer may."""
    import requests
    from django.conf import settings
    from web3 import HTTPProvider, Web3

    from attestations import eas as eas_contracts
    from attestations.eas import deploy_eas
    from attestations.indexer import events
    from attestations.models import IndexCursor
    from tests.anvil import Anvil
    from tests.dense_chain import attest_densely

    node = Anvil(chain_id=BENCH_CHAIN).start()
    chain = None
    try:
        w3 = Web3(HTTPProvider(node.url))
        sender = w3.eth.accounts[0].lower()
        eas = deploy_eas(w3, sender=sender)
        schema_uid = eas_contracts.register_schema(w3, eas.schema_registry,
                                                   "bytes32 documentHash", sender=sender)
        started = time.perf_counter()
        blocks = attest_densely(node, w3, eas.eas, schema_uid=schema_uid, sender=sender,
                                count=args.dense, per_tx=100, per_block=args.per_block)
        answer = requests.post(node.url, timeout=120, json={
            "jsonrpc": "2.0", "id": 1, "method": "eth_getLogs", "params": [{
                "address": eas.eas, "topics": [events.EAS_TOPICS],
                "fromBlock": hex(blocks[0]), "toBlock": hex(blocks[0])}]}).content
        cap = settings.RPC_RESPONSE_MAX_BYTES
        say(f"attested {args.dense:,} documents in {len(blocks)} block(s) "
            f"({time.perf_counter() - started:.1f} s); block {blocks[0]}'s getLogs answer: "
            f"{len(answer) / 2**20:.1f} MiB, the cap {cap / 2**20:.1f} MiB "
            f"({'over' if len(answer) > cap else 'under'} it)")
        chain, deployments = bench_chain(node.url, eas)
        rates = []
        for round_ in range(1, args.rounds + 1):
            elapsed, indexed = project_run(chain, deployments)
            cursor = IndexCursor.objects.get(deployment=deployments[1])
            ranges = project_run.ranges
            assert indexed == args.dense and not cursor.skipped, (indexed, cursor.skipped)
            rates.append(indexed / elapsed)
            say(f"round {round_}: {indexed:,} attestations indexed in {elapsed:.1f} s "
                f"({rates[-1]:,.0f}/s), {ranges} range(s), none skipped")
        say(f"median: {statistics.median(rates):,.0f} attestations/s on the dense chain")
    finally:
        if chain is not None:
            remove_chain(chain)
        node.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attestations", type=int, default=None,
                        help="attestations (per chain with --chains; default 10,000, and "
                        "5,000 per chain)")
    parser.add_argument("--per-tx", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory-range", type=int, default=10)
    parser.add_argument("--chains", type=int, default=0,
                        help="index this many anvils in parallel through Celery workers")
    parser.add_argument("--dense", type=int, default=0, metavar="N",
                        help="N attestations in few blocks, one block over the 10 MiB cap")
    parser.add_argument("--per-block", type=int, default=None,
                        help="attestations per block with --dense (default: all in one)")
    parser.add_argument("--broker", default=os.environ.get("CELERY_BROKER_URL",
                                                           "redis://127.0.0.1:6379/0"),
                        help="the Redis broker of the workers (--chains)")
    args = parser.parse_args()
    if args.chains:
        from indexer_chains import run_chains

        run_chains(args)
        return
    django_database()
    if args.dense:
        dense_case(args)
        return
    args.attestations = args.attestations or 10_000

    from django.conf import settings
    from web3 import HTTPProvider, Web3

    from attestations.eas import deploy_eas
    from attestations.models import IndexCursor
    from tests.anvil import Anvil

    node = Anvil(chain_id=BENCH_CHAIN).start()
    chain = None
    try:
        w3 = Web3(HTTPProvider(node.url))
        sender = w3.eth.accounts[0].lower()
        eas = deploy_eas(w3, sender=sender)
        started = time.perf_counter()
        attest_all(w3, eas, sender, args.attestations, args.per_tx)
        say(f"attested {args.attestations} documents in {w3.eth.block_number - eas.eas_block} "
            f"blocks ({args.per_tx} per multiAttest) in {time.perf_counter() - started:.1f} s")

        chain, deployments = bench_chain(node.url, eas)

        rates = {"bare web3.py": [], "raw JSON-RPC": [], "project": []}
        batch = settings.INDEXER_CALL_BATCH_SIZE
        for round_ in range(1, args.rounds + 1):
            for name, script in (("bare web3.py", bare_script), ("raw JSON-RPC", bare_raw)):
                started = time.perf_counter()
                count = script(node.url, eas.eas, eas.eas_block, 2000, batch)
                assert count == args.attestations, (name, count)
                rates[name].append(count / (time.perf_counter() - started))
            elapsed, indexed = project_run(chain, deployments)
            assert indexed == args.attestations, indexed
            rates["project"].append(indexed / elapsed)
            say(f"round {round_}: " + ", ".join(f"{name} {values[-1]:,.0f}/s"
                                                for name, values in rates.items()))
        median = {name: statistics.median(values) for name, values in rates.items()}
        say(f"median: project {median['project']:,.0f} attestations/s (target >= 2,000); "
            f"bare web3.py {median['bare web3.py']:,.0f}/s: project at "
            f"{100 * median['project'] / median['bare web3.py']:.0f} % (target >= 50 %); "
            f"raw JSON-RPC without database {median['raw JSON-RPC']:,.0f}/s: project at "
            f"{100 * median['project'] / median['raw JSON-RPC']:.0f} %")

        # Memory follows the logs of one range, not the blocks: ranges pinned at
        # --memory-range blocks, over half the chain and then over all of it.
        settings.INDEXER_MAX_RANGE = args.memory_range
        IndexCursor.objects.filter(chain=chain).update(range_size=args.memory_range)
        head = w3.eth.block_number
        middle = (eas.eas_block + head) // 2
        peaks = [(head - start + 1, peak_memory(chain, deployments, start))
                 for start in (middle, eas.eas_block)]
        say(f"peak memory (tracemalloc) with {args.memory_range}-block ranges: " + ", ".join(
            f"{peak:.1f} MiB over {blocks} blocks" for blocks, peak in peaks))
    finally:
        if chain is not None:
            remove_chain(chain)
        node.stop()


if __name__ == "__main__":
    main()

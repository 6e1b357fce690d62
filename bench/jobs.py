"""Batched binding requests and jobs through gunicorn: POST /workflows/batch (1,000 items),
POST .../jobs/claim with `limit` 100, POST .../jobs/results with 100 results.

On a chain of its own (a document schema, one EAS deployment, one executor): `--batches`
batch creations of 1,000 workflows each, then the executor drains the queue with claims of
100, reporting each claimed batch's results in one call (one transaction hash per batch, as a
`multi` executor would). Each request is timed alone (one client, one request at a time):
p50 and max per kind, and the same creation timed in-process (the service function without
HTTP, from the validated items). Checked afterwards: every workflow submitted, each handed
out once.

    .venv/bin/python bench/jobs.py [--batches 10] [--workers 2]

Set DATABASE_URL to use another database (default: a local PostgreSQL `chain_registry_bench`).
Everything it inserts is removed at the end.
"""

import argparse
import json
import statistics
import time
from collections import Counter
from datetime import timedelta

import harness
from harness import gunicorn, request, say

CHAIN = 900_500
SHORT_NAME = "bench-jobs"
BATCH = 1000
LIMIT = 100


def prepare():
    from django.utils import timezone

    from attestations.models import Schema
    from executors.models import Executor
    from registry.models import ApiKey, Chain, ContractName, ContractVersion, Deployment, KeyScope

    cleanup()
    chain = Chain.objects.create(chain_id=CHAIN, name="Bench jobs", short_name=SHORT_NAME,
                                 binding_mode="multi")
    name, _ = ContractName.objects.get_or_create(name="bench-jobs-eas")
    version, _ = ContractVersion.objects.get_or_create(contract_name=name, version="1.0.0",
                                                       defaults={"abi": []})
    eas = Deployment.objects.create(chain=chain, address="0x" + "ea" * 20,
                                    contract_version=version, kind=Deployment.Kind.EAS)
    Schema.objects.create(
        chain=chain, uid="0x" + "5c" * 32, deployment=eas, schema="bytes32 documentHash",
        fields=[{"name": "documentHash", "type": "bytes32"}], resolver="0x" + "00" * 20,
        revocable=True, document_hash_field="documentHash", tx_hash="0x" + "11" * 32,
        block_number=1, block_hash="0x" + "22" * 32, log_index=0)
    api, raw_api = ApiKey.issue(name=SHORT_NAME, scope=KeyScope.API)
    executor_key, raw_executor = ApiKey.issue(name=SHORT_NAME, scope=KeyScope.EXECUTOR)
    now = timezone.now()
    executor = Executor.objects.create(
        chain=chain, address="0x" + "be" * 20, name="bench", registered_by=executor_key.display_prefix,
        lease_expires_at=now + timedelta(hours=1), last_heartbeat_at=now)
    return raw_api, raw_executor, str(executor.pk)


def cleanup() -> None:
    from attestations.models import Schema
    from bindings.models import Workflow
    from executors.models import Executor
    from registry.models import ApiKey, Chain, Deployment

    Workflow.objects.filter(chain_id=CHAIN).delete()
    Executor.objects.filter(chain_id=CHAIN).delete()
    Schema.objects.filter(chain_id=CHAIN).delete()
    Deployment.objects.filter(chain_id=CHAIN).delete()
    Chain.objects.filter(pk=CHAIN).delete()
    ApiKey.objects.filter(name=SHORT_NAME).delete()


def timed(port: int, path: str, key: str, body: dict) -> tuple[float, int, bytes]:
    headers = {"X-API-Key": key, "Content-Type": "application/json"}
    data = json.dumps(body).encode()
    started = time.perf_counter()
    status, content = request(port, "POST", path, headers, data)
    return (time.perf_counter() - started) * 1000, status, content


def documents(batch: int) -> list[dict]:
    return [{"documentHash": "0x" + f"{batch * BATCH + n + 1:064x}", "chainId": CHAIN}
            for n in range(BATCH)]


def run(port: int, raw_api: str, raw_executor: str, executor_id: str, batches: int) -> dict:
    times: dict[str, list[float]] = {"create": [], "claim": [], "results": []}
    for batch in range(batches):
        ms, status, content = timed(port, "/workflows/batch", raw_api,
                                    {"workflows": documents(batch)})
        if status != 201:
            raise SystemExit(f"POST /workflows/batch: {status} {content[:300]!r}")
        times["create"].append(ms)
    handed = []
    while True:
        ms, status, content = timed(port, f"/v1/chain-registry/{SHORT_NAME}/jobs/claim",
                                    raw_executor, {"executorId": executor_id, "limit": LIMIT})
        jobs = json.loads(content)["jobs"] if status == 200 else None
        if jobs is None:
            raise SystemExit(f"claim: {status} {content[:300]!r}")
        if not jobs:
            break
        times["claim"].append(ms)
        ids = [job["workflowId"] for job in jobs]
        handed += ids
        tx = "0x" + f"{len(handed):064x}"
        ms, status, content = timed(port, f"/v1/chain-registry/{SHORT_NAME}/jobs/results",
                                    raw_executor, {"executorId": executor_id, "results": [
                                        {"workflowId": i, "txHash": tx} for i in ids]})
        if status != 200:
            raise SystemExit(f"results: {status} {content[:300]!r}")
        times["results"].append(ms)
    times["handed"] = handed
    return times


def in_process(rounds: int = 5) -> list[float]:
    """workflows_create_many of 1,000 validated items, without HTTP (then removed)."""
    from bindings.models import Workflow
    from bindings.workflows import workflows_create_many
    from registry.authentication import KeyHolder

    holder = KeyHolder("api", SHORT_NAME, "crk_bench")
    spent = []
    for n in range(rounds):
        items = [{"chain_id": CHAIN, "document_hash": d["documentHash"], "data": {}}
                 for d in documents(1000 + n)]
        started = time.perf_counter()
        workflows_create_many(holder=holder, items=items, keys=None)
        spent.append((time.perf_counter() - started) * 1000)
        Workflow.objects.filter(chain_id=CHAIN, created_by="crk_bench").delete()
    return spent


def figures(name: str, values: list[float]) -> str:
    return (f"{name}: p50 {statistics.median(values):.1f} ms, min {min(values):.1f} ms, "
            f"max {max(values):.1f} ms ({len(values)} requests)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=10, help="batches of 1,000 workflows")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    harness.django_database()
    try:
        raw_api, raw_executor, executor_id = prepare()
        with gunicorn(harness.bench_env(), workers=args.workers) as port:
            times = run(port, raw_api, raw_executor, executor_id, args.batches)
        handed = times.pop("handed")
        from bindings.models import Workflow

        states = Counter(Workflow.objects.filter(chain_id=CHAIN).values_list("state", flat=True))
        total = args.batches * BATCH
        say(figures(f"POST /workflows/batch ({BATCH} items)", times["create"]),
            figures(f"POST .../jobs/claim (limit {LIMIT})", times["claim"]),
            figures(f"POST .../jobs/results ({LIMIT} results)", times["results"]),
            figures(f"in-process workflows_create_many ({BATCH} items)", in_process()),
            f"states afterwards: {dict(states)}; handed out {len(handed)}, "
            f"distinct {len(set(handed))}")
        if len(set(handed)) != total or len(handed) != total or states != Counter(
                {"submitted": total}):
            raise SystemExit(1)
    finally:
        cleanup()


if __name__ == "__main__":
    main()

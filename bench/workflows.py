"""Executor job claims under contention: claims per second with 4 concurrent executors
draining 10,000 queued workflows, and no job handed out twice.

The workflows are queued on a chain of their own (bulk-inserted, as POST /workflows leaves
them: queued, with their two transitions). Then 4 executors (one thread each, one HTTP
connection per request) call POST /v1/chain-registry/{chain}/jobs/claim on gunicorn until it
answers 204. Claims per second is the number of jobs handed out over the wall time from the
first claim to the last 204. Checked afterwards: every job id was handed out once, every
workflow is dispatched exactly once in the database, to the executor that received it.

    .venv/bin/python bench/workflows.py [--workflows 10000] [--executors 4] [--workers 2]

Set DATABASE_URL to use another database (default: a local PostgreSQL `chain_registry_bench`).
Everything it inserts is removed at the end.
"""

import argparse
import json
import threading
import time
import uuid
from collections import Counter
from datetime import timedelta

import harness
from harness import gunicorn, request, say

CHAIN = 900_400
SHORT_NAME = "bench-workflows"


def prepare(count: int, executors: int):
    from django.utils import timezone

    from bindings.models import Workflow, WorkflowTransition
    from executors.models import Executor
    from registry.models import ApiKey, Chain, KeyScope

    cleanup()
    chain = Chain.objects.create(chain_id=CHAIN, name="Bench workflows", short_name=SHORT_NAME)
    key, raw_key = ApiKey.issue(name=SHORT_NAME, scope=KeyScope.EXECUTOR)
    now = timezone.now()
    registered = [Executor.objects.create(
        chain=chain, address="0x" + f"{0xBE00 + n:040x}", name=f"bench-{n}",
        registered_by=key.display_prefix, lease_expires_at=now + timedelta(hours=1),
        last_heartbeat_at=now) for n in range(executors)]
    started = time.perf_counter()
    rows = [Workflow(id=uuid.uuid4(), chain=chain, document_hash="0x" + f"{n:064x}",
                     schema_uid="0x" + "5c" * 32, schema="bytes32 documentHash",
                     attestation_data=n.to_bytes(32, "big"), state="queued", available_at=now,
                     deadline=now + timedelta(hours=1), created_by="bench",
                     created_at=now + timedelta(microseconds=n), updated_at=now)
            for n in range(count)]
    Workflow.objects.bulk_create(rows, batch_size=2000)
    WorkflowTransition.objects.bulk_create(
        [WorkflowTransition(workflow=w, from_state=a, to_state=b, cause="bench", created_at=now)
         for w in rows for a, b in (("", "received"), ("received", "queued"))], batch_size=5000)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Workflow._meta.db_table}")
    say(f"{count} queued workflows on chain {CHAIN} in {time.perf_counter() - started:.1f} s; "
        f"{executors} executors")
    return raw_key, [str(e.pk) for e in registered]


def cleanup() -> None:
    from bindings.models import Workflow
    from executors.models import Executor
    from registry.models import ApiKey, Chain

    Workflow.objects.filter(chain_id=CHAIN).delete()
    Executor.objects.filter(chain_id=CHAIN).delete()
    Chain.objects.filter(pk=CHAIN).delete()
    ApiKey.objects.filter(name=SHORT_NAME).delete()


def drain(port: int, raw_key: str, executor_ids: list[str]):
    headers = {"X-API-Key": raw_key, "Content-Type": "application/json"}
    path = f"/v1/chain-registry/{SHORT_NAME}/jobs/claim"
    got: dict[str, list[str]] = {e: [] for e in executor_ids}
    errors = Counter()
    barrier = threading.Barrier(len(executor_ids) + 1)

    def executor(executor_id: str):
        body = json.dumps({"executorId": executor_id}).encode()
        barrier.wait()
        while True:
            status, content = request(port, "POST", path, headers, body)
            if status == 204:
                return
            if status != 200:
                errors[status] += 1
                continue
            got[executor_id].append(json.loads(content)["workflowId"])

    threads = [threading.Thread(target=executor, args=(e,)) for e in executor_ids]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    return got, errors, time.perf_counter() - started


def check(got: dict[str, list[str]], count: int) -> list[str]:
    from bindings.models import Workflow

    problems = []
    handed = [job for jobs in got.values() for job in jobs]
    twice = [job for job, n in Counter(handed).items() if n > 1]
    if twice:
        problems.append(f"{len(twice)} job(s) handed out more than once")
    if len(handed) != count:
        problems.append(f"{len(handed)} jobs handed out, {count} queued")
    stored = dict(Workflow.objects.filter(chain_id=CHAIN).values_list("id", "executor_id"))
    states = Counter(Workflow.objects.filter(chain_id=CHAIN).values_list("state", flat=True))
    if states != Counter({"dispatched": count}):
        problems.append(f"states afterwards: {dict(states)}")
    wrong = sum(1 for executor, jobs in got.items() for job in jobs
                if str(stored.get(uuid.UUID(job))) != executor)
    if wrong:
        problems.append(f"{wrong} job(s) stored with another executor than the one served")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workflows", type=int, default=10_000)
    parser.add_argument("--executors", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    env = harness.django_database()
    try:
        raw_key, executor_ids = prepare(args.workflows, args.executors)
        with gunicorn(env, workers=args.workers) as port:
            got, errors, seconds = drain(port, raw_key, executor_ids)
        handed = sum(len(jobs) for jobs in got.values())
        say(f"claims: {handed} in {seconds:.2f} s = {handed / seconds:.0f} claims/s with "
            f"{args.executors} concurrent executors, {args.workers} gunicorn workers",
            "per executor: " + ", ".join(str(len(jobs)) for jobs in got.values()),
            f"errors: {dict(errors) or 'none'}")
        problems = check(got, args.workflows)
        say("no job handed out twice: " + ("yes" if not problems else "NO: " + "; ".join(problems)))
        if problems or errors:
            raise SystemExit(1)
    finally:
        cleanup()


if __name__ == "__main__":
    main()

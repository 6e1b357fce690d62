"""`bench/indexer.py --chains N`: N anvils indexed in parallel by Celery workers.

Each anvil gets the EAS contracts and `--attestations` attestations (multiAttest). Two real
worker processes (`celery worker -Q index -P solo`, as many processes as workers) consume the
`index` queue; in a 1-worker round the second stops consuming it (Celery's
`cancel_consumer`), in a 2-worker round it consumes again, so rounds interleave without
restarting anything. A round rolls every chain back (not timed), then queues one
`attestations.index_chain` task per chain and waits for all of them: total attestations
over the wall time. CPU seconds of the anvils, the workers and the database's backends are
read from /proc around each round.
"""

import os
import statistics
import subprocess
import threading
import time
from contextlib import ExitStack

from harness import PYTHON, ROOT, attest_all, cpu_seconds, django_database, say

WORKERS = 2
# The anvils' chain ids: FIRST_CHAIN, FIRST_CHAIN + 1, ... (bench/indexer.py's one anvil is
# 900_500).
FIRST_CHAIN = 900_501


def start_workers(env: dict, broker: str) -> tuple[list[subprocess.Popen], list[str]]:
    names = [f"bench-index-{n}@%h" for n in range(WORKERS)]
    env = {**env, "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": broker,
           "CACHE_URL": broker, "LOG_LEVEL": "WARNING", "DB_CONN_MAX_AGE": "600"}
    processes = [subprocess.Popen(
        [PYTHON, "-m", "celery", "-A", "config.celery:app", "--quiet", "worker", "-Q", "index",
         "-P", "solo", "-n", name, "--without-gossip", "--without-mingle",
         "--without-heartbeat", "--loglevel", "WARNING"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for name in names]
    return processes, names


def wait_ready(app, names: list[str], hostname: str, timeout: float = 180) -> list[str]:
    full = [name.replace("%h", hostname) for name in names]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = app.control.ping(destination=full, timeout=1.0) or []
        if len(replies) == len(full):
            return full
    raise RuntimeError("the workers did not answer a ping")


def database_backends() -> list[int]:
    """The PostgreSQL backends serving the benchmark's database, found by their process
    titles ("postgres: ... <user> <database> <client>"): the workers' ones too."""
    from django.db import connection

    name, found = connection.settings_dict["NAME"], []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    title = cmdline.read().decode(errors="replace")
            except OSError:
                continue
            if title.startswith("postgres: ") and f" {name} " in title:
                found.append(int(entry))
    return found


def roll_back(chains) -> None:
    from attestations.indexer import store
    from attestations.models import IndexCursor

    for cursor in IndexCursor.objects.filter(chain__in=chains).select_related("deployment"):
        store.rollback(cursor, cursor.deployment.start_block, reorg=False)
        IndexCursor.objects.filter(pk=cursor.pk).update(range_size=2000)


def one_round(app, chains, pids: dict) -> tuple[float, dict]:
    """Index every chain from its start through the workers: (attestations/s, CPU s)."""
    from attestations.models import Attestation

    roll_back(chains)
    before = {name: cpu_seconds(p) for name, p in pids.items()}
    backends_before = {pid: cpu_seconds([pid]) for pid in database_backends()}
    # A worker's backend may come and go within the round (the task closes its
    # connection): sampled every 50 ms, its last reading counts.
    backends_seen: dict[int, float] = {}
    done = threading.Event()

    def sample():
        while not done.wait(0.05):
            for pid in database_backends():
                backends_seen[pid] = max(backends_seen.get(pid, 0.0), cpu_seconds([pid]))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    results = [app.send_task("attestations.index_chain", args=[chain.chain_id], queue="index",
                             ignore_result=False) for chain in chains]
    reports = [result.get(timeout=600) for result in results]
    elapsed = time.perf_counter() - started
    done.set()
    sampler.join()
    cpu = {name: cpu_seconds(p) - before[name] for name, p in pids.items()}
    cpu["PostgreSQL"] = sum(seconds - backends_before.get(pid, 0.0)
                            for pid, seconds in backends_seen.items())
    assert all(not r["skipped"] and not r["error"] for r in reports), reports
    indexed = Attestation.objects.filter(chain__in=chains).count()
    return indexed / elapsed, {**cpu, "wall": elapsed}


def run_chains(args) -> None:
    env = django_database()
    per_chain = args.attestations or 5_000
    from celery import Celery
    from web3 import HTTPProvider, Web3

    from attestations.eas import deploy_eas
    from attestations.models import Attestation, IndexCursor, Schema
    from registry.models import Chain, ContractName, ContractVersion, Deployment, RpcEndpoint
    from tests.anvil import Anvil

    chains, nodes = [], []
    app = Celery("bench-indexer", broker=args.broker, backend=args.broker)
    with ExitStack() as stack:
        stack.callback(app.close)
        stack.callback(lambda: [node.stop() for node in nodes])
        started = time.perf_counter()
        name, _ = ContractName.objects.get_or_create(name="bench-eas")
        version, _ = ContractVersion.objects.get_or_create(contract_name=name, version="1.4.0",
                                                           defaults={"abi": []})
        for n in range(args.chains):
            node = Anvil(chain_id=FIRST_CHAIN + n).start()
            nodes.append(node)
            w3 = Web3(HTTPProvider(node.url))
            sender = w3.eth.accounts[0].lower()
            eas = deploy_eas(w3, sender=sender)
            attest_all(w3, eas, sender, per_chain, args.per_tx)
            Chain.objects.filter(pk=node.chain_id).delete()
            chain = Chain.objects.create(chain_id=node.chain_id, name=f"Bench anvil {n}",
                                         short_name=f"bench-chains-{n}", confirmations=2)
            chains.append(chain)
            RpcEndpoint.objects.create(chain=chain, url=node.url, provider="bench")
            for kind, address, block in (
                    ("schema_registry", eas.schema_registry, eas.schema_registry_block),
                    ("eas", eas.eas, eas.eas_block)):
                Deployment.objects.create(chain=chain, contract_version=version, kind=kind,
                                          address=address, start_block=block)

        def forget():
            IndexCursor.objects.filter(chain__in=chains).delete()
            Attestation.objects.filter(chain__in=chains).delete()
            Schema.objects.filter(chain__in=chains).delete()
            Deployment.objects.filter(chain__in=chains).delete()
            Chain.objects.filter(pk__in=[c.pk for c in chains]).delete()

        stack.callback(forget)
        say(f"{args.chains} anvils with {per_chain:,} attestations each "
            f"({args.chains * per_chain:,} in all) in {time.perf_counter() - started:.1f} s")

        processes, names = start_workers(env, args.broker)
        for process in processes:
            stack.callback(process.wait, 30)
            stack.callback(process.terminate)
        import socket

        workers = wait_ready(app, names, socket.gethostname())
        pids = {"anvils": [node.process.pid for node in nodes],
                "workers": [process.pid for process in processes]}
        rates: dict[int, list[float]] = {1: [], 2: []}
        cpu: dict[int, list[dict]] = {1: [], 2: []}
        for round_ in range(1, args.rounds + 1):
            for count in (1, 2):
                change = app.control.cancel_consumer if count == 1 else app.control.add_consumer
                change("index", destination=workers[1:], reply=True)
                rate, used = one_round(app, chains, pids)
                rates[count].append(rate)
                cpu[count].append(used)
                say(f"round {round_}, {count} worker(s): {rate:,.0f} attestations/s in "
                    f"{used['wall']:.2f} s; CPU s: workers {used['workers']:.2f}, anvils "
                    f"{used['anvils']:.2f}, PostgreSQL {used['PostgreSQL']:.2f}")
        median = {count: statistics.median(values) for count, values in rates.items()}
        say(f"median: 1 worker {median[1]:,.0f} attestations/s, 2 workers {median[2]:,.0f}/s: "
            f"{median[2] / median[1]:.2f} x (target >= 1.6 x)")
        total = args.chains * per_chain
        for count in (1, 2):
            share = {name: statistics.median(used[name] / used["wall"] for used in cpu[count])
                     for name in ("workers", "anvils", "PostgreSQL")}
            each = {name: statistics.median(used[name] for used in cpu[count]) / total * 1e6
                    for name in ("workers", "anvils", "PostgreSQL")}
            say(f"  {count} worker(s): cores busy (CPU s / wall s): workers "
                f"{share['workers']:.2f}, anvils {share['anvils']:.2f}, PostgreSQL "
                f"{share['PostgreSQL']:.2f}; CPU per attestation: workers "
                f"{each['workers']:.0f} us, anvils {each['anvils']:.0f} us, PostgreSQL "
                f"{each['PostgreSQL']:.0f} us")

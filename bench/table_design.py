"""The attestation table at 10,000,000 rows: what each index costs, what narrower columns
would save, and whether partitioning by chain pays (docs/decisions.md, "Ten million
attestations").

Over bench/verify.py's attestations (loaded here with the same options if they are not):
1. The heap and each index: MB, and MB per million attestations.
2. The document index over the hash's 32 bytes (bytea) instead of its 66 hex characters:
   built, measured and dropped.
3. The hot verification statement (verification/sql.py), prepared as the service runs it,
   on the table and on copies partitioned by chain (LIST: a partition per chain; HASH: 4),
   each with its document index: latency per lookup (p50, p99, from this client) over the
   same random documents, without the chain (what POST /v1/verify asks) and with it, and
   the index probes of each plan. The copies are kept for the next run (`--drop` removes
   them; each takes about as much disk as the table's heap).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_10m .venv/bin/python \\
        bench/table_design.py [--attestations 10000000] [--chains 16] [--lookups 20000] [--drop]
"""

import argparse
import os
import random
import time

import bulk_attestations as data
import harness
from harness import say

TABLE = data.TABLE
COPIES = {
    "attestations_by_chain": "LIST",  # one partition per chain
    "attestations_by_hash": "HASH",  # 4 partitions, chains hashed over them
}
HASH_PARTITIONS = 4
DOCUMENT_INDEX = ("(document_hash, time, chain_id, block_number, log_index) "
                  "WHERE document_hash IS NOT NULL")


def sizes(cursor, count: int) -> None:
    """The heap (with its TOAST) and each index of the table, in MB and MB per million."""
    cursor.execute("""
        SELECT 'heap (with TOAST)', pg_table_size(%(t)s::regclass)
        UNION ALL
        SELECT indexrelid::regclass::text, pg_relation_size(indexrelid)
        FROM pg_index WHERE indrelid = %(t)s::regclass
        ORDER BY 2 DESC""", {"t": TABLE})
    rows = cursor.fetchall()
    indexes = sum(size for name, size in rows[1:] if name != "heap (with TOAST)")
    heap = next(size for name, size in rows if name == "heap (with TOAST)")
    per_million = count / 1e6
    say("", f"== {TABLE}: {count:,} attestations", f"{'relation':<46} {'MB':>8} {'MB/million':>11}")
    for name, size in rows:
        say(f"{name:<46} {size / 2**20:8.0f} {size / 2**20 / per_million:11.1f}")
    for name, size in (("all indexes", indexes), ("heap and indexes", heap + indexes)):
        say(f"{name:<46} {size / 2**20:8.0f} {size / 2**20 / per_million:11.1f}")


def narrower_document_index(cursor, count: int) -> None:
    """The document index over the hash's bytes: how much smaller (built, then dropped)."""
    cursor.execute("SET maintenance_work_mem = '1GB'")
    cursor.execute("DROP INDEX IF EXISTS bench_document_bytes_idx")
    started = time.perf_counter()
    cursor.execute(f"CREATE INDEX bench_document_bytes_idx ON {TABLE} "
                   "(decode(substr(document_hash, 3), 'hex'), time, chain_id, block_number, "
                   "log_index) WHERE document_hash IS NOT NULL")
    built = time.perf_counter() - started
    cursor.execute("SELECT pg_relation_size('attestation_document_idx'), "
                   "pg_relation_size('bench_document_bytes_idx')")
    text, raw = cursor.fetchone()
    cursor.execute("DROP INDEX bench_document_bytes_idx")
    per_million = count / 1e6
    say("", "== the document index over the hash's 32 bytes instead of its 66 hex characters",
        f"hex (as it is): {text / 2**20:.0f} MB ({text / 2**20 / per_million:.1f} per million); "
        f"bytea: {raw / 2**20:.0f} MB ({raw / 2**20 / per_million:.1f} per million, "
        f"{raw / text:.0%}; built in {built:.0f} s)")


# Partitioned copies ----------------------------------------------------------------------------


def ensure_copy(cursor, name: str, method: str, count: int, chains: int) -> None:
    """A copy of the table partitioned by chain, with the document index only; kept."""
    expected = data.mark(count, chains)
    cursor.execute("SELECT obj_description(to_regclass(%s), 'pg_class')", [name])
    if cursor.fetchone()[0] == expected:
        return
    started = time.perf_counter()
    cursor.execute(f"DROP TABLE IF EXISTS {name}")
    cursor.execute(f"CREATE TABLE {name} (LIKE {TABLE} INCLUDING DEFAULTS) "
                   f"PARTITION BY {method} (chain_id)")
    if method == "LIST":
        for chain_id in data.chain_ids(chains):
            cursor.execute(f"CREATE TABLE {name}_{chain_id} PARTITION OF {name} "
                           f"FOR VALUES IN ({chain_id})")
    else:
        for remainder in range(HASH_PARTITIONS):
            cursor.execute(f"CREATE TABLE {name}_{remainder} PARTITION OF {name} FOR VALUES "
                           f"WITH (MODULUS {HASH_PARTITIONS}, REMAINDER {remainder})")
    cursor.execute("SET maintenance_work_mem = '1GB'")
    cursor.execute(f"INSERT INTO {name} SELECT * FROM {TABLE}")
    cursor.execute(f"CREATE INDEX {name}_document_idx ON {name} {DOCUMENT_INDEX}")
    cursor.execute(f"VACUUM ANALYZE {name}")
    cursor.execute(f"COMMENT ON TABLE {name} IS %s", [expected])
    say(f"built {name} ({method}) in {time.perf_counter() - started:.0f} s")


def relations(cursor, table: str) -> list[str]:
    """The table, or its partitions, and their indexes on the document hash."""
    cursor.execute("""
        SELECT c.oid::regclass::text FROM pg_class c
        WHERE c.oid = %(t)s::regclass AND c.relkind = 'r'
           OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = %(t)s::regclass)""",
                   {"t": table})
    tables = [row[0] for row in cursor.fetchall()]
    cursor.execute("""
        SELECT indexrelid::regclass::text FROM pg_index
        WHERE indrelid = ANY(%s::regclass[]) AND pg_get_indexdef(indexrelid) LIKE '%%document_hash%%'
        """, [tables])
    return tables + [row[0] for row in cursor.fetchall()]


def partition_sizes(cursor, count: int) -> None:
    per_million = count / 1e6
    for name in (TABLE, *COPIES):
        parts = relations(cursor, name)
        cursor.execute("SELECT (sum(pg_relation_size(r::regclass)) FILTER (WHERE r LIKE '%%idx'))::bigint,"
                       " count(*) FILTER (WHERE r NOT LIKE '%%idx') FROM unnest(%s::text[]) r",
                       [parts])
        index, tables = cursor.fetchone()
        say(f"{name:<26} {tables:3d} heap(s); document index(es) {index / 2**20:6.0f} MB "
            f"({index / 2**20 / per_million:.1f} per million)")


# Latency of the hot statement ------------------------------------------------------------------


def lookups(cursor, table: str, documents: list[tuple[str, int]], with_chain: bool):
    """Each document's verification on `table`, prepared: latencies in ms, the backend's CPU
    per lookup in us (less sensitive to the shared machine's other load), the plan."""
    from django.utils import timezone

    from verification.sql import VERIFICATION_SQL

    sql = VERIFICATION_SQL.replace(f"FROM {TABLE} a", f"FROM {table} a")
    now, latencies = timezone.now(), []
    cursor.execute("SELECT pg_backend_pid()")
    backend = cursor.fetchone()
    cpu = harness.cpu_seconds(backend)
    for digest, chain_id in documents:
        params = {"document_hash": digest, "chain_id": chain_id if with_chain else None,
                  "now": now}
        started = time.perf_counter()
        cursor.execute(sql, params, prepare=True)
        cursor.fetchone()
        latencies.append((time.perf_counter() - started) * 1000)
    cpu = (harness.cpu_seconds(backend) - cpu) / len(documents) * 1e6
    cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, {
        "document_hash": documents[0][0], "chain_id": documents[0][1] if with_chain else None,
        "now": now})
    plan = "\n".join(row[0] for row in cursor.fetchall())
    return latencies, cpu, plan


def warm(cursor, table: str) -> None:
    cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
    for relation in relations(cursor, table):
        cursor.execute("SELECT pg_prewarm(%s, 'read')", [relation])


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def compare_latency(cursor, count: int, chains: int, lookups_count: int) -> None:
    rng = random.Random(3)
    total = data.documents(count)
    picked = [rng.randrange(total) for _ in range(lookups_count)]
    documents = [(data.document_hash(d), data.FIRST_CHAIN + data.attestations_of(d, count)[0]
                  % chains) for d in picked]
    say("", f"== the hot verification statement, prepared, {lookups_count} random documents "
        "each (OS cache warmed first; latency seen by this client, one at a time)")
    for table in (TABLE, *COPIES):
        warm(cursor, table)
        for with_chain in (False, True):
            lookups(cursor, table, documents[:500], with_chain)  # the generic plan settles
            latencies, cpu, plan = lookups(cursor, table, documents, with_chain)
            probes = plan.count("Index Scan using") + plan.count("Index Only Scan using")
            hits = plan.split("Buffers: ", 1)[1].split("\n", 1)[0] if "Buffers: " in plan else "?"
            say(f"{table:<26} chain {'asked ' if with_chain else 'not asked'}: "
                f"mean {sum(latencies) / len(latencies):.3f} ms, p50 {percentile(latencies, 50):.3f}"
                f" ms, p99 {percentile(latencies, 99):.3f} ms, PostgreSQL CPU {cpu:.0f} us; plan: "
                f"{probes} index scans, "
                f"buffers {hits}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--attestations", type=int, default=10_000_000)
    parser.add_argument("--chains", type=int, default=16)
    parser.add_argument("--lookups", type=int, default=20_000)
    parser.add_argument("--drop", action="store_true", help="Drop the partitioned copies.")
    args = parser.parse_args()
    harness.django_database(DATABASE_URL=os.environ.get("DATABASE_URL", harness.DEFAULT_DATABASE_URL))
    data.prepare(args.attestations, args.chains)

    from django.db import connection

    connection.ensure_connection()
    connection.connection.autocommit = True
    connection.connection.prepare_threshold = 0
    with connection.connection.cursor() as cursor:
        sizes(cursor, args.attestations)
        narrower_document_index(cursor, args.attestations)
        for name, method in COPIES.items():
            ensure_copy(cursor, name, method, args.attestations, args.chains)
        say("", "== document indexes, whole and partitioned")
        partition_sizes(cursor, args.attestations)
        compare_latency(cursor, args.attestations, args.chains, args.lookups)
        if args.drop:
            for name in COPIES:
                cursor.execute(f"DROP TABLE {name}")


if __name__ == "__main__":
    main()

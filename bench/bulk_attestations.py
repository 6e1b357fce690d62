"""Attestations for bench/verify.py at any size (10,000,000 and more): generated in Python,
loaded with one COPY, indexed after the load, and kept between runs.

The layout of attestation n (0 <= n < count), over `chains` chains 900400, 900401, ...:
- chain n % chains; its place there k = n // chains gives block k // 10 + 1, log index
  k % 10; the chain's head is 100 blocks past its last (every attestation is final);
- time 2025-01-01 + n seconds (the heap is in time order, as an indexer appends it);
- attester an executor of its chain (100 each), every tenth (n % 10 == 9) an untrusted
  address; every fiftieth (n % 50 == 7) revoked; half the recipients the zero address;
- the document: `documents(count)` distinct documents (four fifths of the attestations);
  attestation n < D attests document n, and each later one attests again an earlier
  document, (n * P) % D, mostly on another chain: a quarter of the documents are attested
  twice, the second time later. Hashes are SHA-256 of the number: uniformly spread over the
  index, as real hashes are.

A load runs in one transaction: TRUNCATE, drop the table's indexes (all but the primary key),
COPY ... FREEZE (no later VACUUM rewrites the pages), re-create the indexes as the
migrations made them, ANALYZE, and mark the table with a comment naming the layout; an
interrupted load leaves the previous data as it was. A later run that finds the mark for
the same count and chains does not load again (`--reload` forces it).
"""

import hashlib
import time
from datetime import UTC, datetime, timedelta
from math import gcd

from harness import say

FIRST_CHAIN = 900_400
EXECUTORS = 100
BENCH_NAME = "bench-verify"
EAS_ADDRESS = "0x" + "ea" * 20  # the same on every chain, as EAS is deployed
SCHEMA_UID = "0x" + "5c" * 32
EXECUTOR_ADDRESS = "0x" + "ee" * 10 + "{:020x}"  # .format(n)
TRUSTED_ADDRESS = "0x" + "7a" * 10 + "{:020x}"
UNTRUSTED = "0x" + "0b" * 20
ZERO_ADDRESS = "0x" + "00" * 20
ZERO_UID = "0x" + "00" * 32
START = datetime(2025, 1, 1, tzinfo=UTC)
REVOKED_AT = "2026-01-01 00:00:00+00"
LAYOUT = 2  # bump when the layout above changes: a kept table of another layout reloads
TABLE = "attestations_attestation"
ROWS_PER_WRITE = 20_000


def documents(count: int) -> int:
    """How many distinct documents `count` attestations carry."""
    return count - count // 5


def _multiplier(documents: int) -> int:
    """P of the re-attestations' documents: prime to D, so each document is re-attested at
    most once (n -> n * P mod D is one-to-one over the fewer than D later attestations)."""
    p = 7919
    while gcd(p, documents) != 1:
        p += 2
    return p


def document_hash(d: int) -> str:
    return "0x" + hashlib.sha256(str(d).encode()).hexdigest()


def uid(n: int) -> str:
    return "0x" + hashlib.sha256(f"uid{n}".encode()).hexdigest()


def attestations_of(d: int, count: int) -> list[int]:
    """The attestations (numbers, earliest first) of document d."""
    total = documents(count)
    found = [d] if d < total else []
    later = total + (d * pow(_multiplier(total), -1, total) - total) % total
    return found + ([later] if later < count else [])


def trusted(n: int) -> bool:
    return n % 10 != 9


def revoked(n: int) -> bool:
    return n % 50 == 7


def earliest_valid(d: int, count: int) -> int | None:
    """The attestation that verifies document d, as the service should answer."""
    return next((n for n in attestations_of(d, count) if trusted(n) and not revoked(n)), None)


def chain_ids(chains: int) -> list[int]:
    return [FIRST_CHAIN + c for c in range(chains)]


# The rows -----------------------------------------------------------------------------------

COLUMNS = ("id, chain_id, deployment_id, tx_hash, block_number, block_hash, log_index, uid, "
           "schema_uid, schema_id, attester, recipient, ref_uid, time, revocation_time, "
           "revoked_block_number, revocable, data, decoded, document_hash")


def copy_lines(count: int, chains: int, deployments: list[int], schemas: list[int]):
    """COPY text for the attestations, ROWS_PER_WRITE rows a piece."""
    total, sha = documents(count), hashlib.sha256
    p = _multiplier(total)
    days = [(START + timedelta(days=day)).strftime("%Y-%m-%d") for day in range(count // 86400 + 1)]
    block_hashes = [""] * chains
    lines = []
    for n in range(count):
        c, k = n % chains, n // chains
        block, log = k // 10 + 1, k % 10
        chain = FIRST_CHAIN + c
        if log == 0:
            block_hashes[c] = sha(f"block{chain}.{block}".encode()).hexdigest()
        doc = sha(str(n if n < total else n * p % total).encode()).hexdigest()
        attester = EXECUTOR_ADDRESS.format(k % EXECUTORS) if trusted(n) else UNTRUSTED
        recipient = ZERO_ADDRESS if n % 2 else "0x" + sha(f"to{n // 2}".encode()).hexdigest()[:40]
        seconds = n % 86400
        at = f"{days[n // 86400]} {seconds // 3600:02}:{seconds // 60 % 60:02}:{seconds % 60:02}+00"
        revocation = f"{REVOKED_AT}\t{block + 5}" if revoked(n) else "\\N\t\\N"
        lines.append(
            f"{n + 1}\t{chain}\t{deployments[c]}\t0x{sha(f'tx{n}'.encode()).hexdigest()}\t"
            f"{block}\t0x{block_hashes[c]}\t{log}\t0x{sha(f'uid{n}'.encode()).hexdigest()}\t"
            f"{SCHEMA_UID}\t{schemas[c]}\t{attester}\t{recipient}\t{ZERO_UID}\t{at}\t"
            f"{revocation}\tt\t\\\\x{doc}\t{{\"documentHash\": \"0x{doc}\"}}\t0x{doc}\n")
        if len(lines) == ROWS_PER_WRITE:
            yield "".join(lines).encode()
            lines = []
    if lines:
        yield "".join(lines).encode()


# The chains, executors and schemas ------------------------------------------------------------


def ensure_chains(count: int, chains: int) -> tuple[list[int], list[int]]:
    """Each bench chain with its EAS deployment, index cursor, schema, executors and
    trusted attesters; returns the deployments' and schemas' ids, by chain."""
    from attestations.models import IndexCursor, Schema
    from executors.models import Executor, TrustedAttester
    from registry.models import Category, Chain, ContractName, ContractVersion, Deployment

    category, _ = Category.objects.get_or_create(slug="bench", defaults={"name": "Bench"})
    name, _ = ContractName.objects.get_or_create(name="bench-eas", defaults={
        "display_name": "EAS (bench)", "category": category})
    version, _ = ContractVersion.objects.get_or_create(contract_name=name, version="1.0.0",
                                                       defaults={"abi": []})
    head = count // chains // 10 + 100
    deployments, schemas = [], []
    for chain_id in chain_ids(chains):
        chain, _ = Chain.objects.get_or_create(chain_id=chain_id, defaults={
            "name": f"Bench verify {chain_id}", "short_name": f"bench-verify-{chain_id}",
            "confirmations": 12})
        deployment, _ = Deployment.objects.get_or_create(chain=chain, address=EAS_ADDRESS, defaults={
            "contract_version": version, "kind": Deployment.Kind.EAS})
        IndexCursor.objects.update_or_create(deployment=deployment, defaults={
            "chain": chain, "next_block": head + 1, "head_block": head})
        schema, _ = Schema.objects.get_or_create(chain=chain, uid=SCHEMA_UID, defaults={
            "deployment": deployment, "schema": "bytes32 documentHash",
            "fields": [{"name": "documentHash", "type": "bytes32"}],
            "resolver": ZERO_ADDRESS, "revocable": True, "document_hash_field": "documentHash",
            "tx_hash": "0x" + "11" * 32, "block_number": 1, "block_hash": "0x" + "22" * 32,
            "log_index": 0})
        Executor.objects.bulk_create([  # offline: trusted all the same
            Executor(chain=chain, address=EXECUTOR_ADDRESS.format(n), registered_by=BENCH_NAME,
                     lease_expires_at=START, status="offline") for n in range(EXECUTORS)],
            ignore_conflicts=True)
        TrustedAttester.objects.bulk_create([
            TrustedAttester(chain=chain, address=TRUSTED_ADDRESS.format(n)) for n in range(20)],
            ignore_conflicts=True)
        deployments.append(deployment.pk)
        schemas.append(schema.pk)
    return deployments, schemas


# The load -------------------------------------------------------------------------------------


def mark(count: int, chains: int) -> str:
    return f"bench/verify.py: {count} attestations over {chains} chains, layout {LAYOUT}"


def prepare(count: int, chains: int, reload: bool = False) -> None:
    """The bench chains and `count` attestations over them, loaded unless already there."""
    from django.db import connection

    deployments, schemas = ensure_chains(count, chains)
    with connection.cursor() as cursor:
        cursor.execute("SELECT obj_description(%s::regclass, 'pg_class')", [TABLE])
        if cursor.fetchone()[0] == mark(count, chains) and not reload:
            say(f"{count} attestations over {chains} chains already loaded (--reload to load "
                "again)")
            return
        refuse_foreign_rows(cursor, chains)
    load(count, chains, deployments, schemas)


def refuse_foreign_rows(cursor, chains: int) -> None:
    """The load empties the table: only in a database whose attestations are the bench's."""
    ids = chain_ids(chains)
    cursor.execute(f"SELECT chain_id FROM {TABLE} WHERE chain_id < %s OR chain_id > %s LIMIT 1",
                   [ids[0], ids[-1]])
    if cursor.fetchone():
        raise SystemExit(f"{TABLE} holds attestations of other chains: give the bench a "
                         "database of its own (DATABASE_URL)")


def load(count: int, chains: int, deployments: list[int], schemas: list[int]) -> None:
    from django.db import connection, transaction

    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL maintenance_work_mem = '1GB'")
        # The rows are consistent by construction: no foreign-key trigger per row.
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(f"TRUNCATE {TABLE}")
        indexes = drop_indexes(cursor)
        with cursor.cursor.copy(f"COPY {TABLE} ({COLUMNS}) FROM STDIN WITH (FREEZE)") as copy:
            for piece in copy_lines(count, chains, deployments, schemas):
                copy.write(piece)
        loaded = time.perf_counter()
        say(f"copied {count} attestations in {loaded - started:.0f} s")
        for name, create in indexes:
            began = time.perf_counter()
            cursor.execute(create)
            say(f"  {name}: built in {time.perf_counter() - began:.0f} s")
        cursor.execute(f"SELECT setval(pg_get_serial_sequence('{TABLE}', 'id'), %s)", [count])
        cursor.execute(f"ANALYZE {TABLE}")
        cursor.execute(f"COMMENT ON TABLE {TABLE} IS %s", [mark(count, chains)])
    say(f"loaded {count} attestations over {chains} chains in "
        f"{time.perf_counter() - started:.0f} s ({time.perf_counter() - loaded:.0f} s of it "
        "indexing)")


def drop_indexes(cursor) -> list[tuple[str, str]]:
    """Drops every index of the table but its primary key (which the load fills in order);
    returns (name, statement that re-creates it), a unique constraint as a constraint."""
    cursor.execute("""
        SELECT i.relname, pg_get_indexdef(x.indexrelid), c.conname, pg_get_constraintdef(c.oid)
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
        WHERE x.indrelid = %s::regclass AND NOT x.indisprimary ORDER BY i.relname""", [TABLE])
    recreate = []
    for index, definition, constraint, constraint_definition in cursor.fetchall():
        if constraint:
            cursor.execute(f"ALTER TABLE {TABLE} DROP CONSTRAINT {constraint}")
            recreate.append((index, f"ALTER TABLE {TABLE} ADD CONSTRAINT {constraint} "
                                    f"{constraint_definition}"))
        else:
            cursor.execute(f"DROP INDEX {index}")
            recreate.append((index, definition))
    return recreate

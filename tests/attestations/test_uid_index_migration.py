"""One index for an attestation's uid (migration 0011, docs/decisions.md "Ten million
attestations"): the unique constraint is (uid, chain_id) and answers a lookup by uid alone;
the migration keeps the rows and the constraint both ways, on PostgreSQL (concurrently) and
on SQLite."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from attestations.models import Attestation
from tests.factories import AttestationFactory

# Migrating a schema needs no open transaction (SQLite refuses it inside one).
pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("attestations", "0010_offchain_attestations")]
TABLE = Attestation._meta.db_table


def migrate(targets) -> None:
    MigrationExecutor(connection).migrate(targets)


def latest() -> list:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def uid_indexes() -> dict[str, tuple[list[str], bool]]:
    """Each index whose columns include uid: (its columns, whether unique)."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, TABLE)
    return {name: (c["columns"], c["unique"]) for name, c in found.items()
            if "uid" in c["columns"] and (c["index"] or c["unique"])}


def test_one_unique_index_answers_the_uid():
    assert uid_indexes() == {"unique_attestation_uid": (["uid", "chain_id"], True)}


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_a_lookup_by_uid_alone_reads_the_unique_index():
    attestation = AttestationFactory()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a few rows: as at millions
        cursor.execute(f"EXPLAIN SELECT id FROM {TABLE} WHERE uid = %s", [attestation.uid])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "unique_attestation_uid" in plan, plan


def test_the_migration_keeps_rows_and_uniqueness_both_ways():
    attestation = AttestationFactory()
    try:
        migrate(BEFORE)
        assert uid_indexes() == {"unique_attestation_uid": (["chain_id", "uid"], True),
                                 "attestation_uid_idx": (["uid"], False)}
        migrate(latest())
        assert uid_indexes() == {"unique_attestation_uid": (["uid", "chain_id"], True)}
        assert Attestation.objects.get(uid=attestation.uid).pk == attestation.pk
        duplicate = Attestation.objects.values().get(pk=attestation.pk)
        duplicate.pop("id")
        with pytest.raises(IntegrityError), transaction.atomic():
            Attestation.objects.create(**duplicate)
    finally:
        migrate(latest())

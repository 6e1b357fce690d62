"""Migration 0013 (issue 34, item 6): attestations stored earlier without decoded data get
their document hash from its place in the data, and `undecodable` when the data does not
fit its schema, from the data they keep (no chain is asked). PostgreSQL and SQLite."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from attestations.models import Attestation
from attestations.schema import MAX_DECODED_DATA, encode, parse
from tests.factories import AttestationFactory, SchemaFactory

pytestmark = pytest.mark.django_db(transaction=True)  # SQLite migrates outside a transaction

SCHEMA = "string title,bytes32 documentHash"
DOCUMENT = "0x" + "ab" * 32


def migrate(targets) -> None:
    MigrationExecutor(connection).migrate(targets)


def latest() -> list:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_records_stored_without_decoded_data_get_their_document_hash():
    schema = SchemaFactory(schema=SCHEMA, fields=[f.as_dict() for f in parse(SCHEMA)])
    long = encode(parse(SCHEMA), ("t" * (MAX_DECODED_DATA + 1), bytes.fromhex(DOCUMENT[2:])))
    broken = bytearray(encode(parse(SCHEMA), ("t", bytes.fromhex(DOCUMENT[2:]))))
    broken[:32] = (10**6).to_bytes(32, "big")  # the title's offset points past the end
    earlier = "as stored before 0013"
    rows = {name: AttestationFactory(schema=schema, data=bytes(data), decoded=None,
                                     document_hash=None, decode_error=earlier).pk
            for name, data in (("long", long), ("broken", broken))}
    decoded = AttestationFactory(schema=schema).pk  # decoded: left as it is
    try:
        migrate([("attestations", "0012_merkle_batches")])
        migrate(latest())
        long_row, broken_row = (Attestation.objects.get(pk=rows[name]) for name in rows)
        assert (long_row.document_hash, long_row.undecodable) == (DOCUMENT, False)
        assert long_row.decode_error.startswith("Not decoded: the data is")
        assert (broken_row.document_hash, broken_row.undecodable) == (DOCUMENT, True)
        assert "does not decode with the schema" in broken_row.decode_error
        untouched = Attestation.objects.get(pk=decoded)
        assert untouched.decode_error == "" and untouched.undecodable is False
    finally:
        migrate(latest())

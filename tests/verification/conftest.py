"""What the verification tests share: an indexed chain with an executor, and attestations by it."""

from tests.factories import (
    AttestationFactory,
    ChainFactory,
    ExecutorFactory,
    IndexCursorFactory,
    SchemaFactory,
)

EXECUTOR = "0x" + "e1" * 20
# The answer of a hash that does not verify: every field null but `verified` and `reason`.
NOT_VERIFIED = {"verified": False, "attestationId": None, "timestamp": None, "chainId": None,
                "attester": None, "schemaId": None, "txHash": None, "blockNumber": None,
                "confirmations": None, "blockHash": None, "logIndex": None,
                "easAddress": None, "getAttestationCall": None, "offchain": None,
                "timestampProven": None, "reason": "not_found"}


def not_verified(reason: str) -> dict:
    return {**NOT_VERIFIED, "reason": reason}


def get_attestation_call(eas_address: str, uid: str) -> dict:
    """The eth_call a verified answer names: getAttestation(uid) on its EAS contract."""
    return {"to": eas_address, "data": "0xa3112a64" + uid[2:]}


def indexed_chain(head_block: int | None = 1000, **fields):
    """A chain indexed up to `head_block` (None: not indexed) with the executor EXECUTOR."""
    chain = ChainFactory(**fields)
    if head_block is not None:
        IndexCursorFactory(deployment__chain=chain, head_block=head_block)
    ExecutorFactory(chain=chain, address=EXECUTOR)
    return chain


def attest_by_the_executor(chain, **fields):
    """An indexed attestation by EXECUTOR on `chain`, in block 900, under a schema of its own."""
    schema = SchemaFactory(deployment__chain=chain)
    fields = {"attester": EXECUTOR, "block_number": 900, **fields}
    return AttestationFactory(schema=schema, **fields)


def query_plan(sql: str, params: dict) -> str:
    """What the database's planner would do with `sql` over the few rows of a test (told
    to analyse them, and on PostgreSQL not to prefer a sequential scan of so few)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE attestations_attestation")
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "\n".join(str(row) for row in cursor.fetchall())

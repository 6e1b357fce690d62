"""What the verification tests share: an indexed chain with an executor, and attestations by it."""

from tests.factories import (
    AttestationFactory,
    ChainFactory,
    ExecutorFactory,
    IndexCursorFactory,
    SchemaFactory,
)

EXECUTOR = "0x" + "e1" * 20
# The answer of a hash that does not verify: every field null but `verified`, `reason` and
# `chainStalled` (and `finality`, when an attestation or the asked chain says what "final"
# means there).
NOT_VERIFIED = {"verified": False, "attestationId": None, "timestamp": None, "chainId": None,
                "attester": None, "schemaId": None, "txHash": None, "blockNumber": None,
                "confirmations": None, "blockHash": None, "logIndex": None,
                "easAddress": None, "getAttestationCall": None, "offchain": None,
                "timestampProven": None, "merkleRoot": None, "proof": None,
                "finality": None, "chainStalled": False, "issuer": None, "reason": "not_found"}


def not_verified(reason: str, **more) -> dict:
    return {**NOT_VERIFIED, "reason": reason, **more}


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


def query_plan(sql: str, params: dict, *, by_conditions: bool = False) -> str:
    """What the database's planner would do with `sql` over the few rows of a test (told
    to analyse them, and on PostgreSQL not to prefer a sequential scan of so few). With
    `by_conditions`, PostgreSQL may read an index only by a condition of the query (bitmap
    scans): over so few rows it may otherwise walk a whole index of another order, as no
    planner would over millions."""
    from django.db import connection

    from verification import rules

    params = {**rules.parameters(), **params}  # what the rules' predicates take (settings)
    with connection.cursor() as cursor:
        for table in ("attestations_attestation", "attestations_merklebatch",
                      "attestations_merkleleaf"):
            cursor.execute(f"ANALYZE {table}")
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
            if by_conditions:
                cursor.execute("SET LOCAL enable_indexscan = off")
            else:  # a Sort then means no index gives the order (dead rows of rolled-back
                cursor.execute("SET LOCAL enable_sort = off")  # tests once tipped the costs)
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "\n".join(str(row) for row in cursor.fetchall())


def bind_in_merkle_batch(chain, documents: list[str], **fields):
    """A Merkle batch of `documents` on `chain`: its root attested by EXECUTOR (under a root
    schema, in block 900 unless `fields` say otherwise), its leaves with their proofs, as the
    workflow tracking leaves them. Returns (root attestation, eas_primitives.merkle tree)."""
    from attestations.models import MerkleBatch, MerkleLeaf
    from eas_primitives.merkle import ROOT_SCHEMA, MerkleTree

    tree = MerkleTree.of(documents)
    schema = SchemaFactory(deployment__chain=chain, schema=ROOT_SCHEMA, document_hash_field="",
                           fields=[{"name": "merkleRoot", "type": "bytes32"}])
    fields = {"attester": EXECUTOR, "block_number": 900, **fields}
    root = AttestationFactory(schema=schema, document_hash=None, data=bytes.fromhex(tree.root[2:]),
                              decoded={"merkleRoot": tree.root}, **fields)
    batch = MerkleBatch.objects.create(chain=chain, root=tree.root, attester=root.attester,
                                       tx_hash=root.tx_hash, attestation_uid=root.uid,
                                       leaf_count=len(documents))
    MerkleLeaf.objects.bulk_create(MerkleLeaf(batch=batch, document_hash=d, proof=tree.proof(d))
                                   for d in tree.positions)
    return root, tree

"""Binding mode `merkle` on the service's side (eas_primitives/merkle.py holds the tree).

A chain in this mode binds a claimed batch of plain documents (workflows of the chain's
document schema with no other data) with one attestation of their Merkle root under the
chain's root schema (`bytes32 merkleRoot`, registered on its SchemaRegistry like the
document schema). When the executor reports the batch (`merkleRoot` with the transaction),
the service builds the tree again from the documents it handed out, refuses a root that is
not theirs, and stores each leaf's proof (attestations.MerkleBatch / MerkleLeaf); the
tracking links the batch to the root's attestation once it is indexed and final, and
verification goes through it.
"""

from django.db import connection
from django.db.models import Case, Q, Value, When

from attestations.models import Attestation, MerkleBatch, MerkleLeaf, Schema
from core.db import insert_columns
from core.errors import Conflict
from eas_primitives.abi import ZERO_ADDRESS
from eas_primitives.merkle import ROOT_FIELD, ROOT_SCHEMA, MerkleTree
from registry.models import Chain


def chain_root_schema(chain: Chain) -> Schema | None:
    """The chain's root schema: `bytes32 merkleRoot`, revocable (a batch can be taken back),
    with no resolver when there are several, else the earliest."""
    plain = Q(resolver=ZERO_ADDRESS)
    return (
        Schema.objects.filter(chain=chain, schema=ROOT_SCHEMA, revocable=True)
        .order_by(Case(When(plain, then=Value(0)), default=Value(1)), "block_number", "log_index")
        .first()
    )


def record_batch(chain: Chain, *, attester: str, root: str, tx_hash: str, workflows) -> MerkleBatch:
    """Store the reported batch `workflows` under `root` (inside the report's transaction):
    Conflict (merkle_root_mismatch) when `root` is not the root of their documents. A repeat
    of the same report keeps the batch it made."""
    tree = MerkleTree.of(workflow.document_hash for workflow in workflows)
    if tree.root != root:
        raise Conflict(f"merkleRoot {root} is not the root of the reported workflows' documents "
                       f"({len(workflows)} of them; their root is {tree.root}).",
                       code="merkle_root_mismatch")
    batch = MerkleBatch.objects.filter(chain=chain, root=root, attester=attester).first()
    if batch is not None:
        if batch.tx_hash != tx_hash:  # a replacement transaction (more gas, same nonce)
            MerkleBatch.objects.filter(pk=batch.pk).update(tx_hash=tx_hash)
        return batch
    batch = MerkleBatch.objects.create(chain=chain, root=root, attester=attester,
                                       tx_hash=tx_hash, leaf_count=len(tree.positions),
                                       attestation_uid=_indexed_root(chain, root, attester))
    documents = list(tree.positions)
    insert_columns(MerkleLeaf, {"batch_id": [batch.pk] * len(documents),
                                "document_hash": documents,
                                "proof": [tree.proof(document) for document in documents]})
    return batch


def forget_unbound_batches(batch_ids) -> int:
    """Delete the batches among `batch_ids` that no workflow is bound by any more (their
    transaction reverted or was reorganised away, and the workflows went back to the
    queue): their leaves would verify nothing. Returns how many."""
    ids = {pk for pk in batch_ids if pk}
    if not ids:
        return 0
    return MerkleBatch.objects.filter(pk__in=ids, workflows__isnull=True).delete()[1].get(
        MerkleBatch._meta.label, 0)


def _indexed_root(chain: Chain, root: str, attester: str) -> str:
    """The uid of `attester`'s attestation of `root` under a root schema, when the indexer
    already holds it (a fast chain can mine and index the root before its report arrives;
    otherwise the indexer links the batch when it stores the root). PostgreSQL answers
    from attestation_decoded_idx (jsonb containment)."""
    if connection.vendor == "postgresql":
        holding = {"decoded__contains": {ROOT_FIELD: root}}
    else:
        holding = {f"decoded__{ROOT_FIELD}": root}
    return (Attestation.objects.filter(chain=chain, attester=attester, schema__schema=ROOT_SCHEMA,
                                       **holding)
            .order_by("block_number", "log_index").values_list("uid", flat=True).first() or "")

"""Binding mode `merkle` on the executor's side: one attestation of the root of a tree over
the batch's document hashes (eas_primitives/merkle.py, OpenZeppelin's StandardMerkleTree), under the
chain's root schema (`bytes32 merkleRoot`, the job's `rootSchemaId`). The service builds
the same tree from the documents it handed out, checks the reported root against it, and
keeps each document's proof."""

from eas_primitives.merkle import MerkleTree


def root_request(jobs: list[dict]) -> tuple[str, dict]:
    """(root, the attestation to send, as Signer.attest takes a job) for merkle jobs of one
    chain. The root's data is abi.encode(bytes32 root): the 32 bytes themselves. Revocable,
    so that the issuer can take the whole batch back."""
    tree = MerkleTree.of(job["documentHash"] for job in jobs)
    first = jobs[0]
    return tree.root, {"schemaId": first["rootSchemaId"], "encodedData": tree.root,
                       "revocable": True, "easAddress": first["easAddress"]}

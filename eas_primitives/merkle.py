"""Merkle trees of document hashes, as OpenZeppelin's `StandardMerkleTree` builds them
(@openzeppelin/merkle-tree, leaf encoding ["bytes32"]) and `MerkleProof.verify` checks them:

- a leaf is keccak256(keccak256(abi.encode(documentHash))): hashed twice, so that no leaf
  can pass for an inner node (a second-preimage attack);
- a pair is hashed sorted (keccak256 of the smaller then the larger), so that a proof is a
  plain list of siblings, without left/right flags;
- the leaves are sorted by hash and laid out as the library lays them out (a complete binary
  tree in one array, leaves at its end in reverse order), so that its proofs are the
  library's proofs, byte for byte (tests/eas_primitives/test_merkle.py checks against the
  library).

No Django here: the reference executor builds its trees with this module too.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from eth_utils import keccak

# The schema a Merkle root is attested under (docs/api.md, "Binding modes").
ROOT_SCHEMA = "bytes32 merkleRoot"
ROOT_FIELD = "merkleRoot"


def attested_root(schema: str | None, decoded) -> str | None:
    """The Merkle root an attestation holds: its decoded `merkleRoot` when its schema is the
    root schema, else None (any other attestation, or data that did not decode)."""
    if schema != ROOT_SCHEMA or not isinstance(decoded, dict):
        return None
    root = decoded.get(ROOT_FIELD)
    return root if isinstance(root, str) else None


def _bytes32(value: str | bytes) -> bytes:
    raw = bytes.fromhex(value[2:] if value[:2] in ("0x", "0X") else value) \
        if isinstance(value, str) else bytes(value)
    if len(raw) != 32:
        raise ValueError(f"Expected 32 bytes, got {len(raw)}.")
    return raw


def _hex(raw: bytes) -> str:
    return "0x" + raw.hex()


def leaf_hash(document_hash: str | bytes) -> bytes:
    """The leaf of a document hash: keccak256(keccak256(abi.encode(bytes32)))."""
    return keccak(keccak(_bytes32(document_hash)))


def hash_pair(a: bytes, b: bytes) -> bytes:
    return keccak(a + b if a <= b else b + a)


@dataclass(frozen=True)
class MerkleTree:
    """A tree over document hashes; `proof(document_hash)` and `root` as 0x hex."""

    nodes: tuple[bytes, ...]
    # document hash (lower-case 0x hex) -> the index of its leaf in `nodes`
    positions: dict[str, int]

    @classmethod
    def of(cls, document_hashes: Iterable[str]) -> "MerkleTree":
        documents = [_hex(_bytes32(d)) for d in document_hashes]
        if not documents:
            raise ValueError("A Merkle tree needs at least one leaf.")
        leaves = sorted((leaf_hash(d), d) for d in documents)
        size = 2 * len(leaves) - 1
        nodes: list[bytes] = [b""] * size
        positions = {}
        for i, (leaf, document) in enumerate(leaves):
            nodes[size - 1 - i] = leaf
            positions.setdefault(document, size - 1 - i)
        for i in range(size - 1 - len(leaves), -1, -1):
            nodes[i] = hash_pair(nodes[2 * i + 1], nodes[2 * i + 2])
        return cls(tuple(nodes), positions)

    @property
    def root(self) -> str:
        return _hex(self.nodes[0])

    def __contains__(self, document_hash: str) -> bool:
        return document_hash.lower() in self.positions

    def proof(self, document_hash: str) -> list[str]:
        """The siblings from the document's leaf up to the root."""
        index = self.positions[document_hash.lower()]
        proof = []
        while index > 0:
            sibling = index + 1 if index % 2 else index - 1
            proof.append(_hex(self.nodes[sibling]))
            index = (index - 1) // 2
        return proof


def root_of(document_hash: str, proof: Sequence[str]) -> str:
    """The root that `proof` leads to from `document_hash` (MerkleProof.processProof)."""
    node = leaf_hash(document_hash)
    for sibling in proof:
        node = hash_pair(node, _bytes32(sibling))
    return _hex(node)


def proves(document_hash: str, proof: Sequence[str], root: str) -> bool:
    """Whether `proof` leads from `document_hash` to `root` (MerkleProof.verify)."""
    return root_of(document_hash, proof) == _hex(_bytes32(root))

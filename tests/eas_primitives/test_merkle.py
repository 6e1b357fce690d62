"""eas_primitives/merkle.py against OpenZeppelin's own @openzeppelin/merkle-tree (npm): the same roots
and the same proofs, byte for byte, and proofs that the library accepts or refuses as ours do."""

import json
import os
import secrets
import subprocess
from pathlib import Path

import pytest

from eas_primitives.merkle import (
    ROOT_FIELD,
    ROOT_SCHEMA,
    MerkleTree,
    attested_root,
    proves,
    root_of,
)

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / ".cache" / "clients" / "merkle-tree"
SCRIPT = Path(__file__).with_name("merkle_tree.cjs")


def openzeppelin(trees: list[list[str]], checks: list[dict] = ()) -> dict:
    if not (LIBRARY / "node_modules" / "@openzeppelin" / "merkle-tree").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("@openzeppelin/merkle-tree is missing (scripts/client_tools.sh)")
        pytest.skip("@openzeppelin/merkle-tree is missing (scripts/client_tools.sh)")
    plan = {"dir": str(LIBRARY), "trees": trees, "checks": list(checks)}
    done = subprocess.run(["node", str(SCRIPT)], input=json.dumps(plan), capture_output=True,
                          text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def documents(count: int) -> list[str]:
    return ["0x" + secrets.token_hex(32) for _ in range(count)]


def test_roots_and_proofs_are_openzeppelins():
    sizes = [1, 2, 3, 4, 5, 7, 8, 100, 257]
    batches = [documents(n) for n in sizes]
    theirs = openzeppelin(batches)["trees"]
    for batch, their in zip(batches, theirs, strict=True):
        ours = MerkleTree.of(batch)
        assert ours.root == their["root"]
        for document in batch:
            assert ours.proof(document) == their["proofs"][document]
            assert proves(document, ours.proof(document), ours.root)


def test_the_library_accepts_our_proofs_and_refuses_what_we_refuse():
    batch, stranger = documents(10), documents(1)[0]
    tree = MerkleTree.of(batch)
    other = MerkleTree.of(documents(10))
    checks = [
        {"root": tree.root, "documentHash": batch[3], "proof": tree.proof(batch[3])},
        # a document not in the batch, with a member's proof
        {"root": tree.root, "documentHash": stranger, "proof": tree.proof(batch[3])},
        # a member's proof against another tree's root
        {"root": other.root, "documentHash": batch[3], "proof": tree.proof(batch[3])},
        # a proof cut short
        {"root": tree.root, "documentHash": batch[3], "proof": tree.proof(batch[3])[:-1]},
    ]
    theirs = openzeppelin([], checks)["checks"]
    ours = [proves(c["documentHash"], c["proof"], c["root"]) for c in checks]
    assert ours == theirs == [True, False, False, False]


def test_case_and_order_of_the_input_do_not_change_the_tree():
    batch = documents(6)
    tree = MerkleTree.of(batch)
    assert MerkleTree.of(reversed([d.upper().replace("0X", "0x") for d in batch])).root == tree.root
    assert batch[0].upper().replace("0X", "0x") in tree
    assert root_of(batch[0], tree.proof(batch[0])) == tree.root


def test_refuses_what_is_no_bytes32():
    with pytest.raises(ValueError):
        MerkleTree.of([])
    with pytest.raises(ValueError):
        MerkleTree.of(["0x1234"])


def test_only_an_attestation_under_the_root_schema_holds_a_root():
    root = "0x" + "ab" * 32
    assert attested_root(ROOT_SCHEMA, {ROOT_FIELD: root}) == root
    assert attested_root("bytes32 documentHash", {ROOT_FIELD: root}) is None
    assert attested_root(None, {ROOT_FIELD: root}) is None  # its schema is not indexed
    # Data that did not decode, or decoded to something else, holds none.
    assert attested_root(ROOT_SCHEMA, None) is None
    assert attested_root(ROOT_SCHEMA, "0x1234") is None
    assert attested_root(ROOT_SCHEMA, {ROOT_FIELD: 5}) is None
    assert attested_root(ROOT_SCHEMA, {}) is None

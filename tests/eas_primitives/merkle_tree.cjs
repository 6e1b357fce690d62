// Builds OpenZeppelin StandardMerkleTrees (@openzeppelin/merkle-tree, installed by
// scripts/client_tools.sh) for tests/eas_primitives/test_merkle.py, and checks given proofs with it.
//
//   node merkle_tree.cjs < plan.json
// plan: {"dir", "trees": [[documentHash, ...], ...],
//        "checks": [{"root", "documentHash", "proof"}, ...]}
// Output: {"trees": [{"root", "proofs": {documentHash: proof}}], "checks": [bool, ...]}
"use strict";
const { createRequire } = require("node:module");
const path = require("node:path");

const plan = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const load = createRequire(path.join(plan.dir, "package.json"));
const { StandardMerkleTree } = load("@openzeppelin/merkle-tree");

const trees = plan.trees.map((documents) => {
  const tree = StandardMerkleTree.of(documents.map((d) => [d]), ["bytes32"]);
  const proofs = {};
  for (const [i, [d]] of tree.entries()) proofs[d] = tree.getProof(i);
  return { root: tree.root, proofs };
});
const checks = (plan.checks || []).map((c) =>
  StandardMerkleTree.verify(c.root, ["bytes32"], [c.documentHash], c.proof));
process.stdout.write(JSON.stringify({ trees, checks }));

// Signs EAS offchain attestations with the official EAS SDK (ethers), for
// tests/attestations/test_offchain.py; installed by scripts/client_tools.sh.
//
//   node offchain_sign.cjs < plan.json
// plan: {"sdkDir", "rpcUrl", "eas", "privateKey", "attestations": [{"version": 0|1|2,
//        "schema", "recipient", "time", "expirationTime", "revocable", "refUID", "data",
//        "domainVersion"?, "chainId"?, "verifyingContract"?}]}
// Each is signed as the SDK signs it (its Offchain class, the version asked); the domain is
// the EAS contract's (read by the SDK), unless the plan overrides a part of it (to make a
// wrong one). Output: one JSON array of the SDK's offchain attestation packages,
// {"sig": <SignedOffchainAttestation>, "signer"}, with bigints as decimal strings.
"use strict";
const { createRequire } = require("node:module");
const path = require("node:path");

async function main() {
  const plan = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
  const load = createRequire(path.join(plan.sdkDir, "package.json"));
  const { EAS, Offchain } = load("@ethereum-attestation-service/eas-sdk");
  const { ethers } = load("ethers");
  const provider = new ethers.JsonRpcProvider(plan.rpcUrl, undefined, { staticNetwork: true });
  const signer = new ethers.Wallet(plan.privateKey, provider);
  const eas = new EAS(plan.eas);
  eas.connect(signer);
  const config = {
    address: plan.eas, version: await eas.getVersion(),
    chainId: (await provider.getNetwork()).chainId,
  };
  const packages = [];
  for (const item of plan.attestations) {
    const offchain = new Offchain({
      address: item.verifyingContract || config.address,
      version: item.domainVersion || config.version,
      chainId: item.chainId !== undefined ? BigInt(item.chainId) : config.chainId,
    }, item.version, eas);
    const sig = await offchain.signOffchainAttestation({
      schema: item.schema, recipient: item.recipient, time: BigInt(item.time),
      expirationTime: BigInt(item.expirationTime), revocable: item.revocable,
      refUID: item.refUID, data: item.data,
    }, signer);
    packages.push({ sig, signer: signer.address });
  }
  process.stdout.write(JSON.stringify(packages, (_, value) =>
    typeof value === "bigint" ? value.toString() : value));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack || error));
  process.exit(1);
});

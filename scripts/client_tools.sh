#!/usr/bin/env bash
# The real clients the /trpc and CORS tests drive (nothing is committed):
#   .cache/clients/trpc-v11, .cache/clients/trpc-v10   @trpc/client (and superjson) from npm
#   .cache/clients/eas-sdk                            the EAS SDK (and ethers), which signs the
#                                                     offchain attestations of the tests
#   .cache/clients/merkle-tree  @openzeppelin/merkle-tree, which checks the service's Merkle
#                               proofs (tests/eas_primitives/test_merkle.py)
#   .cache/clients/codegen      the schema's lint and the TypeScript types (scripts/clients.sh):
#                               @redocly/cli, openapi-typescript, typescript (tsc) from npm
#   chromium                                          Debian's package, for the browser test
#   zbarimg                                           Debian's package zbar-tools: reads the
#                                                     issuer pages' QR codes back (tests/issuance)
#   nginx                                             Debian's package: the published front of
#                                                     docker-compose.yml in tests/stack
#   promtool                                          Debian's package prometheus (without its
#                                                     recommends): checks and unit-tests the
#                                                     alert rules of deploy/prometheus
# Safe to run again; does nothing when they are there. Needs node and npm; chromium, zbarimg,
# nginx and promtool are installed with apt-get when this runs as root, else their tests are
# skipped (CI fails).
set -euo pipefail
cd "$(dirname "$0")/.."

TRPC_V11="11.25.2"
TRPC_V10="10.45.4"
SUPERJSON="2.2.6"
EAS_SDK="2.10.0"
ETHERS="6.15.0"
REDOCLY="2.77.0"
OPENAPI_TYPESCRIPT="7.13.0"
TYPESCRIPT="5.9.3"   # openapi-typescript's peer range is ^5
MERKLE_TREE="1.0.8"

install_client() {  # dir version packages...
  local dir="$1" version="$2"
  shift 2
  if [ "$(cat "$dir/VERSION" 2>/dev/null)" != "$version" ]; then
    echo "==> Installing $* (npm) into ${dir}"
    rm -rf "$dir" && mkdir -p "$dir"
    # --legacy-peer-deps: a peer typescript is for type checking only.
    npm install --no-save --no-audit --no-fund --loglevel=error --legacy-peer-deps \
      --prefix "$dir" "$@" >/dev/null
    echo "$version" > "$dir/VERSION"
  fi
}
install_client .cache/clients/trpc-v11 "$TRPC_V11+$SUPERJSON" \
  "@trpc/client@${TRPC_V11}" "@trpc/server@${TRPC_V11}" "superjson@${SUPERJSON}"
install_client .cache/clients/trpc-v10 "$TRPC_V10+$SUPERJSON" \
  "@trpc/client@${TRPC_V10}" "@trpc/server@${TRPC_V10}" "superjson@${SUPERJSON}"
install_client .cache/clients/eas-sdk "$EAS_SDK+$ETHERS" \
  "@ethereum-attestation-service/eas-sdk@${EAS_SDK}" "ethers@${ETHERS}"
install_client .cache/clients/merkle-tree "$MERKLE_TREE" "@openzeppelin/merkle-tree@${MERKLE_TREE}"
install_client .cache/clients/codegen "$REDOCLY+$OPENAPI_TYPESCRIPT+$TYPESCRIPT" \
  "@redocly/cli@${REDOCLY}" "openapi-typescript@${OPENAPI_TYPESCRIPT}" "typescript@${TYPESCRIPT}"

# Debian packages, with one `apt-get update` for all of them.
packages=()
command -v chromium >/dev/null 2>&1 || packages+=(chromium)
command -v zbarimg >/dev/null 2>&1 || packages+=(zbar-tools)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || packages+=(nginx)
# promtool alone is wanted: not prometheus's recommended node exporter.
lean=()
command -v promtool >/dev/null 2>&1 || lean+=(prometheus)
if [ "$((${#packages[@]} + ${#lean[@]}))" -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> Installing ${packages[*]} ${lean[*]} (Debian) for the browser, QR code, stack and alert tests"
    apt-get update -qq
    [ "${#packages[@]}" -eq 0 ] ||
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
    [ "${#lean[@]}" -eq 0 ] ||
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${lean[@]}" >/dev/null
  else
    echo "==> NOTE: ${packages[*]} ${lean[*]} missing and this is not root: their tests are skipped."
  fi
fi

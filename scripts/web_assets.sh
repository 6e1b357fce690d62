#!/usr/bin/env bash
# The public verification page's one library: @noble/hashes (audited; keccak-256, which Web
# Crypto lacks) from npm, its ESM build copied into verification/static/verification/vendor/
# (gitignored; collected by collectstatic and served by whitenoise). Safe to run again: does
# nothing when that version is there. Run by bootstrap.sh, and by the Dockerfile's node stage.
# Without npm it says so and the page's file picker stays off (pasting a hash still works).
set -euo pipefail
cd "$(dirname "$0")/.."

NOBLE_HASHES="2.4.0"
CACHE=.cache/web-assets
VENDOR=verification/static/verification/vendor/noble-hashes

if [ "$(cat "$VENDOR/VERSION" 2>/dev/null)" = "$NOBLE_HASHES" ]; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "==> NOTE: npm missing: the verification page's file hashing (@noble/hashes) is not installed."
  exit 0
fi
echo "==> Installing @noble/hashes ${NOBLE_HASHES} (npm) into ${VENDOR}"
rm -rf "$CACHE" && mkdir -p "$CACHE"
npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$CACHE" \
  "@noble/hashes@${NOBLE_HASHES}" >/dev/null
rm -rf "$VENDOR" && mkdir -p "$VENDOR"
# The ESM modules only (their relative imports stay valid), and the licence.
cp "$CACHE"/node_modules/@noble/hashes/*.js "$CACHE"/node_modules/@noble/hashes/LICENSE "$VENDOR"/
echo "$NOBLE_HASHES" > "$VENDOR/VERSION"

#!/usr/bin/env bash
# The API's clients, generated from the schema the code makes (no server needed):
#   clients/openapi.json             the OpenAPI schema (manage.py spectacular), linted with
#                                    Redocly CLI and redocly.yaml: no error allowed
#   clients/python/                  the Python client (openapi-python-client, with
#                                    clients/python-config.yaml)
#   clients/typescript/schema.d.ts   the TypeScript types (openapi-typescript)
#   clients/typescript/trpc.d.ts     the AppRouter of /trpc (scripts/trpc_types.py)
# clients/typescript's example.ts, trpc-example.ts and tsconfig.json are written by hand.
#
#   scripts/clients.sh              regenerate them in clients/ (commit the result)
#   scripts/clients.sh --into DIR   generate them into DIR instead (tests/test_clients.py
#                                   compares DIR with clients/)
#   scripts/clients.sh --lint       only generate the schema and lint it (scripts/test.sh)
# A generator's warning fails the run. Needs the npm tools of scripts/client_tools.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

out=clients lint_only=false
case "${1:-}" in
  --into) out="$2" ;;
  --lint) out=$(mktemp -d) lint_only=true; trap 'rm -rf "$out"' EXIT ;;
  "") ;;
  *) echo "usage: $0 [--into DIR | --lint]" >&2; exit 2 ;;
esac
bin=.cache/clients/codegen/node_modules/.bin
if [ ! -x "$bin/redocly" ] || [ ! -x "$bin/openapi-typescript" ]; then
  echo "The npm tools are missing: run scripts/client_tools.sh." >&2
  exit 1
fi
# Redocly CLI: no usage reports, no update notices (CI reaches only the registries).
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true RUFF_NO_CACHE=true
export PATH="$(pwd)/.venv/bin:$PATH"   # the locked ruff, for openapi-python-client's hooks

# Runs a generator, showing its output; a line that warns fails the run.
quiet_or_fail() {  # name, command...
  local name=$1 output
  shift
  output=$("$@" 2>&1) || { echo "$output" >&2; echo "FAIL: $name failed." >&2; exit 1; }
  echo "$output"
  if grep -qiE "warn|unable to|error" <<<"$output"; then
    echo "FAIL: $name printed a warning." >&2
    exit 1
  fi
}

mkdir -p "$out/typescript"
echo "==> Schema: $out/openapi.json (manage.py spectacular)"
.venv/bin/python manage.py spectacular --validate --fail-on-warn --format openapi-json \
  --file "$out/openapi.json"
echo "==> Schema lint: Redocly CLI (redocly.yaml)"
# (Without the box of Redocly's notice that Node.js 20 support ends: this version runs on it.)
status=0
lint=$("$bin/redocly" lint "$out/openapi.json" --config redocly.yaml --format=summary 2>&1) \
  || status=$?
grep -v "Node.js\|nodejs.org\|║\|╔\|╚" <<<"$lint" || true
[ "$status" -eq 0 ] || { echo "FAIL: the schema lint found errors." >&2; exit 1; }
"$lint_only" && exit 0

echo "==> Python client: $out/python (openapi-python-client)"
quiet_or_fail openapi-python-client .venv/bin/openapi-python-client generate \
  --path "$out/openapi.json" --config clients/python-config.yaml --meta uv \
  --output-path "$out/python" --overwrite --fail-on-warning
echo "==> TypeScript types: $out/typescript/schema.d.ts (openapi-typescript)"
# --default-non-nullable=false: a request field with a default may be left out (`live`).
quiet_or_fail openapi-typescript "$bin/openapi-typescript" "$out/openapi.json" \
  --default-non-nullable=false --output "$out/typescript/schema.d.ts"
echo "==> tRPC router type: $out/typescript/trpc.d.ts"
.venv/bin/python scripts/trpc_types.py "$out/openapi.json" > "$out/typescript/trpc.d.ts"

#!/usr/bin/env bash
# The end-to-end demo: a local anvil chain with the real EAS contracts, the service, the
# reference executor; binds a document and shows POST /v1/verify turn from false to true.
# Needs what ./scripts/run.sh needs, plus node and npm (for anvil and the EAS contracts).
# Leaves nothing running and nothing behind (its database lives in a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
./scripts/chain_tools.sh
exec .venv/bin/python scripts/demo.py

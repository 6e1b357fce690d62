#!/usr/bin/env bash
# The docs as a site (mkdocs.yml, mkdocs-material): served with live reload on
# http://127.0.0.1:8001 (DOCS_ADDRESS to change it), or written to .cache/site with
# `scripts/docs.sh build`. Both are strict: a broken link, anchor or include is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/mkdocs ] || ./scripts/bootstrap.sh
export NO_MKDOCS_2_WARNING=1  # mkdocs-material's banner about its successor
if [ "${1:-serve}" = "build" ]; then
  exec .venv/bin/mkdocs build --strict
fi
exec .venv/bin/mkdocs serve --strict --dev-addr "${DOCS_ADDRESS:-127.0.0.1:8001}"

#!/usr/bin/env bash
# Set up and run the service on its embedded default: SQLite, an in-process cache and
# in-process tasks; no other service needed. Serves http://127.0.0.1:8000 (PORT to change).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh

PORT="${PORT:-8000}"
.venv/bin/python manage.py migrate --no-input -v 0
.venv/bin/python manage.py setup_demo --base-url "http://127.0.0.1:${PORT}"
echo "==> Serving on http://127.0.0.1:${PORT} (Ctrl-C to stop)"
exec .venv/bin/python manage.py runserver "127.0.0.1:${PORT}"

#!/usr/bin/env bash
# Set up and run the service on its embedded default: SQLite, an in-process cache and
# in-process tasks; no other service needed. Serves http://127.0.0.1:8000 (PORT to change).
# Periodic work (lease expiry, ...) runs in a second process, `manage.py run_scheduler`, and
# webhooks in a third, `manage.py run_webhooks` (a receiver never holds up a request nor a
# periodic task); both stop with the server.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh

PORT="${PORT:-8000}"
.venv/bin/python manage.py migrate --no-input -v 0
.venv/bin/python manage.py setup_periodic_tasks > /dev/null
.venv/bin/python manage.py setup_demo --base-url "http://127.0.0.1:${PORT}"

mkdir -p .cache
.venv/bin/python manage.py run_scheduler > .cache/scheduler.log 2>&1 &
scheduler=$!
.venv/bin/python manage.py run_webhooks > .cache/webhooks.log 2>&1 &
webhooks=$!
trap 'kill "$scheduler" "$webhooks" 2>/dev/null || true' EXIT INT TERM

echo "==> Periodic tasks run in-process (log: .cache/scheduler.log)"
echo "==> Webhooks are delivered by run_webhooks (log: .cache/webhooks.log)"
echo "==> Serving on http://127.0.0.1:${PORT} (Ctrl-C to stop)"
.venv/bin/python manage.py runserver "127.0.0.1:${PORT}"

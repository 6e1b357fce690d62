#!/usr/bin/env bash
# Set up and run the service on its embedded default: SQLite, an in-process cache and
# in-process tasks; no other service needed. Serves http://127.0.0.1:8000 (PORT to change).
# Periodic work (lease expiry, ...) runs in a second process, `manage.py run_scheduler`, and
# webhooks in a third, `manage.py run_webhooks` (a receiver never holds up a request nor a
# periodic task); both stop with the server and are restarted (and their death said here) if
# they die first.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh

PORT="${PORT:-8000}"
.venv/bin/python manage.py migrate --no-input -v 0
.venv/bin/python manage.py setup_periodic_tasks > /dev/null
.venv/bin/python manage.py setup_demo --base-url "http://127.0.0.1:${PORT}"

# Each runs under a supervisor: when it dies, that is said here and it is started again;
# its log is appended to, so a restart keeps what came before (the traceback).
log="${SCHEDULER_LOG:-.cache/scheduler.log}"
webhooks_log="${WEBHOOKS_LOG:-.cache/webhooks.log}"
mkdir -p "$(dirname "$log")" "$(dirname "$webhooks_log")"
supervise() {  # supervise COMMAND LOG WHAT-STOPS-WITH-IT
  local command="$1" log="$2" stops="$3" child=""
  trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 0' TERM
  while true; do
    echo "==> $(date '+%F %T') starting $command" >> "$log"
    PYTHONUNBUFFERED=1 .venv/bin/python manage.py "$command" >> "$log" 2>&1 &
    child=$!
    status=0
    wait "$child" || status=$?
    if [ "$status" -gt 128 ]; then how="was killed by signal $((status - 128))"; else how="exited with status $status"; fi
    echo "==> $(date '+%F %T') $command (pid $child) $how: $stops;" \
      "restarting it in 5 s (its log: $log)" | tee -a "$log" >&2
    sleep 5 &
    child=$!
    wait "$child" || true
  done
}
supervise run_scheduler "$log" "periodic tasks stopped" &
scheduler=$!
supervise run_webhooks "$webhooks_log" "webhooks are not delivered" &
webhooks=$!
trap 'kill "$scheduler" "$webhooks" 2>/dev/null || true' EXIT INT TERM

echo "==> Periodic tasks run in-process, restarted if they stop (log: $log)"
echo "==> Webhooks are delivered by run_webhooks, restarted if it stops (log: $webhooks_log)"
echo "==> Serving on http://127.0.0.1:${PORT} (Ctrl-C to stop)"
.venv/bin/python manage.py runserver "127.0.0.1:${PORT}"

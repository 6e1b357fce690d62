#!/usr/bin/env bash
# Set up and run the whole test suite. Arguments go to pytest.
# Uses the machine's PostgreSQL and Redis on 127.0.0.1. With CI=true they are mandatory
# (started when down, a failure when they cannot be); otherwise the suite says so and falls
# back to SQLite, and the tests that need Redis are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh

PG_HOST=127.0.0.1 PG_PORT=5432 REDIS_PORT=6379
# Two checkouts testing at once on one machine keep apart by these (pytest-django makes
# test_<name>, and test_<name>_gw<n> per worker; the Redis tests flush their database, each
# worker its own: REDIS_DB and the TEST_WORKERS - 1 below it, and a worker refuses one that
# another client is connected to, naming it: tests/redis_db.py).
DB_NAME="${TEST_DATABASE_NAME:-chain_registry}" REDIS_DB="${TEST_REDIS_DB:-15}"
listening() { .venv/bin/python -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 2)" "$1" 2>/dev/null; }

# In CI, a service that is down is started (when its starter is installed) and waited for.
start_in_ci() {  # port, name, the command that starts it
  local port=$1 name=$2
  shift 2
  if ! listening "$port" && [ "${CI:-}" = "true" ] && command -v "$1" >/dev/null; then
    echo "==> Starting $name"
    "$@" || true
    for _ in $(seq 20); do listening "$port" && break; sleep 0.5; done
  fi
}
# What is missing fails a CI run, which must run every test; elsewhere the run goes on.
missing() {  # what is missing, what the run does without it
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: $1, and CI requires it." >&2
    exit 1
  fi
  echo "==> NOTE: $1: $2"
}

start_in_ci "$PG_PORT" PostgreSQL \
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql 2>/dev/null)" main start
start_in_ci "$REDIS_PORT" Redis \
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no

if listening "$PG_PORT"; then
  export DATABASE_URL="postgres://postgres@${PG_HOST}:${PG_PORT}/${DB_NAME}"
  echo "==> Database: PostgreSQL at ${PG_HOST}:${PG_PORT}"
else
  missing "PostgreSQL is not reachable at ${PG_HOST}:${PG_PORT}" "falling back to SQLite."
  export DATABASE_URL="sqlite:///$(pwd)/.cache/test.sqlite3"
  mkdir -p .cache
fi

if listening "$REDIS_PORT"; then
  export TEST_REDIS_URL="redis://127.0.0.1:${REDIS_PORT}/${REDIS_DB}"
  echo "==> Redis: 127.0.0.1:${REDIS_PORT}"
else
  missing "Redis is not reachable at 127.0.0.1:${REDIS_PORT}" "tests that need it are skipped."
fi

# The local chain (anvil and the EAS contracts, from npm) and the real clients of /trpc
# (@trpc/client from npm, Debian's chromium): mandatory in CI.
if command -v npm >/dev/null 2>&1; then
  ./scripts/chain_tools.sh
  ./scripts/client_tools.sh
else
  missing "npm, which installs anvil and the tRPC clients, is missing" \
    "the tests that need anvil or the tRPC clients are skipped."
fi

# The OpenAPI schema against Redocly's rules (redocly.yaml; Redocly CLI from npm, installed
# by client_tools.sh above). tests/test_clients.py checks that clients/ is current.
if [ -x .cache/clients/codegen/node_modules/.bin/redocly ]; then
  ./scripts/clients.sh --lint
else
  missing "Redocly CLI (npm) is missing" "the schema lint is skipped."
fi

echo "==> Lint: ruff check (rules in pyproject.toml)"
.venv/bin/ruff check --quiet .
echo "==> Dependencies: deptry (every import declared in pyproject.toml)"
# The service's code against [project] dependencies alone; then tests/ and bench/ as well,
# where the dev group counts too (settings in pyproject.toml).
.venv/bin/deptry . --no-ansi
.venv/bin/deptry . --no-ansi --exclude '\.venv|\.tools|\.cache|staticfiles|clients' --ignore DEP002,DEP004
echo "==> Imports: lint-imports (the layers in pyproject.toml: imports run one way)"
.venv/bin/lint-imports --no-cache
echo "==> Docs: mkdocs build --strict (mkdocs.yml; a broken link, anchor or include fails)"
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict  # not --quiet: it hides the warnings and passes
# The alert rules (deploy/prometheus): promtool from Debian's prometheus package, installed by
# client_tools.sh above; mandatory in CI. tests/monitoring checks the rest (metric names,
# the dashboard's queries, that each alert has its tests).
if command -v promtool >/dev/null 2>&1; then
  echo "==> Alert rules: promtool check config, promtool test rules (deploy/prometheus)"
  promtool check config deploy/prometheus/prometheus.yml
  promtool test rules deploy/prometheus/tests/*.yml
else
  missing "promtool (Debian's prometheus package) is missing" "the alert rules are not checked."
fi

# The whole suite on the database above; then, for a full run only (no pytest arguments:
# a run of chosen tests means those tests), the verification, indexer and workflow tests
# again on SQLite, the embedded default (it once verified expired attestations unnoticed).
# The exit code is the first pass's failure, else the second's.
# Both passes spread their tests over TEST_WORKERS processes (pytest-xdist; default 2, the
# machine's cores; 0 runs them in this one): each worker has a test database of its own
# (pytest-django names it) and a Redis database of its own (tests/conftest.py). Arguments
# after it win: `scripts/test.sh -n 0 tests/...` runs serially.
parallel=(-n "${TEST_WORKERS:-2}")
status=0
.venv/bin/python -m pytest "${parallel[@]}" "$@" || status=$?

# The tests that need a streaming replica (the `pg_replica` fixture; skipped above) run on a
# private PostgreSQL primary of their own (tests/private_primary.py: initdb into a temporary
# folder, a free port, stopped afterwards), whose base backup takes seconds whatever the
# machine's cluster holds. A full run passes the test files that name the fixture (not the
# whole suite: its collection alone takes a minute); exit code 5: the arguments chose none.
pg_bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
if [ -x "$pg_bin/initdb" ] && [ -x "$pg_bin/pg_basebackup" ]; then
  echo "==> The read replica tests on a private PostgreSQL primary and its streaming replica"
  replica_tests=("$@")
  [ "$#" -ne 0 ] || mapfile -t replica_tests < <(grep -rl --include='test_*.py' pg_replica tests)
  .venv/bin/python -m tests.private_primary .venv/bin/python -m pytest "${replica_tests[@]}" \
    || { code=$?; [ "$code" -eq 5 ] || [ "$status" -ne 0 ] || status=$code; }
else
  missing "PostgreSQL's server programs (initdb, pg_basebackup) are not installed" \
    "the read replica tests are skipped."
fi
if [ "$#" -eq 0 ]; then
  echo "==> The verification, indexer, workflow and webhook tests on SQLite"
  mkdir -p .cache
  DATABASE_URL="sqlite:///$(pwd)/.cache/sqlite-tests.sqlite3" .venv/bin/python -m pytest "${parallel[@]}" \
    tests/verification tests/bindings tests/attestations/test_indexer*.py tests/webhooks \
    tests/attestations/test_decoded_filters.py tests/attestations/test_offchain.py || { code=$?; [ "$status" -ne 0 ] || status=$code; }
fi
exit "$status"

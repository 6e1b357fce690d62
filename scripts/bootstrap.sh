#!/usr/bin/env bash
# Set up everything the project needs on a fresh machine; safe to run again.
# Installs uv (into .tools/ unless it is on PATH), the locked dependencies into .venv/,
# the verification page's script library (scripts/web_assets.sh, from npm), and writes a .env
# with a random SECRET_KEY on first use.
set -euo pipefail
cd "$(dirname "$0")/.."

UV_VERSION="0.13.9"
export UV_PYTHON_DOWNLOADS=never   # use the machine's Python; never fetch one

if command -v uv >/dev/null 2>&1; then
  UV=uv
else
  if [ ! -x .tools/bin/uv ]; then
    echo "==> Installing uv ${UV_VERSION} into .tools/"
    python3 -m venv .tools
    .tools/bin/pip install --quiet "uv==${UV_VERSION}"
  fi
  UV=.tools/bin/uv
fi

echo "==> Installing Python dependencies into .venv/ (uv sync --frozen)"
# Bytecode compiled now: a process's first start (a Celery worker, gunicorn) then does not
# compile its imports, which on a fresh checkout made it seconds slower than any later start.
"$UV" sync --frozen --quiet --compile-bytecode

mkdir -p staticfiles   # STATIC_ROOT; the image fills it with collectstatic
./scripts/web_assets.sh  # the verification page's @noble/hashes (npm), when npm is there

if [ ! -f .env ]; then
  echo "==> Writing .env with a new random SECRET_KEY"
  secret=$(.venv/bin/python -c "import secrets; print(secrets.token_urlsafe(50))")
  printf 'SECRET_KEY=%s\n' "$secret" > .env
fi

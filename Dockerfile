# Production image: gunicorn serving config.wsgi; the same image runs the Celery worker, beat
# and the one-shot `migrate`. nginx (deploy/nginx.conf, its own image) is the published front.
# The EAS ABI is built by the code from the function signatures: no artifacts. npm only in the
# first stage, for the verification page's @noble/hashes (scripts/web_assets.sh).

FROM node:24-bookworm-slim AS web-assets
WORKDIR /src
COPY scripts/web_assets.sh scripts/
RUN ./scripts/web_assets.sh && test -f verification/static/verification/vendor/noble-hashes/sha3.js

FROM python:3.11-slim-bookworm AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_PYTHON_DOWNLOADS=never \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    PATH="/app/.venv/bin:$PATH"

WORKDIR /app
RUN pip install --no-cache-dir "uv==0.13.9"

# Dependencies first, so that code changes do not reinstall them.
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project

COPY . .
COPY --from=web-assets /src/verification/static/verification/vendor verification/static/verification/vendor
# collectstatic needs settings; DEBUG lets them load without a SECRET_KEY (none is kept).
RUN DEBUG=true python manage.py collectstatic --no-input -v 0

RUN useradd --system --uid 10001 app && chown -R app /app/staticfiles
USER app

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
# Settings (bind, workers from WEB_CONCURRENCY, time-outs, ...) in gunicorn.conf.py.
CMD ["gunicorn", "config.wsgi:application"]

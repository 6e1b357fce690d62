# Production image: gunicorn serving config.wsgi, the same image runs the Celery worker and beat.

# The EAS contracts' ABIs (needed at run time to read the chain), fetched as the set-up
# script does: `npm pack` of the contracts package, two JSON files extracted (not committed).
FROM node:20-slim AS eas
ARG EAS_VERSION=1.9.0
WORKDIR /eas
RUN npm pack --silent "@ethereum-attestation-service/eas-contracts@${EAS_VERSION}" \
 && tar -xzf *.tgz package/artifacts/contracts/EAS.sol/EAS.json \
        package/artifacts/contracts/SchemaRegistry.sol/SchemaRegistry.json \
 && mv package/artifacts/contracts/EAS.sol/EAS.json \
       package/artifacts/contracts/SchemaRegistry.sol/SchemaRegistry.json . \
 && echo "${EAS_VERSION}" > VERSION && rm -rf package *.tgz

FROM python:3.11-slim AS base

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
COPY --from=eas /eas /app/.tools/eas
# collectstatic needs settings; DEBUG lets them load without a SECRET_KEY (none is kept).
RUN DEBUG=true python manage.py collectstatic --no-input -v 0

RUN useradd --system --uid 10001 app && chown -R app /app/staticfiles
USER app

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "4", "--access-logfile", "-"]

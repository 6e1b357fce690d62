"""Security review (issue 9): startup refusals, `check --deploy`, headers, secrets kept out of
logs, and admin-only data kept out of responses to api and executor keys."""

import logging
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from config.env import Env
from core.log import MaskSecretsFilter, mask_secrets
from registry.models import ApiKey
from tests.factories import ChainFactory, ExecutorFactory, RpcEndpointFactory
from tests.routes import api_routes

DEVELOPMENT_SECRET_KEY = "insecure-development-key-do-not-use-in-production"
ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_ENV = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "DEBUG": "false",
    "BEHIND_TLS_PROXY": "true",
    "ALLOWED_HOSTS": "registry.example.com",
    "DATABASE_URL": "postgres://registry@db.internal:5432/registry",
    "CACHE_URL": "redis://cache.internal:6379/1",
    "CELERY_BROKER_URL": "redis://cache.internal:6379/0",
}


def manage(*args, **env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_under_a_production_environment():
    done = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_service_refuses_to_start_with_an_insecure_secret_key():
    done = manage("check", **{**PRODUCTION_ENV, "SECRET_KEY": "too-short"})
    assert done.returncode != 0
    assert "SECRET_KEY is insecure" in done.stderr


@pytest.mark.parametrize("secret_key, reason", [
    ("too-short", "9 characters"),
    (DEVELOPMENT_SECRET_KEY, "development key"),
    ("django-insecure-" + "x" * 60, "development key"),
    ("ab" * 40, "2 distinct"),
])
def test_what_makes_a_secret_key_insecure(secret_key, reason):
    assert reason in Env.secret_weakness(secret_key, DEVELOPMENT_SECRET_KEY)
    assert Env.secret_weakness(secrets.token_urlsafe(50), DEVELOPMENT_SECRET_KEY) is None


def test_debug_is_off_unless_asked_for():
    code = "from django.conf import settings; print(settings.DEBUG)"
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "DEBUG"}
    done = manage("shell", "-c", code, **env)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr


# Headers.


@pytest.mark.django_db
def test_responses_carry_the_security_headers(anon):
    response = anon.get("/healthz")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "Strict-Transport-Security" not in response  # plain HTTP: no HSTS
    assert anon.get("/admin/login/")["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_hsts_is_sent_behind_a_tls_proxy(anon, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    response = anon.get("/healthz", HTTP_X_FORWARDED_PROTO="https")
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


# Keys never reach a log line.


def test_an_api_key_in_a_log_line_keeps_only_its_prefix():
    raw = "crk_0123456789ab." + "A" * 43
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "got key %s", (raw,), None)
    MaskSecretsFilter().filter(record)
    assert record.getMessage() == "got key crk_0123456789ab.***"


def test_environment_keys_are_masked_in_log_lines(settings):
    settings.ADMIN_API_KEY = "Z" * 40
    assert mask_secrets(f"header was Bearer {'Z' * 40}") == "header was Bearer ***"


@pytest.mark.django_db
def test_no_log_record_carries_a_key_during_requests(caplog, admin_key):
    caplog.set_level(logging.DEBUG)
    wrong = "crk_0123456789ab." + "B" * 43
    for key in (admin_key, wrong):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_X_API_KEY=key)
        client.get("/v1/admin/chains")
        client.get("/chains")
        client.get(f"/nowhere?key={key}")
    text = "\n".join(record.getMessage() for record in caplog.records)
    for key in (admin_key, wrong):
        assert key.split(".")[1] not in text


# Admin-only data stays out of what api and executor keys can read.


@pytest.mark.django_db
def test_api_and_executor_keys_never_see_admin_only_data(api_key, executor_key):
    rpc_secret = "AbCdEf0123456789AbCdEf0123456789"
    chain = ChainFactory()
    RpcEndpointFactory(chain=chain, url=f"https://rpc.example.com/v2/{rpc_secret}")
    ExecutorFactory(chain=chain)
    digests = list(ApiKey.objects.values_list("digest", flat=True))
    for key, scope in ((api_key, "api"), (executor_key, "executor")):
        client = APIClient()
        client.credentials(HTTP_X_API_KEY=key)
        routes = [r for r in api_routes() if r.method == "get" and r.scope == scope]
        for route in routes:
            path = re.sub(r"\{[^}]+\}", str(chain.chain_id), route.template)
            response = client.get(path)
            assert response.status_code < 500, (route, response.content)
            text = response.content.decode()
            assert rpc_secret not in text, route
            assert not any(digest in text for digest in digests), route

"""API keys and the authentication matrix of every route (SPEC section 2)."""

import os
import subprocess
import sys
import time
from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from config.env import Env
from registry.models import ApiKey, KeyScope
from tests.conftest import assert_problem, make_key
from tests.routes import PUBLIC_PATHS, Route, api_routes, scoped_routes

pytestmark = pytest.mark.django_db

ROUTES = scoped_routes()
BEARER_ROUTES = [route for route in ROUTES if route.uses_bearer]
WRONG_SCOPES = {
    KeyScope.ADMIN: [KeyScope.API, KeyScope.EXECUTOR],
    KeyScope.API: [KeyScope.EXECUTOR],
    KeyScope.EXECUTOR: [KeyScope.API],
}
WRONG_SCOPE_CASES = [(route, scope) for route in ROUTES for scope in WRONG_SCOPES[route.scope]]


def call(route: Route, key: str | None = None, *, bearer: bool | None = None, **headers):
    """Send `route`'s method with `key` in the header the route expects (or the other one)."""
    client = APIClient()
    if key is not None:
        if route.uses_bearer if bearer is None else bearer:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {key}"
        else:
            headers["HTTP_X_API_KEY"] = key
    body = {} if route.method in ("post", "put", "patch") else None
    return getattr(client, route.method)(route.path, body, format="json", **headers)


def assert_unauthorized(route: Route, response, code: str) -> dict:
    body = assert_problem(response, 401, code)
    expected_scheme = "Bearer" if route.uses_bearer else "ApiKey"
    assert response["WWW-Authenticate"].startswith(expected_scheme)
    return body


def revoked(scope: str) -> str:
    raw_key = make_key(scope)
    ApiKey.objects.find(raw_key).revoke()
    return raw_key


# The matrix: every method of every route that needs a key.


def test_the_matrix_found_the_admin_routes():
    templates = {route.template for route in ROUTES}
    assert {"/v1/admin/chains", "/v1/admin/chains/{chainId}", "/v1/admin/chains/{chainId}/status",
            "/v1/admin/rpc/health", "/v1/admin/rpc/health/{id}"} <= templates
    assert len(BEARER_ROUTES) >= 34  # 6 resources x 5 methods, status, rpc/health x 3


def test_every_api_route_needs_a_key_except_the_schema_and_its_docs():
    unprotected = {route.path for route in api_routes() if route.scope is None}
    assert unprotected == PUBLIC_PATHS


def test_every_admin_route_takes_a_bearer_key_of_scope_admin():
    admin_routes = [route for route in ROUTES if route.path.startswith("/v1/admin/")]
    assert admin_routes
    assert all(route.uses_bearer and route.scope == KeyScope.ADMIN for route in admin_routes)


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_a_request_without_a_key_is_401_with_www_authenticate(route):
    body = assert_unauthorized(route, call(route), "not_authenticated")
    expected = "Authorization: Bearer <key>" if route.uses_bearer else "X-API-Key: <key>"
    assert expected in body["detail"]


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_an_unknown_key_is_401(route):
    assert_unauthorized(route, call(route, "crk_000000000000." + "A" * 43), "invalid_key")


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_an_expired_key_is_401(route, expired_key):
    assert_unauthorized(route, call(route, expired_key), "expired_key")


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_a_revoked_key_is_401(route):
    assert_unauthorized(route, call(route, revoked(KeyScope.ADMIN)), "revoked_key")


@pytest.mark.parametrize("route, scope", WRONG_SCOPE_CASES, ids=lambda v: str(v))
def test_a_valid_key_of_the_wrong_scope_is_403(route, scope):
    body = assert_problem(call(route, make_key(scope)), 403, "permission_denied")
    assert f"'{scope}'" in body["detail"] and f"'{route.scope}'" in body["detail"]


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_a_valid_key_in_the_other_header_is_401_naming_the_header_to_use(route, admin_key):
    response = call(route, admin_key, bearer=not route.uses_bearer)
    body = assert_unauthorized(route, response, "not_authenticated")
    # Not "Authentication credentials were not provided.": the key was, in the wrong header.
    if route.uses_bearer:
        assert body["detail"] == ("This route reads the key from the Authorization header "
                                  "(Authorization: Bearer <key>), not from X-API-Key.")
    else:
        assert body["detail"] == ("This route reads the key from the X-API-Key header "
                                  "(X-API-Key: <key>), not from Authorization.")


@pytest.mark.parametrize("route", BEARER_ROUTES, ids=str)
def test_an_authorization_scheme_other_than_bearer_is_401(route, admin_key):
    response = call(route, HTTP_AUTHORIZATION=f"Basic {admin_key}")
    assert_unauthorized(route, response, "invalid_scheme")


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_a_key_of_the_right_scope_gets_past_authentication(route):
    response = call(route, make_key(route.scope))
    # Past the key check the request fails or succeeds on its own merits (400, 404, ...).
    assert response.status_code not in (401, 403), response.content


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_an_admin_key_carries_every_scope(route, admin_key):
    response = call(route, admin_key)
    assert response.status_code not in (401, 403), response.content


# Scopes other than admin, on the test-only probe routes (no such public route exists yet).


@pytest.fixture
def probes(settings):
    settings.ROOT_URLCONF = "tests.probe_urls"


@pytest.mark.parametrize(
    "path, scope, status",
    [
        ("/probe/api-scope", KeyScope.API, 200),
        ("/probe/api-scope", KeyScope.ADMIN, 200),
        ("/probe/api-scope", KeyScope.EXECUTOR, 403),
        ("/probe/executor-scope", KeyScope.EXECUTOR, 200),
        ("/probe/executor-scope", KeyScope.ADMIN, 200),
        ("/probe/executor-scope", KeyScope.API, 403),
    ],
)
def test_x_api_key_routes_check_the_scope_of_the_key(probes, path, scope, status):
    response = APIClient().get(path, HTTP_X_API_KEY=make_key(scope))
    assert response.status_code == status, response.content
    if status == 200:
        assert response.json()["scope"] == scope


def test_a_bearer_key_on_an_x_api_key_route_is_401(probes, api_key):
    response = APIClient().get("/probe/api-scope", HTTP_AUTHORIZATION=f"Bearer {api_key}")
    body = assert_problem(response, 401, "not_authenticated")
    assert 'header="X-API-Key"' in response["WWW-Authenticate"]
    assert "reads the key from the X-API-Key header" in body["detail"]


def test_an_empty_x_api_key_header_is_401(probes):
    response = APIClient().get("/probe/api-scope", HTTP_X_API_KEY="  ")
    assert_problem(response, 401, "invalid_key")


# Wrong keys of every shape.


@pytest.mark.parametrize(
    "header",
    ["Bearer", "Bearer ", "Bearer not-a-key", "Bearer " + "x" * 5000, "bearer crk_.", "Token abc"],
)
def test_a_malformed_authorization_header_is_401_not_500(header):
    response = APIClient().get("/v1/admin/chains", HTTP_AUTHORIZATION=header)
    assert_problem(response, 401)
    assert response["WWW-Authenticate"] == 'Bearer realm="admin"'


def test_the_bearer_scheme_is_case_insensitive(admin_key):
    response = APIClient().get("/v1/admin/chains", HTTP_AUTHORIZATION=f"bearer {admin_key}")
    assert response.status_code == 200


def test_a_key_with_a_known_prefix_but_a_wrong_secret_is_401(admin_key):
    prefix, _, secret = admin_key.partition(".")
    forged = f"{prefix}.{'A' if secret[0] != 'A' else 'B'}{secret[1:]}"
    response = APIClient().get("/v1/admin/chains", HTTP_AUTHORIZATION=f"Bearer {forged}")
    assert_problem(response, 401, "invalid_key")


def test_a_key_that_expires_later_works_until_then():
    # Room for a slow first request on a busy machine: it must land before the expiry.
    expires_at = timezone.now() + timedelta(seconds=3)
    raw_key = make_key(KeyScope.ADMIN, expires_at=expires_at)
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    assert client.get("/v1/admin/chains").status_code == 200  # and now cached
    time.sleep(max(0.0, (expires_at - timezone.now()).total_seconds()) + 0.05)
    assert_problem(client.get("/v1/admin/chains"), 401, "expired_key")


def test_a_key_stops_working_as_soon_as_it_is_revoked(admin, admin_key):
    assert admin.get("/v1/admin/chains").status_code == 200
    ApiKey.objects.find(admin_key).revoke()
    assert_problem(admin.get("/v1/admin/chains"), 401, "revoked_key")
    assert ApiKey.objects.find(admin_key).revoked_at is not None


# Storage.


def test_a_key_is_stored_only_as_an_hmac():
    key, raw_key = ApiKey.issue(name="storage", scope=KeyScope.API)
    secret = raw_key.partition(".")[2]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {ApiKey._meta.db_table} WHERE id = %s", [key.pk])
        row = cursor.fetchone()
    assert row is not None
    for value in row:
        assert raw_key not in str(value) and secret not in str(value)
    assert len(key.digest) == 64 and key.prefix == raw_key[4:16]


def test_a_stored_key_depends_on_the_server_pepper(settings, admin_key):
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {admin_key}")
    assert client.get("/v1/admin/chains").status_code == 200
    # The digest is keyed: with another pepper the same key matches nothing.
    settings.API_KEY_PEPPER = "another-pepper"
    assert_problem(client.get("/v1/admin/chains"), 401, "invalid_key")


def test_keys_are_random_prefixed_and_long_enough():
    raw_keys = {ApiKey.issue(name=f"k{n}", scope=KeyScope.API)[1] for n in range(5)}
    assert len(raw_keys) == 5
    for raw_key in raw_keys:
        prefix, _, secret = raw_key.partition(".")
        assert prefix.startswith("crk_")
        assert len(secret) >= 43  # 32 random bytes, base64url


# lastUsedAt: written at most once a minute.


def _updates(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]


def test_last_used_at_is_set_on_first_use(admin, admin_key):
    assert ApiKey.objects.find(admin_key).last_used_at is None
    before = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        assert admin.get("/v1/admin/chains").status_code == 200
    assert len(_updates(queries)) == 1
    assert ApiKey.objects.find(admin_key).last_used_at >= before


def test_authentication_writes_nothing_again_within_a_minute(admin, admin_key):
    admin.get("/v1/admin/chains")
    first_use = ApiKey.objects.find(admin_key).last_used_at
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert admin.get("/v1/admin/chains").status_code == 200
    assert _updates(queries) == []
    assert not [q for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "DELETE"))]
    assert ApiKey.objects.find(admin_key).last_used_at == first_use


def test_last_used_at_is_written_again_after_a_minute(admin, admin_key):
    admin.get("/v1/admin/chains")
    two_minutes_ago = timezone.now() - timedelta(minutes=2)
    ApiKey.objects.filter(prefix=admin_key[4:16]).update(last_used_at=two_minutes_ago)
    cache.clear()  # two minutes on: the cached key and the "used" flag have expired
    with CaptureQueriesContext(connection) as queries:
        assert admin.get("/v1/admin/chains").status_code == 200
    assert len(_updates(queries)) == 1
    assert ApiKey.objects.find(admin_key).last_used_at > two_minutes_ago + timedelta(minutes=1)


def test_a_cached_key_is_not_read_from_the_database_again(admin, admin_key):
    admin.get("/v1/admin/chains")
    with CaptureQueriesContext(connection) as queries:
        assert admin.get("/v1/admin/chains").status_code == 200
    assert not [q for q in queries if "registry_apikey" in q["sql"]]


def test_revoking_a_cached_key_takes_effect_on_the_next_request(admin, admin_key):
    assert admin.get("/v1/admin/chains").status_code == 200  # now cached
    ApiKey.objects.filter(prefix=admin_key[4:16]).revoke()
    assert_problem(admin.get("/v1/admin/chains"), 401, "revoked_key")


def test_changing_the_expiry_of_a_cached_key_takes_effect_on_the_next_request(admin, admin_key):
    assert admin.get("/v1/admin/chains").status_code == 200
    key = ApiKey.objects.find(admin_key)
    key.expires_at = timezone.now() - timedelta(seconds=1)
    key.save()
    assert_problem(admin.get("/v1/admin/chains"), 401, "expired_key")


def test_deleting_a_cached_key_takes_effect_on_the_next_request(admin, admin_key):
    assert admin.get("/v1/admin/chains").status_code == 200
    ApiKey.objects.filter(prefix=admin_key[4:16]).delete()
    assert_problem(admin.get("/v1/admin/chains"), 401, "invalid_key")


# No process keeps a key of its own (registry/key_cache.py): a revocation anywhere, whose
# shared-cache entry another process marked, is seen by the next request here.


def test_a_key_revoked_by_another_process_fails_on_the_next_request(admin, admin_key):
    assert admin.get("/v1/admin/chains").status_code == 200  # cached
    ApiKey.objects.filter(prefix=admin_key[4:16]).revoke()
    assert_problem(admin.get("/v1/admin/chains"), 401, "revoked_key")
    assert_problem(admin.get("/v1/admin/chains"), 401, "revoked_key")


def test_a_cached_key_still_expires_on_time(admin, admin_key, monkeypatch):
    key = ApiKey.objects.find(admin_key)
    key.expires_at = timezone.now() + timedelta(seconds=30)
    key.save()
    assert admin.get("/v1/admin/chains").status_code == 200  # cached from here
    later = timezone.now() + timedelta(seconds=31)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert_problem(admin.get("/v1/admin/chains"), 401, "expired_key")


@pytest.mark.parametrize("value, expected", [("0", 0), ("2", 2), ("30", 30)])
def test_a_count_of_seconds_is_read_from_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv("SOME_SECONDS", value)
    assert Env().non_negative_int("SOME_SECONDS", default=2) == expected


@pytest.mark.parametrize("value", ["-1", "two"])
def test_a_bad_count_of_seconds_names_its_variable(monkeypatch, value):
    monkeypatch.setenv("SOME_SECONDS", value)
    with pytest.raises(ImproperlyConfigured, match="SOME_SECONDS"):
        Env().non_negative_int("SOME_SECONDS", default=2)



def test_a_refused_key_records_no_use(expired_key):
    APIClient().get("/v1/admin/chains", HTTP_AUTHORIZATION=f"Bearer {expired_key}")
    assert ApiKey.objects.find(expired_key).last_used_at is None


# Keys from the environment.

ENV_ADMIN_KEY = "env-admin-key-0123456789abcdef0123456789abcdef"
ENV_API_KEY = "env-api-key-0123456789abcdef0123456789abcdef"


@pytest.fixture
def env_keys(settings):
    settings.ADMIN_API_KEY = ENV_ADMIN_KEY
    settings.API_KEY = ENV_API_KEY
    return settings


def test_the_admin_api_key_of_the_environment_is_an_admin_key(env_keys):
    response = APIClient().get("/v1/admin/chains", HTTP_AUTHORIZATION=f"Bearer {ENV_ADMIN_KEY}")
    assert response.status_code == 200


def test_the_api_key_of_the_environment_is_an_api_key(env_keys):
    env_keys.ROOT_URLCONF = "tests.probe_urls"
    response = APIClient().get("/probe/api-scope", HTTP_X_API_KEY=ENV_API_KEY)
    assert response.status_code == 200
    assert response.json() == {"scope": "api", "name": "API_KEY"}
    # Known but not an admin: 403, not 401.
    response = APIClient().get("/v1/admin/chains", HTTP_AUTHORIZATION=f"Bearer {ENV_API_KEY}")
    assert_problem(response, 403, "permission_denied")


def test_the_admin_api_key_of_the_environment_works_in_x_api_key_too(env_keys):
    env_keys.ROOT_URLCONF = "tests.probe_urls"
    response = APIClient().get("/probe/executor-scope", HTTP_X_API_KEY=ENV_ADMIN_KEY)
    assert response.json() == {"scope": "admin", "name": "ADMIN_API_KEY"}


def test_an_environment_key_stops_working_once_unset(env_keys):
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {ENV_ADMIN_KEY}")
    assert client.get("/v1/admin/chains").status_code == 200
    env_keys.ADMIN_API_KEY = ""
    assert_problem(client.get("/v1/admin/chains"), 401, "invalid_key")


def test_stored_keys_keep_working_beside_environment_keys(env_keys, admin):
    assert admin.get("/v1/admin/chains").status_code == 200


@pytest.mark.parametrize("variable", ["ADMIN_API_KEY", "API_KEY"])
def test_a_guessable_environment_key_stops_the_service_at_start(variable):
    # Settings are read once, at start: a fresh process shows what an operator would see.
    env = {**os.environ, variable: "admin", "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=django_settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode != 0
    assert f"{variable} must be at least 32 characters" in result.stderr


# manage.py create_api_key


def create_api_key(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("create_api_key", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_create_api_key_prints_the_key_alone_on_its_last_line_and_it_works():
    out, err = create_api_key("--name", "deploy-bot", "--scope", "admin")
    raw_key = out.strip().splitlines()[-1]
    assert raw_key.startswith("crk_") and " " not in raw_key
    assert raw_key not in err  # the notice on stderr shows the prefix only
    response = APIClient().get("/v1/admin/chains", HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    assert response.status_code == 200
    key = ApiKey.objects.get(name="deploy-bot")
    assert key.scope == KeyScope.ADMIN and key.expires_at is None


def test_create_api_key_gives_the_key_the_scope_asked_for():
    out, _ = create_api_key("--name", "billing", "--scope", "api")
    raw_key = out.strip().splitlines()[-1]
    response = APIClient().get("/v1/admin/chains", HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    assert_problem(response, 403, "permission_denied")


def test_create_api_key_can_set_an_expiry():
    out, _ = create_api_key("--name", "temp", "--scope", "executor", "--expires-in-days", "7")
    key = ApiKey.objects.find(out.strip().splitlines()[-1])
    assert key.expires_at - timezone.now() > timedelta(days=6, hours=23)


@pytest.mark.parametrize(
    "args",
    [
        ["--name", "x", "--scope", "root"],
        ["--name", "x"],
        ["--name", "  ", "--scope", "api"],
        ["--name", "x" * 101, "--scope", "api"],
        ["--name", "x", "--scope", "api", "--expires-in-days", "0"],
    ],
    ids=["unknown scope", "no scope", "blank name", "name too long", "zero days"],
)
def test_create_api_key_refuses_bad_arguments_and_stores_nothing(args):
    with pytest.raises(CommandError):
        create_api_key(*args)
    assert not ApiKey.objects.exists()

"""CORS (SPEC section 2): browsers of the listed origins may call the API."""

import pytest

from tests.conftest import assert_problem

pytestmark = pytest.mark.django_db

ALLOWED = "https://app.example"
OTHER = "https://evil.example"
REQUIRED_HEADERS = {"authorization", "x-api-key", "content-type", "x-request-id", "idempotency-key"}


@pytest.fixture(autouse=True)
def allowed_origins(settings):
    settings.CORS_ALLOWED_ORIGINS = [ALLOWED]


def preflight(client, path, origin, method="POST", headers="authorization, content-type"):
    return client.options(
        path,
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS=headers,
    )


def header_set(response, name) -> set[str]:
    return {value.strip().lower() for value in response[name].split(",")}


@pytest.mark.parametrize("path", ["/v1/admin/chains", "/v1/admin/chains/1", "/v1/openapi.json"])
def test_a_preflight_from_an_allowed_origin_succeeds_without_a_key(anon, path):
    response = preflight(anon, path, ALLOWED, method="PATCH")
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert REQUIRED_HEADERS <= header_set(response, "Access-Control-Allow-Headers")
    methods = header_set(response, "Access-Control-Allow-Methods")
    assert {"get", "post", "patch", "delete"} <= methods
    assert int(response["Access-Control-Max-Age"]) > 0


def test_a_preflight_allows_the_trpc_headers(anon):
    response = preflight(anon, "/v1/admin/chains", ALLOWED)
    assert {"trpc-accept", "x-trpc-source"} <= header_set(response, "Access-Control-Allow-Headers")


def test_a_preflight_from_an_unlisted_origin_gets_no_allow_origin(anon):
    response = preflight(anon, "/v1/admin/chains", OTHER)
    assert "Access-Control-Allow-Origin" not in response
    assert "Access-Control-Allow-Headers" not in response


def test_no_origin_is_allowed_by_default(anon, settings):
    settings.CORS_ALLOWED_ORIGINS = []
    response = preflight(anon, "/v1/admin/chains", ALLOWED)
    assert "Access-Control-Allow-Origin" not in response


def test_a_request_from_an_allowed_origin_gets_allow_origin_and_vary(admin):
    response = admin.get("/v1/admin/chains", HTTP_ORIGIN=ALLOWED)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert "origin" in header_set(response, "Vary")
    # Keys travel in headers, never in cookies: no credentialed CORS.
    assert "Access-Control-Allow-Credentials" not in response


def test_a_request_from_an_unlisted_origin_gets_no_allow_origin(admin):
    response = admin.get("/v1/admin/chains", HTTP_ORIGIN=OTHER)
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response


def test_a_401_to_an_allowed_origin_carries_allow_origin_and_exposes_its_headers(anon):
    response = anon.get("/v1/admin/chains", HTTP_ORIGIN=ALLOWED)
    assert_problem(response, 401, "not_authenticated")
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    exposed = header_set(response, "Access-Control-Expose-Headers")
    assert {"www-authenticate", "x-request-id", "retry-after"} <= exposed


@pytest.mark.parametrize("status", [404, 405, 413])
def test_other_errors_to_an_allowed_origin_carry_allow_origin(admin, settings, status):
    settings.MAX_REQUEST_BODY_BYTES = 10
    if status == 404:
        response = admin.get("/nowhere", HTTP_ORIGIN=ALLOWED)
    elif status == 405:
        response = admin.put("/v1/admin/chains", {}, format="json", HTTP_ORIGIN=ALLOWED)
    else:
        response = admin.generic("POST", "/v1/admin/chains", b"x" * 11,
                                 content_type="application/json", HTTP_ORIGIN=ALLOWED)
    assert_problem(response, status)
    assert response["Access-Control-Allow-Origin"] == ALLOWED

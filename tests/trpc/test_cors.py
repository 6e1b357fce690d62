"""CORS on /trpc (SPEC section 2): preflights without a key, tRPC's headers allowed, and
the envelopes of errors readable by a page of a listed origin."""

import pytest

from tests.test_cors import ALLOWED, header_set, preflight

pytestmark = pytest.mark.django_db

TRPC_HEADERS = {"authorization", "x-api-key", "content-type", "x-request-id", "idempotency-key",
                "trpc-accept", "trpc-batch-mode", "x-trpc-source"}


@pytest.fixture(autouse=True)
def allowed_origins(settings):
    settings.CORS_ALLOWED_ORIGINS = [ALLOWED]


@pytest.mark.parametrize("path, method", [
    ("/trpc/chains.list", "GET"), ("/trpc/chains.list,nope?batch=1", "GET"),
    ("/trpc/schemas.validate", "POST"), ("/trpc", "POST"),
])
def test_a_preflight_succeeds_without_a_key_and_allows_trpcs_headers(anon, path, method):
    response = preflight(anon, path, ALLOWED, method=method, headers=", ".join(sorted(TRPC_HEADERS)))
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert TRPC_HEADERS <= header_set(response, "Access-Control-Allow-Headers")
    assert method.lower() in header_set(response, "Access-Control-Allow-Methods")


def test_an_error_envelope_carries_allow_origin_and_exposes_its_headers(anon):
    response = anon.get("/trpc/chains.list", HTTP_ORIGIN=ALLOWED)
    assert response.status_code == 401
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert {"www-authenticate", "x-request-id"} <= header_set(response, "Access-Control-Expose-Headers")

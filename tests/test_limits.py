"""Rate limits per key by scope (429 with Retry-After), pagination caps, outbound timeouts."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from config.env import Env
from registry.models import Chain
from tests.conftest import assert_problem, make_key
from tests.factories import ChainFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tight_limits(settings):
    settings.API_RATE_LIMITS = {"admin": (3, 60), "api": (2, 60), "executor": None}


def client_for(key: str, header: str = "api") -> APIClient:
    client = APIClient()
    if header == "bearer":
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    else:
        client.credentials(HTTP_X_API_KEY=key)
    return client


def test_a_key_over_its_scope_rate_gets_a_429_problem_with_retry_after(tight_limits, api):
    assert api.get("/chains").status_code == 200
    assert api.get("/chains").status_code == 200
    response = api.get("/chains")
    body = assert_problem(response, 429, "throttled")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert "throttled" in body["detail"].lower()


def test_limits_are_per_key_and_per_scope(tight_limits, admin, api_key):
    other_api = client_for(make_key("api"))
    api = client_for(api_key)
    for _ in range(2):
        assert api.get("/chains").status_code == 200
    assert api.get("/chains").status_code == 429
    assert other_api.get("/chains").status_code == 200  # another key, its own budget
    for _ in range(3):  # the admin scope has its own rate
        assert admin.get("/v1/admin/chains").status_code == 200
    assert admin.get("/v1/admin/chains").status_code == 429


def test_a_scope_without_a_limit_is_not_throttled(tight_limits, executor_key):
    client = client_for(executor_key)
    statuses = {client.get("/v1/chain-registry/1/executors").status_code for _ in range(10)}
    assert 429 not in statuses


def test_environment_keys_are_limited_by_their_own_prefix(tight_limits, settings):
    settings.API_KEY = "e" * 40
    client = client_for(settings.API_KEY)
    assert [client.get("/chains").status_code for _ in range(3)] == [200, 200, 429]


def test_requests_without_a_key_are_refused_before_the_limit(tight_limits, anon):
    statuses = {anon.get("/chains").status_code for _ in range(5)}
    assert statuses == {401}


def test_the_limit_is_counted_in_the_process_when_the_cache_fails(tight_limits, api,
                                                                    monkeypatch):
    # Neither fail open (one key could take every worker) nor closed (every key refused).
    from django.core.cache import cache

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "incr", broken)
    assert [api.get("/chains").status_code for _ in range(4)] == [200, 200, 429, 429]


@pytest.mark.parametrize("value, expected", [
    ("600/min", (600, 60)), ("5/s", (5, 1)), ("10000/hour", (10000, 3600)),
    ("1/day", (1, 86400)), ("none", None),
])
def test_rate_settings_parse(monkeypatch, value, expected):
    monkeypatch.setenv("RATE_LIMIT_TEST", value)
    assert Env().rate("RATE_LIMIT_TEST", default="1/s") == expected


@pytest.mark.parametrize("value", ["600", "0/min", "-1/min", "10/fortnight", "abc"])
def test_a_bad_rate_names_its_variable(monkeypatch, value):
    monkeypatch.setenv("RATE_LIMIT_TEST", value)
    with pytest.raises(ImproperlyConfigured, match="RATE_LIMIT_TEST"):
        Env().rate("RATE_LIMIT_TEST", default="1/s")


def test_the_openapi_schema_documents_429_with_retry_after(anon):
    schema = anon.get("/v1/openapi.json").json()
    operation = schema["paths"]["/chains"]["get"]
    assert "Retry-After" in operation["responses"]["429"]["headers"]


# Pagination caps.


def test_a_page_is_at_most_the_maximum_limit(admin):
    from core.pagination import LimitOffsetPagination

    ChainFactory.create_batch(3)
    LimitOffsetPagination.max_limit, saved = 2, LimitOffsetPagination.max_limit
    try:
        body = admin.get("/v1/admin/chains?limit=2").json()
        refused = admin.get("/v1/admin/chains?limit=3")
    finally:
        LimitOffsetPagination.max_limit = saved
    assert len(body["results"]) == 2
    assert "limit=2" in body["next"]
    assert refused.status_code == 400


# Outbound timeouts: every provider the chain client builds has one.


def test_every_rpc_provider_has_a_timeout():
    from registry.chain_client import DEFAULT_TIMEOUT_SECONDS, FailoverProvider

    chain = Chain(chain_id=1, name="x")
    from registry.models import RpcEndpoint

    provider = FailoverProvider(chain, [RpcEndpoint(url="http://127.0.0.1:1")],
                                DEFAULT_TIMEOUT_SECONDS)
    for _endpoint, http in provider._targets:
        assert http._request_kwargs["timeout"] == DEFAULT_TIMEOUT_SECONDS

import os
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from registry.models import ApiKey, KeyScope


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache (keys are cached for a minute)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def make_key(scope: str, **kwargs) -> str:
    """Create a stored key of `scope`; returns the raw key."""
    return ApiKey.issue(name=f"test-{scope}", scope=scope, **kwargs)[1]


@pytest.fixture
def admin_key(db) -> str:
    return make_key(KeyScope.ADMIN)


@pytest.fixture
def api_key(db) -> str:
    return make_key(KeyScope.API)


@pytest.fixture
def executor_key(db) -> str:
    return make_key(KeyScope.EXECUTOR)


@pytest.fixture
def expired_key(db) -> str:
    return make_key(KeyScope.ADMIN, expires_at=timezone.now() - timedelta(seconds=1))


@pytest.fixture
def anon() -> APIClient:
    """A client without credentials."""
    return APIClient()


@pytest.fixture
def admin(admin_key) -> APIClient:
    """A client with an admin key in `Authorization: Bearer`."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {admin_key}")
    return client


@pytest.fixture
def api(api_key) -> APIClient:
    """A client with an api key in `X-API-Key`."""
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=api_key)
    return client


@pytest.fixture
def redis_url() -> str:
    """The real Redis of the machine; mandatory in CI, skipped elsewhere when absent."""
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("TEST_REDIS_URL is not set, and CI requires Redis.")
        pytest.skip("Redis is not available (TEST_REDIS_URL unset).")
    return url


@pytest.fixture
def anvil_factory():
    """Start real anvil nodes (`anvil_factory(chain_id=...)`); all are stopped afterwards.
    Mandatory in CI; skipped elsewhere when the binary is absent (scripts/chain_tools.sh)."""
    from tests.anvil import ANVIL, Anvil

    if not ANVIL.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"anvil is not installed at {ANVIL}, and CI requires it.")
        pytest.skip("anvil is not installed (run scripts/chain_tools.sh).")
    nodes = []

    def start(chain_id: int = 31337, port: int | None = None) -> Anvil:
        node = Anvil(chain_id, port).start()
        nodes.append(node)
        return node

    yield start
    for node in nodes:
        node.stop()


def assert_problem(response, status: int, code: str | None = None) -> dict:
    """The response is an RFC 9457 problem document with this status (and code)."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json"), response["Content-Type"]
    body = response.json()
    assert body["status"] == status
    assert body["type"].startswith("urn:problem-type:")
    assert body["title"] and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body

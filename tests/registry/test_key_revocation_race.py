"""A request that read an API key before it was revoked must not put it back into the cache
(or this process's memo) after the revocation (issue 17). The interleaving is made
deterministic: the revocation runs between the request's database read and its cache write."""

import pytest
from rest_framework.test import APIClient

from registry.models import ApiKey, api_keys
from registry.models.api_keys import CachedKey, KeyScope
from tests.conftest import assert_problem

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_and_key():
    key, raw_key = ApiKey.issue(name="racer", scope=KeyScope.ADMIN)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    return client, key


def revoke_right_after_the_read(monkeypatch, key: ApiKey) -> None:
    """The next database read of a key is overtaken by the key's revocation."""
    original = CachedKey.of

    def read_then_revoked(row):
        stale = original(row)  # what the request read: not revoked
        monkeypatch.setattr(CachedKey, "of", original)
        ApiKey.objects.filter(pk=key.pk).revoke()  # another request, another process
        return stale

    monkeypatch.setattr(CachedKey, "of", classmethod(lambda cls, row: read_then_revoked(row)))


@pytest.mark.parametrize("memo_seconds", [0, 2])
def test_a_request_that_read_the_key_before_its_revocation_does_not_cache_it(
        settings, monkeypatch, client_and_key, memo_seconds):
    settings.API_KEY_MEMO_SECONDS = memo_seconds
    client, key = client_and_key
    revoke_right_after_the_read(monkeypatch, key)

    # The racing request itself was authenticated before the revocation: it is served.
    assert client.get("/v1/admin/chains").status_code == 200
    assert ApiKey.objects.get(pk=key.pk).revoked_at is not None

    # Every request after the revocation is refused: not from the cache, not from the memo.
    assert_problem(client.get("/v1/admin/chains"), 401, "revoked_key")
    assert_problem(client.get("/v1/admin/chains"), 401, "revoked_key")
    assert api_keys._recent == {}


def test_the_late_write_is_in_the_cache_but_never_taken(monkeypatch, client_and_key):
    from django.core.cache import cache

    client, key = client_and_key
    revoke_right_after_the_read(monkeypatch, key)
    client.get("/v1/admin/chains")

    generation, cached = cache.get(api_keys._cache_key(key.prefix))
    assert cached.revoked_at is None  # the racing request's late write, as it was
    assert generation != cache.get(api_keys._generation_key(key.prefix))

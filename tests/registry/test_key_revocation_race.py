"""A request that read an API key before it was revoked must not put it back into the shared
cache after the revocation (issue 17; registry/key_cache.py). The interleaving is made
deterministic: the revocation runs between the request's database read and its cache write."""

import pytest
from rest_framework.test import APIClient

from registry import key_cache
from registry.models import ApiKey
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


def test_a_request_that_read_the_key_before_its_revocation_does_not_cache_it(
        monkeypatch, client_and_key):
    client, key = client_and_key
    revoke_right_after_the_read(monkeypatch, key)

    # The racing request itself was authenticated before the revocation: it is served.
    assert client.get("/v1/admin/chains").status_code == 200
    assert ApiKey.objects.get(pk=key.pk).revoked_at is not None

    # Every request after the revocation is refused: nothing stale was cached.
    assert_problem(client.get("/v1/admin/chains"), 401, "revoked_key")
    assert_problem(client.get("/v1/admin/chains"), 401, "revoked_key")


def test_the_late_write_finds_the_entry_marked_changed_and_writes_nothing(
        monkeypatch, client_and_key):
    from django.core.cache import cache

    client, key = client_and_key
    revoke_right_after_the_read(monkeypatch, key)
    client.get("/v1/admin/chains")
    assert cache.get(key_cache._name(key.digest)) == key_cache._CHANGED

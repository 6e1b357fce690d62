"""A revoked key fails at once in every process (issue 36, item 5; registry/key_cache.py): two
gunicorn workers on the test's PostgreSQL and a shared Redis cache serve a key until another
process (this one) revokes it; the very next requests, whichever worker takes them, are
refused. No process keeps a key of its own: the only copy is the shared cache's, which the
revocation marks changed."""

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from bench.harness import bench_env, gunicorn, request
from registry.models import ApiKey, KeyScope

pytestmark = pytest.mark.django_db(transaction=True)  # the workers see the key committed

REQUESTS = 24  # at concurrency 4: both workers answer some


def answers(port: int, raw_key: str) -> list[tuple[int, str | None]]:
    def one(_):
        status, body = request(port, "GET", "/v1/admin/chains",
                               {"Authorization": f"Bearer {raw_key}"})
        return status, json.loads(body).get("code") if status != 200 else None

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, range(REQUESTS)))


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="gunicorn on the test's PostgreSQL")
def test_a_key_revoked_in_another_process_fails_on_the_next_request_in_every_worker(
        settings, redis_url):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": redis_url}}
    key, raw_key = ApiKey.issue(name="two workers", scope=KeyScope.ADMIN)
    database = connection.settings_dict
    env = bench_env(CACHE_URL=redis_url, DATABASE_URL=(
        f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"))
    with gunicorn(env, workers=2) as port:
        assert answers(port, raw_key) == [(200, None)] * REQUESTS  # cached in Redis now
        ApiKey.objects.filter(pk=key.pk).revoke()
        assert answers(port, raw_key) == [(401, "revoked_key")] * REQUESTS

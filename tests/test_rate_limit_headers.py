"""RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every answer to a key, 429s
included, from the throttle's own count (no second cache round trip)."""

import pytest
from django.core.cache import cache

from tests.conftest import assert_problem
from tests.factories import ChainFactory, ExecutorFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tight_limits(settings):
    settings.API_RATE_LIMITS = {"admin": (5, 60), "api": (3, 60), "executor": None}


def budget(response) -> tuple[int, int, int]:
    return (int(response["RateLimit-Limit"]), int(response["RateLimit-Remaining"]),
            int(response["RateLimit-Reset"]))


def test_each_keyed_answer_shows_the_budget_going_down(tight_limits, api):
    answers = [api.get("/chains") for _ in range(3)]

    assert [budget(r)[:2] for r in answers] == [(3, 2), (3, 1), (3, 0)]
    assert all(1 <= budget(r)[2] <= 60 for r in answers)


def test_a_429_shows_an_empty_budget_beside_retry_after(tight_limits, api):
    for _ in range(3):
        api.get("/chains")
    response = api.get("/chains")

    assert_problem(response, 429, "throttled")
    limit, remaining, reset = budget(response)
    assert (limit, remaining) == (3, 0)
    assert int(response["Retry-After"]) == reset


def test_errors_past_the_key_check_show_the_budget_too(tight_limits, admin):
    response = admin.get("/v1/admin/chains/999999")
    assert response.status_code == 404 and budget(response)[:2] == (5, 4)


def test_answers_without_a_key_or_without_a_limit_show_none(tight_limits, anon, executor_key):
    from tests.executors.conftest import with_api_key

    assert "RateLimit-Limit" not in anon.get("/chains")  # 401 before any count
    chain = ChainFactory()
    executor = ExecutorFactory(chain=chain, registered_by=executor_key.partition(".")[0])
    response = with_api_key(executor_key).post(
        f"/v1/chain-registry/{chain.chain_id}/heartbeat",
        {"executorId": str(executor.pk), "status": "ok"}, format="json")
    assert response.status_code == 200 and "RateLimit-Limit" not in response


def test_the_hot_endpoints_show_the_budget_from_the_one_count(settings, api, executor_key,
                                                             monkeypatch):
    from tests.executors.conftest import with_api_key

    settings.API_RATE_LIMITS = {"api": (100, 60), "executor": (100, 60)}
    increments = []
    original = cache.incr
    monkeypatch.setattr(cache, "incr", lambda *a, **k: increments.append(a) or original(*a, **k))
    chain = ChainFactory()
    executor = ExecutorFactory(chain=chain, registered_by=executor_key.partition(".")[0])

    verify = api.post("/v1/verify", {"documentHash": "0x" + "11" * 32}, format="json")
    beat = with_api_key(executor_key).post(
        f"/v1/chain-registry/{chain.chain_id}/heartbeat",
        {"executorId": str(executor.pk), "status": "ok"}, format="json")

    assert (verify.status_code, beat.status_code) == (200, 200)
    assert budget(verify)[:2] == (100, 99) and budget(beat)[:2] == (100, 99)
    assert len(increments) == 2  # one count per request, nothing more
    assert verify["Cache-Control"] == "private, no-store"


def test_the_budget_counted_in_the_process_is_shown_when_the_cache_failed(tight_limits, api,
                                                                           monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "incr", broken)
    response = api.get("/chains")
    assert response.status_code == 200
    assert budget(response)[:2] == (3, 2)


def test_trpc_answers_show_the_budget_after_their_calls(tight_limits, api):
    response = api.get("/trpc/chains.list,chains.list", {"batch": "1"})
    assert response.status_code == 200, response.content
    assert budget(response)[:2] == (3, 1)

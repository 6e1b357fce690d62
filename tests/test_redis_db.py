"""The Redis databases of test runs (tests/redis_db.py; issue 37 item 5): worker gw<n> takes
TEST_REDIS_DB - n, and a database another client holds (another checkout's run: its gw1
once took database 10 and met another user's keys) is refused, naming that client."""

import pytest
import redis

from tests import redis_db
from tests.conftest import redis_test_url


def test_each_worker_counts_down_from_the_url_and_never_below_0():
    assert redis_db.worker_url("redis://127.0.0.1:6379/15", 0) == "redis://127.0.0.1:6379/15"
    assert redis_db.worker_url("redis://127.0.0.1:6379/15", 1) == "redis://127.0.0.1:6379/14"
    with pytest.raises(redis_db.RedisDatabaseTaken, match="TEST_REDIS_DB=0 leaves worker gw1"):
        redis_db.worker_url("redis://127.0.0.1:6379/0", 1)


def test_the_claim_is_held_for_the_session():
    url = redis_test_url()
    assert redis_test_url() == url and url in redis_db._held
    names = [c.get("name") for c in redis_db._held[url].client_list()]
    assert redis_db.owner() in names


def test_a_database_another_run_holds_is_refused_naming_it():
    url = redis_test_url()  # this process's database, claimed for the session
    # Another checkout's run asking for the same database:
    with pytest.raises(redis_db.RedisDatabaseTaken) as refused:
        redis_db.claim(url, name="chain-registry-tests:elsewhere:1", held={})
    assert redis_db.owner() in str(refused.value)  # the holder is named
    assert "TEST_REDIS_DB" in str(refused.value)  # and what to do


def test_a_database_with_any_other_client_on_it_is_refused():
    url = redis_test_url()
    service = redis.Redis.from_url(url, client_name="someone-elses-service")
    service.ping()  # connected to the database
    try:
        with pytest.raises(redis_db.RedisDatabaseTaken, match="someone-elses-service"):
            redis_db.claim(url, name=redis_db.owner(), held={})
    finally:
        service.close()

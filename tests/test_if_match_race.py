"""Two administrators holding one ETag: only one write wins, under real concurrency on
PostgreSQL (each thread its own connection). The If-Match compare runs with the row locked,
inside the write's transaction; a compare before the lock would let both pass."""

import threading

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from registry.models import Chain
from tests.conftest import make_key
from tests.factories import ChainFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="needs PostgreSQL's row locks"),
]

TIMEOUT = 20  # seconds: an upper bound for any wait, never a pause


@pytest.fixture
def admin_client() -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Bearer {make_key('admin')}")


def patch_in_thread(client, path, body, etag):
    """PATCH with the client's key in a thread of its own (its own client and database
    connection); join() returns the response."""
    outcome = {}
    own = APIClient(**client.defaults)

    def run():
        try:
            outcome["response"] = own.patch(path, body, format="json", HTTP_IF_MATCH=etag)
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def join():
        thread.join(TIMEOUT)
        assert not thread.is_alive(), "the PATCH did not finish"
        return outcome["response"]

    return join


def wait_until_a_query_waits_for_a_lock():
    with connection.cursor() as cursor:
        for _ in range(TIMEOUT * 100):
            # Inside a transaction, the statistics are a snapshot: cleared before each look.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                           "AND datname = current_database()")
            if cursor.fetchone()[0]:
                return
            threading.Event().wait(0.01)
    raise AssertionError("no query waited for the lock")


def test_a_write_that_waited_for_the_row_compares_against_what_the_other_wrote(admin_client):
    chain = ChainFactory(name="Original")
    path = f"/v1/admin/chains/{chain.chain_id}"
    etag = admin_client.get(path)["ETag"]

    with transaction.atomic():  # the other administrator's write, holding the row
        Chain.objects.select_for_update().get(pk=chain.pk)
        second = patch_in_thread(admin_client, path, {"name": "Second"}, etag)
        wait_until_a_query_waits_for_a_lock()
        Chain.objects.filter(pk=chain.pk).update(name="First")

    response = second()
    assert response.status_code == 412, response.content
    assert Chain.objects.get(pk=chain.pk).name == "First"


def test_of_two_writes_with_one_etag_exactly_one_wins(admin_client):
    chain = ChainFactory(name="Original")
    path = f"/v1/admin/chains/{chain.chain_id}"
    etag = admin_client.get(path)["ETag"]

    joins = [patch_in_thread(admin_client, path, {"name": name}, etag) for name in ("A", "B")]
    responses = [join() for join in joins]

    assert sorted(r.status_code for r in responses) == [200, 412]
    winner = next(r for r in responses if r.status_code == 200)
    assert Chain.objects.get(pk=chain.pk).name == winner.json()["name"]

"""Request bodies as a real gunicorn hands them to Django (issue 17, items 4 and 6): a
chunked body (no Content-Length) is refused with a 411 problem, never read as empty; a
keyless megabyte gets its 401 problem whole; a keyed mebibyte of unknown keys gets a small
400 from the bounded parser (issue 34, item 2)."""

import http.client
import json

import pytest
from django.db import connection

from bench.harness import bench_env, gunicorn
from tests.conftest import assert_problem

pytestmark = pytest.mark.django_db

API_KEY = "bodies-test-api-key-" + "k" * 32
VERIFY = {"documentHash": "0x" + "ab" * 32}


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    database = connection.settings_dict
    env = bench_env(API_KEY=API_KEY, DATABASE_URL=(
        f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"))
    with django_db_blocker.unblock(), gunicorn(env, workers=1) as port:
        yield port


def post(port, path, body, headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type"), json.loads(response.read())
    finally:
        conn.close()


@pytest.mark.parametrize("path", ["/v1/verify", "/workflows", "/trpc/verify"])
def test_a_chunked_body_is_refused_with_a_411_not_read_as_empty(server, path):
    chunks = iter([json.dumps(VERIFY).encode()])  # http.client sends an iterable chunked
    status, content_type, body = post(server, path, chunks, {
        "Content-Type": "application/json", "X-API-Key": API_KEY})
    assert status == 411, body
    if not path.startswith("/trpc"):
        assert content_type.startswith("application/problem+json")
        assert body["code"] == "length_required"


def test_the_same_body_with_its_length_is_read(server):
    status, _, body = post(server, "/v1/verify", json.dumps(VERIFY).encode(), {
        "Content-Type": "application/json", "X-API-Key": API_KEY})
    assert status == 200, body
    assert body["verified"] is False


@pytest.mark.parametrize("key", [None, "not-a-key-" + "x" * 30])
def test_a_megabyte_without_a_valid_key_gets_its_401_whole(server, key):
    headers = {"Content-Type": "application/json"} | ({"X-API-Key": key} if key else {})
    big = b'{"documentHash": "' + b"a" * (1024 * 1024 - 40) + b'"}'
    status, content_type, body = post(server, "/v1/verify", big, headers)
    assert status == 401, body
    assert content_type.startswith("application/problem+json")


def test_the_test_client_gets_the_same_411(api):
    response = api.generic("POST", "/v1/verify", b"", content_type="application/json",
                           HTTP_TRANSFER_ENCODING="chunked")
    assert_problem(response, 411, "length_required")


@pytest.mark.parametrize("path", ["/v1/verify", "/workflows", "/trpc/verify"])
def test_a_mebibyte_of_unknown_keys_with_a_valid_key_gets_a_small_400(server, path):
    from tests.test_body_limits import MEBIBYTE_OF_KEYS

    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    try:
        conn.request("POST", path, body=MEBIBYTE_OF_KEYS.encode(), headers={
            "Content-Type": "application/json", "X-API-Key": API_KEY})
        response = conn.getresponse()
        raw = response.read()
    finally:
        conn.close()
    assert response.status == 400 and len(raw) < 2048, raw[:300]
    body = json.loads(raw)
    problem = body if not path.startswith("/trpc") else body["error"]["data"]["problem"]
    assert problem["code"] == "too_many_keys" and "120000 keys" in problem["detail"]

"""Keys before bodies (issue 17, item 4): a hot endpoint refuses a request without a valid
key before it reads or parses the body, so that a keyless megabyte costs nothing; a keyed
request reads its body only once its key is known."""

import pytest
from django.core.handlers.wsgi import LimitedStream
from django.test import Client

from core.parsers import JSONParser
from tests.conftest import assert_problem

pytestmark = pytest.mark.django_db

MEBIBYTE_BODY = b'{"documentHash": "' + b"a" * (1024 * 1024 - 40) + b'"}'
HOT_PATHS = ["/v1/verify", "/v1/chain-registry/1/heartbeat"]


@pytest.fixture
def reads(monkeypatch):
    """What the request touched: bytes read from its body stream, and parser calls."""
    seen = {"bytes": 0, "parses": 0}
    read, parse = LimitedStream.read, JSONParser.parse

    def counting_read(self, *args, **kwargs):
        data = read(self, *args, **kwargs)
        seen["bytes"] += len(data)
        return data

    def counting_parse(self, *args, **kwargs):
        seen["parses"] += 1
        return parse(self, *args, **kwargs)

    monkeypatch.setattr(LimitedStream, "read", counting_read)
    monkeypatch.setattr(JSONParser, "parse", counting_parse)
    return seen


@pytest.mark.parametrize("path", HOT_PATHS)
@pytest.mark.parametrize("headers", [{}, {"HTTP_X_API_KEY": "not-a-key-" + "x" * 30}],
                         ids=["keyless", "wrong-key"])
def test_a_megabyte_without_a_valid_key_is_refused_unread(reads, path, headers):
    response = Client().post(path, MEBIBYTE_BODY, content_type="application/json", **headers)
    assert_problem(response, 401)
    assert reads == {"bytes": 0, "parses": 0}


def test_a_key_of_the_wrong_scope_is_refused_before_its_body_is_read(settings, reads, api_key):
    response = Client().post(HOT_PATHS[1], MEBIBYTE_BODY, content_type="application/json",
                             HTTP_X_API_KEY=api_key)
    assert_problem(response, 403)
    assert reads == {"bytes": 0, "parses": 0}


def test_a_keyed_request_reads_its_body_after_the_key_is_checked(monkeypatch, api_key):
    order = []
    from registry import authentication

    check = authentication.authenticate_key
    parse = JSONParser.parse
    monkeypatch.setattr(authentication, "authenticate_key",
                        lambda raw: order.append("key") or check(raw))
    monkeypatch.setattr(JSONParser, "parse",
                        lambda self, *a, **k: order.append("body") or parse(self, *a, **k))
    response = Client().post("/v1/verify", {"documentHash": "0x" + "ab" * 32},
                             content_type="application/json", HTTP_X_API_KEY=api_key)
    assert response.status_code == 200, response.content
    assert order[:2] == ["key", "body"]


def test_a_request_with_a_refused_body_is_throttled_once(settings, api_key):
    """The key's request is counted before its body is read, and once: a body then refused
    (here an unknown field) does not count it a second time."""
    settings.API_RATE_LIMITS = {"admin": None, "api": (3, 60), "executor": None}
    body = {"documentHash": "0x" + "ab" * 32, "unknownField": 1}
    statuses = [Client().post("/v1/verify", body, content_type="application/json",
                              HTTP_X_API_KEY=api_key).status_code for _ in range(4)]
    assert statuses == [400, 400, 400, 429]


@pytest.mark.parametrize("path", ["/workflows", "/v1/admin/chains", "/schemas/validate",
                                  "/trpc/verify", "/trpc"])
def test_every_other_keyed_endpoint_refuses_a_keyless_body_unread(reads, path):
    """DRF parses lazily (on request.data, after authentication and permissions), and the
    tRPC views check the key before they read the body."""
    response = Client().post(path, MEBIBYTE_BODY, content_type="application/json")
    assert response.status_code == 401, response.content
    assert reads == {"bytes": 0, "parses": 0}

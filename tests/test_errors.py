"""Every error of every path is an RFC 9457 problem document (SPEC section 1)."""

import logging

import pytest
from rest_framework.test import APIClient

from tests.conftest import assert_problem
from tests.probe_urls import DJANGO_EXCEPTIONS, SECRET_IN_THE_EXCEPTION

pytestmark = pytest.mark.django_db

PROBLEM_FIELDS = {"type", "title", "status", "detail", "code"}
CRASHES = ["/probe/crash", "/probe/drf-crash"]


@pytest.fixture
def probes(settings):
    settings.ROOT_URLCONF = "tests.probe_urls"


@pytest.fixture
def crash_client():
    # The test client re-raises exceptions that Django or DRF report as crashes; we want
    # the response the user would see.
    return APIClient(raise_request_exception=False)


def assert_no_leak(response):
    text = response.content.decode()
    assert "Traceback" not in text and SECRET_IN_THE_EXCEPTION not in text
    assert "<html" not in text.lower() and "<!doctype" not in text.lower()


# Unknown paths and methods.


@pytest.mark.parametrize("path", ["/nowhere", "/v1/admin/nowhere", "/v1/admin/chains/", "/v1/"])
@pytest.mark.parametrize("debug", [False, True], ids=["debug off", "debug on"])
def test_an_unknown_path_is_a_404_problem_even_in_debug(anon, settings, path, debug):
    settings.DEBUG = debug
    body = assert_problem(anon.get(path), 404, "not_found")
    assert set(body) == PROBLEM_FIELDS
    assert body["type"] == "urn:problem-type:chain-registry:not_found"
    assert body["title"] == "Not Found"


def test_an_unknown_path_is_json_even_when_html_is_asked_for(anon):
    response = anon.get("/nowhere", HTTP_ACCEPT="text/html,application/xhtml+xml")
    assert_problem(response, 404, "not_found")
    assert_no_leak(response)


def test_a_missing_resource_is_a_404_problem(admin):
    body = assert_problem(admin.get("/v1/admin/chains/999999"), 404, "not_found")
    assert set(body) == PROBLEM_FIELDS


def test_a_method_the_api_route_does_not_have_is_405_with_allow(admin):
    response = admin.put("/v1/admin/chains", {}, format="json")
    assert_problem(response, 405, "method_not_allowed")
    allowed = {m.strip() for m in response["Allow"].split(",")}
    assert {"GET", "POST"} <= allowed and "PUT" not in allowed


def test_put_is_405_where_only_patch_updates(admin):
    response = admin.put("/v1/admin/chains/1", {}, format="json")
    assert_problem(response, 405, "method_not_allowed")
    assert "PATCH" in response["Allow"] and "PUT" not in response["Allow"]


def test_a_method_a_plain_view_does_not_have_is_405_with_allow(anon):
    response = anon.post("/healthz")
    assert_problem(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, HEAD"


# Bodies that are not JSON, not valid JSON, or too large.


@pytest.mark.parametrize(
    "content_type, body",
    [
        ("application/x-www-form-urlencoded", "chain_id=1&name=x"),
        ("text/plain", '{"chainId": 1}'),
        ("multipart/form-data; boundary=xyz", "--xyz--"),
        ("application/xml", "<chain/>"),
    ],
)
def test_a_body_that_is_not_json_is_415(admin, content_type, body):
    response = admin.post("/v1/admin/chains", body, content_type=content_type)
    body = assert_problem(response, 415, "unsupported_media_type")
    assert content_type.split(";")[0] in body["detail"]


@pytest.mark.parametrize(
    "body",
    ['{"chainId": 1,', "{'chainId': 1}", '{"chainId": NaN}', '{"chainId": Infinity}',
     '{"chainId": -Infinity}', "\xff\xfe"],
    ids=["truncated", "single quotes", "NaN", "Infinity", "-Infinity", "not utf-8"],
)
def test_malformed_json_is_a_400_problem(admin, body):
    data = body.encode("latin-1")
    response = admin.generic("POST", "/v1/admin/chains", data, content_type="application/json")
    body = assert_problem(response, 400, "parse_error")
    assert body["detail"].startswith("The request body is not valid JSON")


def test_a_validation_error_names_each_field_in_camel_case(admin):
    response = admin.post("/v1/admin/chains", {"name": "No id"}, format="json")
    body = assert_problem(response, 400, "validation_error")
    assert body["errors"], body
    for error in body["errors"]:
        assert set(error) == {"attr", "code", "detail"}
    attrs = {error["attr"] for error in body["errors"]}
    assert "chainId" in attrs and "shortName" in attrs
    assert not any("_" in attr for attr in attrs if attr)
    assert body["detail"]  # a one-line summary for humans


def test_a_body_over_the_limit_is_413_before_authentication(anon, settings):
    body = b'{"name": "' + b"x" * settings.MAX_REQUEST_BODY_BYTES + b'"}'
    response = anon.generic("POST", "/v1/admin/chains", body, content_type="application/json")
    problem = assert_problem(response, 413, "payload_too_large")
    assert str(settings.MAX_REQUEST_BODY_BYTES) in problem["detail"]


def test_the_default_body_limit_is_one_mebibyte(admin, settings):
    assert settings.MAX_REQUEST_BODY_BYTES == 1024 * 1024
    at_limit = b'"' + b"x" * (1024 * 1024 - 2) + b'"'
    response = admin.generic("POST", "/v1/admin/chains", at_limit, content_type="application/json")
    assert response.status_code == 400  # read and refused as a chain, not as a size
    response = admin.generic(
        "POST", "/v1/admin/chains", at_limit + b" ", content_type="application/json"
    )
    assert_problem(response, 413, "payload_too_large")


def test_the_body_limit_follows_the_setting(admin, settings):
    settings.MAX_REQUEST_BODY_BYTES = 100
    response = admin.generic(
        "POST", "/v1/admin/chains", b" " * 101, content_type="application/json"
    )
    assert_problem(response, 413, "payload_too_large")


def test_a_content_length_that_is_not_a_number_is_400(admin):
    response = admin.generic("POST", "/v1/admin/chains", b"{}", content_type="application/json",
                             CONTENT_LENGTH="lots")
    assert_problem(response, 400, "bad_request")


# Crashes.


@pytest.mark.parametrize("path", CRASHES, ids=["plain view", "DRF view"])
@pytest.mark.parametrize("debug", [False, True], ids=["debug off", "debug on"])
def test_a_crash_is_a_500_problem_without_traceback_even_in_debug(
    probes, crash_client, settings, path, debug
):
    settings.DEBUG = debug
    response = crash_client.get(path, HTTP_ACCEPT="text/html")
    body = assert_problem(response, 500, "server_error")
    assert set(body) == PROBLEM_FIELDS
    assert_no_leak(response)
    assert response["X-Request-ID"]


@pytest.mark.parametrize("path", CRASHES, ids=["plain view", "DRF view"])
def test_a_crash_is_logged_with_its_traceback(probes, crash_client, caplog, path):
    with caplog.at_level(logging.ERROR):
        crash_client.get(path)
    crashes = [r for r in caplog.records if r.exc_info or getattr(r, "exc_text", None)]
    assert crashes, [r.getMessage() for r in caplog.records]
    assert any(SECRET_IN_THE_EXCEPTION in str(r.exc_info[1]) for r in crashes if r.exc_info)


@pytest.mark.parametrize("name", sorted(DJANGO_EXCEPTIONS))
def test_django_exceptions_in_an_api_view_become_problems_of_their_own_status(
    probes, crash_client, name
):
    _, status, code = DJANGO_EXCEPTIONS[name]
    body = assert_problem(crash_client.get(f"/probe/drf-raise/{name}"), status, code)
    assert set(body) == PROBLEM_FIELDS


def test_http404_raised_by_a_plain_view_is_a_404_problem_not_a_500(probes, crash_client):
    assert_problem(crash_client.get("/probe/not-found"), 404, "not_found")


def test_permission_denied_raised_by_a_plain_view_is_a_403_problem(probes, crash_client):
    assert_problem(crash_client.get("/probe/forbidden"), 403, "permission_denied")


# Content negotiation.


def test_an_api_route_answers_json_even_when_html_is_asked_for(admin):
    response = admin.get("/v1/admin/chains", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "results" in response.json()


def test_an_api_error_is_a_problem_even_when_html_is_asked_for(anon):
    response = anon.get("/v1/admin/chains", HTTP_ACCEPT="text/html")
    assert_problem(response, 401, "not_authenticated")


def test_an_unsupported_accept_header_is_not_406(admin):
    response = admin.get("/v1/admin/chains", HTTP_ACCEPT="application/xml")
    assert response.status_code == 200


@pytest.mark.parametrize("depth", [65, 900, 100_000])
def test_json_nested_too_deeply_is_a_400_problem_not_a_crash(admin, depth):
    body = ('{"name": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}").encode()
    response = admin.generic("POST", "/v1/admin/chains", body, content_type="application/json")
    problem = assert_problem(response, 400, "parse_error")
    assert "64 levels" in problem["detail"]


def test_json_nested_to_the_limit_is_parsed(admin):
    body = ('{"name": ' + "[" * 63 + "]" * 63 + "}").encode()
    response = admin.generic("POST", "/v1/admin/chains", body, content_type="application/json")
    assert_problem(response, 400, "validation_error")  # refused as a chain, not as JSON


def test_a_request_for_an_unknown_host_is_a_400_problem(anon):
    response = anon.get("/healthz", HTTP_HOST="evil.example")
    assert_problem(response, 400, "bad_request")


def test_a_wrong_type_is_reported_together_with_the_other_fields_problems(admin):
    body = assert_problem(
        admin.post("/v1/admin/chains", {"chainId": 0, "isTestnet": "no", "shortName": "not a slug"},
                   format="json"),
        400, "validation_error",
    )
    attrs = {e["attr"]: e["code"] for e in body["errors"]}
    assert attrs["isTestnet"] == "invalid_type"
    assert attrs["chainId"] == "min_value"
    assert attrs["shortName"] == "invalid"
    assert attrs["name"] == "required"


@pytest.mark.parametrize("raw", [
    '{"name": "a\\u0000b"}',  # NUL: PostgreSQL text and jsonb refuse it
    '{"name": "\\ud800"}',  # a lone surrogate is not UTF-8
    '{"confirmations": 1e400}',  # reads as infinity
    '{"a\\u0000": 1}',
])
def test_json_no_database_can_store_is_a_400_parse_error_not_a_crash(admin, raw):
    response = admin.generic("POST", "/v1/admin/chains", raw, content_type="application/json")
    assert_problem(response, 400, "parse_error")


def test_a_body_nested_100000_deep_is_refused_and_web3_leaves_the_recursion_limit_alone():
    # Run apart: if the parser recursed past a raised limit (web3's py_ecc import sets
    # 100,000), the interpreter would die with a segfault, not just this test.
    import subprocess
    import sys

    script = (
        "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup(); import web3, io, sys; assert sys.getrecursionlimit() == 1000;"
        "from core.parsers import JSONParser; from rest_framework.exceptions import ParseError\n"
        "try:\n    JSONParser().parse(io.BytesIO(b'[' * 100000 + b']' * 100000))\n"
        "except ParseError as exc:\n    print('refused:', exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "refused: The request body nests deeper than 64 levels." in done.stdout


# No 500 from input (issue 17, item 6).


@pytest.mark.parametrize("charset", ["hex", "base64", "rot13"])
@pytest.mark.parametrize("path", ["/v1/verify", "/workflows"])
def test_a_body_in_a_charset_that_is_no_text_encoding_is_a_415(api, path, charset):
    response = api.generic("POST", path, b'{"documentHash": "0x' + b"ab" * 32 + b'"}',
                           content_type=f"application/json; charset={charset}")
    assert_problem(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("query", [
    "from=9999-12-31T23:59:59-14:00", "to=9999-12-31T23:59:59-14:00",
    "from=0001-01-01T00:00:00%2B14:00",
])
def test_a_time_filter_beyond_what_utc_holds_is_a_400(api, query):
    body = assert_problem(api.get(f"/attestations?{query}"), 400, "validation_error")
    assert body["errors"][0]["attr"] == query.split("=")[0]

"""Every response carries X-Request-ID, echoed from the client when it sent a sane one."""

import logging
import re

import pytest
from rest_framework.test import APIClient

from core.request_id import RequestIdLogFilter

pytestmark = pytest.mark.django_db

GENERATED = re.compile(r"[0-9a-f]{32}")


def test_a_request_id_is_generated_when_none_is_sent(anon):
    first, second = anon.get("/healthz"), anon.get("/healthz")
    assert GENERATED.fullmatch(first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


@pytest.mark.parametrize(
    "request_id",
    ["abc123", "7f3e2c1a-9b8d-4e6f-a1b2-c3d4e5f6a7b8", "trace:span.01_x", "x" * 128],
)
def test_a_sane_request_id_is_echoed(anon, request_id):
    response = anon.get("/healthz", HTTP_X_REQUEST_ID=request_id)
    assert response["X-Request-ID"] == request_id


@pytest.mark.parametrize(
    "request_id",
    ["", "x" * 129, "has space", "<script>alert(1)</script>", "line\nbreak", "naïve", "a/b"],
    ids=["empty", "too long", "space", "markup", "newline", "non-ascii", "slash"],
)
def test_an_insane_request_id_is_replaced_by_a_generated_one(anon, request_id):
    response = anon.get("/healthz", HTTP_X_REQUEST_ID=request_id)
    assert GENERATED.fullmatch(response["X-Request-ID"])


def test_error_responses_carry_the_request_id_too(anon, settings):
    settings.MAX_REQUEST_BODY_BYTES = 10
    responses = [
        anon.get("/nowhere", HTTP_X_REQUEST_ID="req-404"),
        anon.get("/v1/admin/chains", HTTP_X_REQUEST_ID="req-401"),
        anon.post("/healthz", HTTP_X_REQUEST_ID="req-405"),
        anon.generic("POST", "/v1/admin/chains", b"x" * 11, content_type="application/json",
                     HTTP_X_REQUEST_ID="req-413"),
    ]
    for response in responses:
        assert response.status_code >= 400
        assert response["X-Request-ID"] == f"req-{response.status_code}"


def test_a_crash_carries_the_request_id(settings):
    settings.ROOT_URLCONF = "tests.probe_urls"
    client = APIClient(raise_request_exception=False)
    response = client.get("/probe/drf-crash", HTTP_X_REQUEST_ID="req-500")
    assert response.status_code == 500
    assert response["X-Request-ID"] == "req-500"


def test_a_successful_api_response_carries_the_request_id(admin):
    response = admin.get("/v1/admin/chains", HTTP_X_REQUEST_ID="req-ok")
    assert response.status_code == 200
    assert response["X-Request-ID"] == "req-ok"


def test_a_cors_preflight_carries_the_request_id(anon, settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example"]
    response = anon.options(
        "/v1/admin/chains",
        HTTP_ORIGIN="https://app.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_X_REQUEST_ID="req-preflight",
    )
    assert response.status_code == 200
    assert response["X-Request-ID"] == "req-preflight"


def test_every_log_line_of_a_request_carries_its_id(anon, caplog):
    # The filter the LOGGING setting puts on the console handler, on pytest's handler.
    caplog.handler.addFilter(RequestIdLogFilter())
    with caplog.at_level(logging.INFO):
        anon.get("/v1/admin/chains", HTTP_X_REQUEST_ID="req-logged")
    assert caplog.records  # at least the access log's line
    assert {record.request_id for record in caplog.records} == {"req-logged"}


def test_log_lines_outside_a_request_carry_a_dash(caplog):
    caplog.handler.addFilter(RequestIdLogFilter())
    logging.getLogger("tests").warning("not in a request")
    assert caplog.records[-1].request_id == "-"

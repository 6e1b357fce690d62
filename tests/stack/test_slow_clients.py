"""Slow clients against the published front: Debian's nginx with deploy/nginx.conf before
gunicorn's sync workers, as docker-compose.yml runs them (bench/slow_clients.py measures the
same with its figures)."""

import http.client
import json

import pytest

from bench.front import nginx_binary, nginx_front
from bench.harness import bench_env, gunicorn
from bench.slow_clients import measure
from tests.conftest import missing

WORKERS = 2


@pytest.fixture(scope="module")
def upstream():
    with gunicorn(bench_env(LOG_LEVEL="WARNING"), workers=WORKERS) as port:
        yield port


@pytest.fixture(scope="module")
def front(upstream):
    if nginx_binary() is None:
        missing("nginx is not installed", "run scripts/client_tools.sh as root")
    with nginx_front(upstream) as port:
        yield port


def test_healthz_answers_through_the_front_while_16_sockets_dribble_their_headers(front):
    result = measure(front, slow=16, hold=20)
    print(f"\n{result.line('through nginx')}")
    assert result.ratio >= 0.9, result


def test_directly_on_gunicorns_sync_workers_the_same_slow_sockets_starve_healthz(upstream):
    # Why the front is there: each slow socket holds a sync worker while it dribbles.
    result = measure(upstream, slow=16, hold=8)
    print(f"\n{result.line('directly on gunicorn')}")
    assert result.ratio < 0.5, result


def call(port, method, path, headers=None, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


@pytest.mark.parametrize("status, code, request_", [
    (413, "payload_too_large", ("POST", "/v1/verify", {}, b"x" * (1024 * 1024 + 1))),
    (414, "uri_too_long", ("GET", "/" + "a" * 20000, {}, None)),
    (431, "request_header_fields_too_large", ("GET", "/healthz", {"X-Big": "a" * 20000}, None)),
])
def test_the_fronts_own_errors_are_problem_documents(front, status, code, request_):
    got, headers, body = call(front, *request_)
    assert got == status
    assert headers["Content-Type"] == "application/problem+json"
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (status, code)
    assert problem["type"] == f"urn:problem-type:chain-registry:{code}"


def test_a_request_line_nginx_cannot_read_is_a_400_problem(front):
    import socket

    with socket.create_connection(("127.0.0.1", front), timeout=5) as sock:
        sock.sendall(b"NOT HTTP\r\n\r\n")
        answer = sock.recv(4096).decode()
    head, _, body = answer.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 400") and "application/problem+json" in head
    assert json.loads(body)["code"] == "bad_request"


def test_a_gone_upstream_is_a_502_problem():
    if nginx_binary() is None:
        missing("nginx is not installed", "run scripts/client_tools.sh as root")
    from tests.anvil import free_port

    with nginx_front(free_port()) as port:  # nothing listens upstream
        status, headers, body = call(port, "GET", "/healthz")
    assert status == 502 and headers["Content-Type"] == "application/problem+json"
    assert json.loads(body)["code"] == "bad_gateway"


def test_the_apps_own_problem_documents_pass_through_the_front_with_forwarded_headers(front):
    status, headers, body = call(front, "GET", "/no-such-path", {"X-Request-ID": "front-1"})
    assert status == 404 and json.loads(body)["code"] == "not_found"
    assert headers["X-Request-ID"] == "front-1"  # the app answered, not nginx
    status, _, body = call(front, "GET", "/readyz")
    assert status in (200, 503) and "checks" in json.loads(body)  # the app's, not nginx's


def test_nginx_logs_only_what_it_answers_itself_the_app_logs_the_rest(upstream, tmp_path):
    if nginx_binary() is None:
        missing("nginx is not installed", "run scripts/client_tools.sh as root")
    log_path = tmp_path / "nginx.log"
    with open(log_path, "wb") as log, nginx_front(upstream, log=log) as port:
        call(port, "GET", "/healthz", {"X-Request-ID": "served-by-the-app"})
        call(port, "GET", "/no-such-path", {"X-Request-ID": "a-404-of-the-app"})
        call(port, "POST", "/v1/verify", {"X-Request-ID": "too-large"}, b"x" * (1024 * 1024 + 1))
    lines = [json.loads(line) for line in log_path.read_text().splitlines()
             if line.startswith("{")]
    assert [(line["request_id"], line["status"]) for line in lines] == [("too-large", 413)]

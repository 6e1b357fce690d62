"""The server of `scripts/run.sh` (Django's runserver) as a newcomer meets it (issue 37,
items 6 and 7): a chunked body gets the documented 411, as under gunicorn, not "documentHash:
This field is required."; and each request writes one log line, the access log's."""

import http.client
import json
import re
import subprocess
import time

import pytest
from django.db import connection

from bench.harness import PYTHON, ROOT, bench_env
from tests.anvil import free_port

pytestmark = pytest.mark.django_db

API_KEY = "runserver-test-api-key-" + "k" * 32
VERIFY = {"documentHash": "0x" + "ab" * 32}
ACCESS_LINE = re.compile(r" INFO config\.access \[[0-9a-f]{32}\] (\S+) (\S+) (\d{3}) ")


@pytest.fixture(scope="module")
def runserver(django_db_setup, django_db_blocker, tmp_path_factory):
    """`manage.py runserver` on the test database; yields (port, the file of its output)."""
    database = connection.settings_dict
    if connection.vendor != "postgresql":
        pytest.skip("the server process reads the test database over the network")
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    env = bench_env(API_KEY=API_KEY, DATABASE_URL=url, LOG_LEVEL="INFO", LOG_FORMAT="text")
    port = free_port()
    output = tmp_path_factory.mktemp("runserver") / "output.log"
    with django_db_blocker.unblock(), output.open("w") as sink:
        server = subprocess.Popen([PYTHON, "manage.py", "runserver", "--noreload",
                                   f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=sink,
                                  stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 90
            while request(port, "GET", "/healthz")[0] != 200:
                assert server.poll() is None and time.monotonic() < deadline, output.read_text()
                time.sleep(0.3)
            yield port, output
        finally:
            server.terminate()
            server.wait(timeout=30)


def request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    except OSError:
        return None, b""
    finally:
        conn.close()


def test_a_chunked_body_gets_the_documented_411(runserver):
    port, _ = runserver
    chunks = iter([json.dumps(VERIFY).encode()])  # http.client sends an iterable chunked
    status, body = request(port, "POST", "/v1/verify", chunks, {
        "Content-Type": "application/json", "X-API-Key": API_KEY})
    assert status == 411, body
    assert json.loads(body)["code"] == "length_required"
    # The same body with its length is read.
    status, body = request(port, "POST", "/v1/verify", json.dumps(VERIFY).encode(), {
        "Content-Type": "application/json", "X-API-Key": API_KEY})
    assert status == 200 and json.loads(body)["verified"] is False, body


def test_each_request_writes_one_line_the_access_logs(runserver):
    port, output = runserver
    start = len(output.read_text().splitlines())
    sent = [("GET", "/healthz", None, {}),  # 200
            ("POST", "/v1/verify", b"{}", {"Content-Type": "application/json"}),  # 401
            ("GET", "/chains?limit=0", None, {"X-API-Key": API_KEY}),  # 400
            ("GET", "/no-such-page", None, {})]  # 404
    statuses = [request(port, method, path, body, headers)[0]
                for method, path, body, headers in sent]
    assert statuses == [200, 401, 400, 404]
    time.sleep(0.5)  # the last line written
    lines = output.read_text().splitlines()[start:]
    assert [ACCESS_LINE.search(line).groups() for line in lines] == [
        (method, path.partition("?")[0], str(status))
        for (method, path, _, _), status in zip(sent, statuses, strict=True)], lines

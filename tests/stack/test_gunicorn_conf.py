"""gunicorn.conf.py as the image runs it (`gunicorn config.wsgi:application`, nothing else on
the command line): its settings come from the environment, and each request logs one line."""

import os
import runpy
import secrets
import signal
import subprocess
import time

import requests

from tests.anvil import ROOT, free_port
from tests.stack.compose import BIN


def settings(**env) -> dict:
    old = dict(os.environ)
    os.environ.update(env)
    try:
        return runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    finally:
        os.environ.clear()
        os.environ.update(old)


def test_the_settings_an_operator_expects_come_from_the_environment():
    conf = settings(WEB_CONCURRENCY="3", GUNICORN_TIMEOUT="45")
    assert (conf["workers"], conf["timeout"]) == (3, 45)
    assert conf["graceful_timeout"] > 0 and conf["max_requests"] > 0
    assert 0 < conf["max_requests_jitter"] < conf["max_requests"]
    assert conf["forwarded_allow_ips"] and conf["bind"] == "0.0.0.0:8000"
    assert conf["accesslog"] is None  # the app's access line is the one


def test_one_access_line_per_request(tmp_path):
    port = free_port()
    log = tmp_path / "web.log"
    env = {**os.environ, "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1",
           "LOG_FORMAT": "json", "SECRET_KEY": secrets.token_urlsafe(50)}
    with log.open("w") as out:
        web = subprocess.Popen([str(BIN / "gunicorn"), "config.wsgi:application"], cwd=ROOT,
                               env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                    break
                except requests.RequestException:
                    assert web.poll() is None and time.monotonic() < deadline, log.read_text()
                    time.sleep(0.2)
            # HEAD once: the start-up polls (GETs) may have been answered more than once.
            requests.head(f"http://127.0.0.1:{port}/healthz", timeout=5)
        finally:
            web.send_signal(signal.SIGTERM)
            web.wait(timeout=30)
    access = [line for line in log.read_text().splitlines() if "HEAD" in line and "/healthz" in line]
    assert len(access) == 1, access  # the app's JSON line, no gunicorn line beside it
    assert access[0].startswith("{") and '"path": "/healthz"' in access[0], access

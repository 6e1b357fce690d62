"""CORS in a real browser: headless Chromium (Debian's package, scripts/client_tools.sh)
loads a page from another origin that calls /chains, /v1/verify and /trpc with fetch:
custom headers (so preflights), JSON lines, JSON-RPC, a 401 whose body and headers the page
may read; a page from an origin that is not listed is refused by the browser."""

import html
import json
import re
import shutil
import subprocess
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import missing
from tests.trpc.conftest import SCHEMA

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = """<!doctype html><html><body><pre id="out">pending</pre><script>
const api = %(api)s, key = %(key)s, schema = %(schema)s;
const out = {};
async function read(name, response) {
  const text = await response.text();
  out[name] = {status: response.status, text,
               requestId: response.headers.get("x-request-id"),
               wwwAuthenticate: response.headers.get("www-authenticate")};
}
async function run() {
  const headers = {"X-API-Key": key, "X-Request-ID": "from-the-browser"};
  await read("chains", await fetch(api + "/chains", {headers}));
  await read("verify", await fetch(api + "/v1/verify", {method: "POST",
    headers: {...headers, "Content-Type": "application/json"},
    body: JSON.stringify({documentHash: "0x" + "d0".repeat(32)})}));
  await read("stream", await fetch(api + "/trpc/chains.list,nope?batch=1&input=%%7B%%7D",
    {headers: {...headers, "trpc-accept": "application/jsonl", "x-trpc-source": "browser"}}));
  await read("mutation", await fetch(api + "/trpc/schemas.validate", {method: "POST",
    headers: {...headers, "Content-Type": "application/json", "Idempotency-Key": "k-1",
              "trpc-batch-mode": "none", "Authorization": "Bearer unused"},
    body: JSON.stringify({schema})}));
  await read("jsonrpc", await fetch(api + "/trpc", {method: "POST",
    headers: {...headers, "Content-Type": "application/json"},
    body: JSON.stringify([{jsonrpc: "2.0", method: "chains.list", id: 1}])}));
  await read("anonymous", await fetch(api + "/trpc/chains.list"));
}
run().then(() => { out.done = true; }, (error) => { out.error = String(error); })
  .finally(() => { document.getElementById("out").textContent = JSON.stringify(out); });
</script></body></html>"""
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--virtual-time-budget=30000", "--dump-dom",
]


def require_chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        missing("chromium is not installed", "run scripts/client_tools.sh as root")
    return path


@pytest.fixture
def page_origin():
    """A second HTTP server on 127.0.0.1 serving the page; its origin as the browser names it."""
    folder = tempfile.mkdtemp()
    handler = partial(_QuietHandler, directory=folder)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_address[1]}", Path(folder)
    server.shutdown()
    server.server_close()
    shutil.rmtree(folder, ignore_errors=True)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def browse(chromium: str, url: str) -> dict:
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", url],
                              capture_output=True, text=True, timeout=120, check=False)
    found = re.search(r'<pre id="out">(.*?)</pre>', done.stdout, re.S)
    assert found, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    return json.loads(html.unescape(found.group(1)))


def write_page(folder: Path, live_server, key: str) -> str:
    page = PAGE % {"api": json.dumps(live_server.url), "key": json.dumps(key),
                   "schema": json.dumps(SCHEMA)}
    (folder / "index.html").write_text(page)
    return "/index.html"


def test_a_page_of_a_listed_origin_calls_the_api_and_trpc(live_server, api_key, chains, settings,
                                                          page_origin):
    chromium = require_chromium()
    origin, folder = page_origin
    settings.CORS_ALLOWED_ORIGINS = [origin]
    out = browse(chromium, origin + write_page(folder, live_server, api_key))
    assert out.get("done"), out
    chains_answer = out["chains"]
    assert chains_answer["status"] == 200 and chains_answer["requestId"] == "from-the-browser"
    assert len(json.loads(chains_answer["text"])["results"]) == 2
    verify = out["verify"]
    assert verify["status"] == 200 and json.loads(verify["text"])["verified"] is False
    stream = out["stream"]
    assert stream["status"] == 200
    head = json.loads(stream["text"].strip())
    assert len(head["0"][0][0]["result"]["data"]["results"]) == 2
    assert head["1"][0][0]["error"]["data"]["code"] == "NOT_FOUND"
    mutation = out["mutation"]
    assert mutation["status"] == 200
    assert json.loads(mutation["text"])["result"]["data"]["valid"] is True
    assert json.loads(out["jsonrpc"]["text"])[0]["id"] == 1
    anonymous = out["anonymous"]
    assert anonymous["status"] == 401 and anonymous["wwwAuthenticate"].startswith("ApiKey")
    assert json.loads(anonymous["text"])["error"]["data"]["code"] == "UNAUTHORIZED"


def test_a_page_of_an_unlisted_origin_is_refused_by_the_browser(live_server, api_key, settings,
                                                               page_origin):
    chromium = require_chromium()
    origin, folder = page_origin
    settings.CORS_ALLOWED_ORIGINS = ["http://localhost:1"]
    out = browse(chromium, origin + write_page(folder, live_server, api_key))
    assert "done" not in out and "Failed to fetch" in out["error"], out

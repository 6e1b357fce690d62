"""The same requests to /trpc and to the reference, a real @trpc/server v11 (from npm:
scripts/client_tools.sh) serving procedures of the same names and kinds: the same HTTP
status, and per envelope the same tRPC code, status and path (issue 37, item 4). Messages
differ (theirs are JavaScript's), and ours carry the problem document besides."""

import json
import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.trpc.test_clients import require_client
from trpc.procedures import PROCEDURES

pytestmark = pytest.mark.django_db

SERVER = Path(__file__).with_name("reference_server.cjs")
MAX_BATCH = 3
# Names of /trpc's procedures, none another's prefix (tRPC's routers nest).
MIRRORED = ["chains.list", "chains.get", "schemas.validate", "verify"]


@pytest.fixture(scope="module")
def reference():
    """The reference server's base URL."""
    plan = {"clientDir": str(require_client(11)), "maxBatchSize": MAX_BATCH,
            "procedures": {name: PROCEDURES[name].kind for name in MIRRORED}}
    server = subprocess.Popen(["node", str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "NODE_ENV": "production"})
    try:
        server.stdin.write(json.dumps(plan))
        server.stdin.close()
        port = int(server.stdout.readline())
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(autouse=True)
def _same_batch_size(settings):
    settings.TRPC_MAX_BATCH_SIZE = MAX_BATCH


def wire(status: int, envelope) -> tuple:
    """What the two must share: the status and each envelope's code, status and path."""
    def shape(item):
        if "result" in item:
            return "result"
        data = item["error"]["data"]
        return item["error"]["code"], data["code"], data["httpStatus"], data.get("path")
    return status, [shape(item) for item in envelope] if isinstance(envelope, list) else shape(envelope)


def ask_reference(reference, method, target, body=None, content_type=None):
    request = urllib.request.Request(reference + target, method=method,
                                     data=body.encode() if body is not None else None)
    if content_type:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return wire(response.status, json.loads(response.read()))
    except urllib.error.HTTPError as error:
        return wire(error.code, json.loads(error.read()))


def ask_service(api, method, target, body=None, content_type=None):
    response = api.generic(method, target, body or "", content_type=content_type or "")
    return wire(response.status_code, response.json())


CASES = {
    "query input not JSON": ("GET", "/trpc/chains.list?input=%7Bnot-json", None, None),
    "mutation body not JSON": ("POST", "/trpc/verify", "{not-json", "application/json"),
    "batch input not JSON": ("GET", "/trpc/chains.list,nope?batch=1&input=%7Bnot", None, None),
    "batch input not an object": ("GET", "/trpc/chains.list,chains.get?batch=1&input=%5B1%5D",
                                  None, None),
    "mutation in a GET batch": ("GET", "/trpc/chains.list,verify?batch=1", None, None),
    "query in a POST batch": ("POST", "/trpc/verify,chains.list?batch=1", "{}", "application/json"),
    "text/plain mutation body": ("POST", "/trpc/verify", "x", "text/plain"),
    "text/plain batch body": ("POST", "/trpc/verify,verify?batch=1", "x", "text/plain"),
    "batch too large": ("GET", "/trpc/" + ",".join(["chains.list"] * (MAX_BATCH + 1)) + "?batch=1",
                        None, None),
    "mutation with GET": ("GET", "/trpc/verify", None, None),
    "query with POST": ("POST", "/trpc/chains.list", "", "application/json"),
    "mutations with GET": ("GET", "/trpc/verify,schemas.validate?batch=1", None, None),
    "unknown procedure": ("GET", "/trpc/nope", None, None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_service_answers_as_the_reference(reference, api, case):
    method, target, body, content_type = CASES[case]
    assert ask_service(api, method, target, body, content_type) == ask_reference(
        reference, method, target, body, content_type)

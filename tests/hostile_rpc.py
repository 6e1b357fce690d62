"""Real HTTP servers on 127.0.0.1 that answer JSON-RPC in hostile ways (tests only).

`HostileRpc(kind)` answers every request the way named by `kind` (see ANSWERS); for
`"redirect"`, to `location`. Each answer carries SECRET_TEXT where a provider's own words
would be, so that a test can tell whether they reached a last error, a log or a response.
"""

import json
import threading
import time

from tests.anvil import QuietHandler, QuietServer

SECRET_TEXT = "<script>leaked-provider-text</script>"
MIB = 1024 * 1024


def _rpc(request, **answer) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request.get("id"), **answer}).encode()


def _quantities(too_big_method: str):
    """chainId 31337 and block 1, except `too_big_method`, which answers 2^64 - 1."""
    def answer(handler, request):
        if request.get("method") == too_big_method:
            handler.reply(_rpc(request, result="0xffffffffffffffff"))
        elif request.get("method") == "eth_chainId":
            handler.reply(_rpc(request, result="0x7a69"))
        else:
            handler.reply(_rpc(request, result="0x1"))
    return answer


def _huge(handler, request, *, declared: bool):
    """40 MiB of a JSON string, with or without a Content-Length saying so."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    if declared:
        handler.send_header("Content-Length", str(40 * MIB + 40))
    handler.end_headers()
    handler.wfile.write(b'{"jsonrpc": "2.0", "id": 1, "result": "')
    for _ in range(40):
        handler.wfile.write(b"a" * MIB)
    handler.wfile.write(b'"}')


ANSWERS = {
    "chain-id-over-bigint": _quantities("eth_chainId"),
    "block-over-bigint": _quantities("eth_blockNumber"),
    "huge-declared": lambda h, r: _huge(h, r, declared=True),
    "huge-streamed": lambda h, r: _huge(h, r, declared=False),
    "redirect": lambda h, r: h.reply(b"", status=307, Location=h.server.location),
    "html": lambda h, r: h.reply(f"<html>{SECRET_TEXT}</html>".encode(), content_type="text/html"),
    "rpc-error": lambda h, r: h.reply(_rpc(r, error={"code": -32000, "message": SECRET_TEXT})),
    "garbage": lambda h, r: h.reply(b'{"jsonrpc": "2.0", "id": 1, "result": "0x7a' + b"\xff\xfe"),
    "not-json-rpc": lambda h, r: h.reply(json.dumps([SECRET_TEXT]).encode()),
    "hang": lambda h, r: time.sleep(h.server.hang_seconds),
    "http-500": lambda h, r: h.reply(SECRET_TEXT.encode(), status=500),
}


class _Handler(QuietHandler):
    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        self.server.requests += 1
        first = request[0] if isinstance(request, list) and request else request
        ANSWERS[self.server.kind](self, first if isinstance(first, dict) else {})


class HostileRpc:
    def __init__(self, kind: str, *, location: str = "", hang_seconds: float = 3.0):
        self._server = QuietServer(("127.0.0.1", 0), _Handler)
        self._server.kind, self._server.location = kind, location
        self._server.hang_seconds, self._server.requests = hang_seconds, 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    @property
    def requests(self) -> int:
        return self._server.requests

    def __enter__(self) -> "HostileRpc":
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

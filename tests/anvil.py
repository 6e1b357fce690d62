"""Real anvil nodes for tests: each on 127.0.0.1 and a free port, stopped by its pid;
and a stub server for the few answers anvil cannot give."""

import ctypes
import itertools
import json
import os
import signal
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
PR_SET_PDEATHSIG = 1
ANVIL = Path(os.environ.get(
    "ANVIL_BIN", ROOT / ".tools/node/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil"
))


def _die_with_parent() -> None:
    """In the child, before exec: ask Linux to kill it when the test process dies, so a
    crashed run (no fixture teardown) leaves no node behind. (Linux ties this to the thread
    that started the node: start nodes from the main thread, as the fixtures do.)"""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:  # not Linux: teardown alone stops the nodes
        pass


# Under pytest-xdist (scripts/test.sh), worker n picks its ports in a range of its own, below
# the kernel's ephemeral ports: two workers never pick the same one, and no outgoing
# connection takes a picked port before the server that it was picked for binds it.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "").removeprefix("gw")
_PORTS = (itertools.cycle(range(20000 + 500 * int(_WORKER), 20500 + 500 * int(_WORKER)))
          if _WORKER.isdigit() else None)


def free_port() -> int:
    """A port that nothing listens on at 127.0.0.1 now: the kernel's choice, or in a test
    worker the next free one of its range (the test servers, anvil, gunicorn, PostgreSQL and
    the compose stack's processes, take theirs here)."""
    for _ in range(500 if _PORTS else 1):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", next(_PORTS) if _PORTS else 0))
            except OSError:  # in use (or in TIME_WAIT): the next one
                continue
            return sock.getsockname()[1]
    raise OSError("no free port in this test worker's range")


_closed_urls = itertools.count()


def closed_url() -> str:
    """A URL where nothing listens. The path makes each one distinct: the OS may hand out
    the same free port twice in a row, and endpoint URLs are unique per chain."""
    return f"http://127.0.0.1:{free_port()}/closed-{next(_closed_urls)}"


class Anvil:
    def __init__(self, chain_id: int = 31337, port: int | None = None, args: tuple = ()):
        self.chain_id = chain_id
        self.port = port or free_port()
        self.args = tuple(args)  # more of anvil's options (`--accounts 1`, ...)
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15) -> "Anvil":
        self.process = subprocess.Popen(
            [str(ANVIL), "--host", "127.0.0.1", "--port", str(self.port),
             "--chain-id", str(self.chain_id), "--silent", *self.args],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"anvil exited with {self.process.returncode}")
            try:
                self.rpc("eth_chainId")
                return self
            except requests.RequestException:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"anvil did not answer on port {self.port} within {timeout} s")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)

    def rpc(self, method: str, params=None, timeout: float = 5):
        response = requests.post(self.url, json={"jsonrpc": "2.0", "id": 1, "method": method,
                                                 "params": params or []}, timeout=timeout)
        response.raise_for_status()
        body = response.json()
        if "error" in body:
            raise RuntimeError(body["error"])
        return body["result"]

    def mine(self, blocks: int = 1) -> None:
        self.rpc("anvil_mine", [hex(blocks)])

    def block_number(self) -> int:
        return int(self.rpc("eth_blockNumber"), 16)


class QuietHandler(BaseHTTPRequestHandler):
    """A test server's request handler: answers with `reply`, logs nothing."""

    def reply(self, body: bytes, status: int = 200, content_type="application/json", **headers):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class QuietServer(ThreadingHTTPServer):
    """A test server that serves each client in a thread of its own and keeps quiet about
    one that stopped reading or gave up (a broken pipe: expected)."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


class StubRpc:
    """A tiny JSON-RPC server for what anvil cannot be made to do: answer after a delay,
    or with HTTP 429 / 5xx. Every other chain behaviour is tested against anvil itself."""

    def __init__(self, *, delay: float = 0.0, status: int = 200, chain_id: int = 31337,
                 body: bytes | None = None):
        self.delay, self.status, self.chain_id, self.body = delay, status, chain_id, body
        self.requests = 0
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    def start(self) -> "StubRpc":
        stub = self

        class Handler(QuietHandler):
            def do_POST(self):
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with stub._lock:
                    stub.requests += 1
                time.sleep(stub.delay)
                if stub.body is not None:
                    body = stub.body
                elif stub.status != 200:
                    body = b"<html>busy</html>"
                elif isinstance(request, list):  # a JSON-RPC batch
                    body = json.dumps([stub.respond(item) for item in request]).encode()
                else:
                    body = json.dumps(stub.respond(request)).encode()
                self.reply(body, stub.status)

        class Server(QuietServer):
            request_queue_size = 1024  # many probes connect at once

        self._server = Server(("127.0.0.1", 0), Handler)
        # A short poll interval: stop() waits for the serving loop to notice.
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def respond(self, request: dict) -> dict:
        return {"jsonrpc": "2.0", "id": request.get("id"),
                **self.answer_request(request.get("method"), request.get("params") or [])}

    def answer_request(self, method: str, params: list) -> dict:
        """{"result": ...} or {"error": ...}; subclasses that need the params answer here."""
        return self.answer(method)

    def answer(self, method: str) -> dict:
        results = {"eth_chainId": hex(self.chain_id), "eth_blockNumber": "0x1",
                   "eth_syncing": False}
        if method in results:
            return {"result": results[method]}
        return {"error": {"code": -32601, "message": "Method not found"}}

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "StubRpc":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

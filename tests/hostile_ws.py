"""A real websocket JSON-RPC server on 127.0.0.1 that answers `eth_subscribe` `newHeads` in
hostile ways (tests only), as tests/hostile_rpc.py does for HTTP.

`HostileWs(kind)`: see KINDS. `kind` may be changed while it runs (new connections behave
the new way): a test turns a hostile server into a "good" one to show that the follower
comes back by itself. A "good" server sends a new head every `every` seconds from
`next_head` on, and answers eth_blockNumber.
"""

import json
import logging
import threading
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import serve

from tests.hostile_rpc import SECRET_TEXT

SUBSCRIPTION = "0x9cef478923ff08bf67fde6c64013158d"
KINDS = ("good", "garbage", "rpc-error", "silent", "close", "huge-number", "not-a-header",
         "other-subscription", "backwards")


def _notification(number, subscription=SUBSCRIPTION, block_hash=None) -> str:
    header = {"number": number if isinstance(number, str) else hex(number),
              "hash": block_hash or "0x" + f"{number}".rjust(64, "0")[-64:]}
    return json.dumps({"jsonrpc": "2.0", "method": "eth_subscription",
                       "params": {"subscription": subscription, "result": header}})


class HostileWs:
    def __init__(self, kind: str, *, every: float = 0.2, next_head: int = 100,
                 heads: tuple[int, ...] = (10, 11, 9)):
        self.kind, self.every, self.next_head, self.heads = kind, every, next_head, heads
        self.connections = 0
        self._server = serve(self._handle, "127.0.0.1", 0, compression=None,
                             logger=logging.getLogger("tests.hostile_ws"))

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self._server.socket.getsockname()[1]}"

    def _handle(self, ws) -> None:
        self.connections += 1
        kind = self.kind
        try:
            if kind == "close":
                return
            request = json.loads(ws.recv(timeout=5))
            if kind == "silent":
                ws.recv(timeout=30)  # until the client gives up and closes
                return
            if kind == "rpc-error":
                ws.send(json.dumps({"jsonrpc": "2.0", "id": request["id"],
                                    "error": {"code": -32000, "message": SECRET_TEXT}}))
                ws.recv(timeout=30)
                return
            ws.send(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": SUBSCRIPTION}))
            self._heads(ws, kind)
        except (ConnectionClosed, TimeoutError, OSError):
            pass

    def _heads(self, ws, kind: str) -> None:
        if kind == "garbage":
            ws.send(b'{"jsonrpc": "2.0", "method": "eth_subscription", \xff\xfe')
        elif kind == "huge-number":
            ws.send(_notification("0x10000000000000000"))
        elif kind == "not-a-header":
            ws.send(json.dumps({"jsonrpc": "2.0", "method": "eth_subscription",
                                "params": {"subscription": SUBSCRIPTION, "result": SECRET_TEXT}}))
        elif kind == "other-subscription":
            for number in range(5):
                ws.send(_notification(number, subscription="0x1234"))
        elif kind == "backwards":
            for number in self.heads:
                ws.send(_notification(number))
                time.sleep(0.3)
        while True:  # then a good server's heads (kinds that failed were closed by now)
            if kind != "good":
                ws.recv(timeout=30)
                continue
            try:
                request = json.loads(ws.recv(timeout=self.every))
                ws.send(json.dumps({"jsonrpc": "2.0", "id": request["id"],
                                    "result": hex(self.next_head)}))
            except TimeoutError:
                ws.send(_notification(self.next_head))
                self.next_head += 1

    def __enter__(self) -> "HostileWs":
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()

"""A webhook receiver on 127.0.0.1 that reads the request, then answers one byte every
`every` seconds: its status line and headers (`mode="headers"`), or a body after whole
headers (`mode="body"`). It gives up after `lasting` seconds, so that a client without a
deadline of its own ends too (a test of it fails rather than hangs)."""

import socket
import threading
import time

ANSWER = b"thanks, but slowly" * 10
HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(ANSWER)


class Dribbler:
    def __init__(self, mode: str = "body", every: float = 0.25, lasting: float = 20):
        self.mode, self.every, self.lasting = mode, every, lasting
        self.requests = 0
        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._server.getsockname()[1]}/hook"
        self._closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(65536)
            head, _, body = request.partition(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            while len(body) < length:
                body += conn.recv(65536)
            self.requests += 1
            if self.mode == "body":
                conn.sendall(HEAD)
            given_up = time.monotonic() + self.lasting
            try:
                for byte in (HEAD + ANSWER if self.mode == "headers" else ANSWER):
                    if time.monotonic() > given_up or self._closed.wait(self.every):
                        return
                    conn.sendall(bytes([byte]))
            except OSError:  # the client hung up: its deadline
                return

    def close(self) -> None:
        self._closed.set()
        self._server.close()

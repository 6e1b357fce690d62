"""Slow clients: does /healthz keep answering while sockets dribble their headers?

`--slow` sockets (16) each send a request line, then one header byte a second, never
finishing, for `--hold` seconds (20); meanwhile GET /healthz once a second, each allowed 2 s.
Prints the share answered in time, through the nginx front of docker-compose.yml
(deploy/nginx.conf) and, for comparison, on gunicorn's sync workers directly (what the
Dockerfile published before). Target through the front: at least 90 %.

    .venv/bin/python bench/slow_clients.py [--workers 2] [--slow 16] [--hold 20] [--front nginx]
"""

import http.client
import socket
import threading
import time
from dataclasses import dataclass

ANSWER_WITHIN = 2.0  # seconds
TARGET = 0.90


@dataclass
class SlowResult:
    asked: int
    answered: int  # with 200 within ANSWER_WITHIN

    @property
    def ratio(self) -> float:
        return self.answered / self.asked if self.asked else 0.0

    def line(self, label: str) -> str:
        return (f"{label}: /healthz answered {self.answered}/{self.asked} within "
                f"{ANSWER_WITHIN:.0f} s ({self.ratio:.0%})")


def dribble(port: int, count: int, stop: threading.Event) -> None:
    """`count` connections that send their headers a byte a second until `stop`."""
    sockets = []
    for i in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(f"GET /healthz?slow={i} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".encode())
        sockets.append(sock)
    while not stop.wait(1.0):
        for sock in list(sockets):
            try:
                sock.sendall(b"a")
            except OSError:  # the server gave up on it: open another, as an attacker would
                sockets.remove(sock)
                try:
                    sockets.append(socket.create_connection(("127.0.0.1", port), timeout=5))
                    sockets[-1].sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                except OSError:
                    pass
    for sock in sockets:
        sock.close()


def healthz_in_time(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_WITHIN)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def measure(port: int, *, slow: int = 16, hold: float = 20.0) -> SlowResult:
    """Hold `slow` dribbling sockets for `hold` seconds, asking /healthz once a second."""
    stop = threading.Event()
    thread = threading.Thread(target=dribble, args=(port, slow, stop), daemon=True)
    thread.start()
    time.sleep(1.0)  # every slow socket is in by now
    asked = answered = 0
    end = time.monotonic() + hold
    try:
        while time.monotonic() < end:
            started = time.monotonic()
            asked += 1
            answered += healthz_in_time(port)
            time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
    finally:
        stop.set()
        thread.join(timeout=10)
    return SlowResult(asked, answered)


def main():
    import harness

    parser = harness.arguments(__doc__.split("\n")[0])
    parser.add_argument("--slow", type=int, default=16)
    parser.add_argument("--hold", type=float, default=20.0)
    args = parser.parse_args()
    env = harness.bench_env()
    fronts = [args.front] if args.front == "nginx" else ["nginx", "direct"]
    lines = []
    for front in fronts:
        args.front = front
        with harness.serve(env, args) as port:
            result = measure(port, slow=args.slow, hold=args.hold)
        label = f"{front:6} (gunicorn sync workers={args.workers}, {args.slow} slow sockets, " \
                f"{args.hold:.0f} s)"
        lines.append(result.line(label) + (
            f"   (target: at least {TARGET:.0%}) {'PASS' if result.ratio >= TARGET else 'FAIL'}"
            if front == "nginx" else ""))
    harness.say(*lines)


if __name__ == "__main__":
    main()

"""The published front of docker-compose.yml, run here: Debian's nginx with the repository's
deploy/nginx.conf, rewritten only where the file says "(test: ...)" (the upstream address,
the port it listens on, its pid file and temporary folders).

    with nginx_front(upstream_port) as port: ...   # nginx on 127.0.0.1:port -> gunicorn
"""

import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "nginx.conf"
FRONTS = ("direct", "nginx")


def nginx_binary() -> str | None:
    # Debian puts it in /usr/sbin, which a non-root PATH may lack.
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                     else None)


def nginx_config(upstream: str, listen: str, folder: Path) -> str:
    """deploy/nginx.conf for an upstream ("127.0.0.1:8000"), an address to listen on and a
    folder for its pid file and temporary files."""
    text = CONFIG.read_text()
    text, upstreams = re.subn(r"server \S+;(\s+# \(test: upstream\))", rf"server {upstream};\1",
                              text)
    text, listens = re.subn(r"listen \S+;(\s+# \(test: listen\))", rf"listen {listen};\1", text)
    text, paths = re.subn(r"/tmp/nginx", f"{folder}/nginx", text)
    if (upstreams, listens) != (1, 1) or paths < 6:
        raise RuntimeError(f"{CONFIG} lost its (test: ...) markers")
    return text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), 0.5).close()
        return True
    except OSError:
        return False


@contextmanager
def nginx_front(upstream_port: int, port: int | None = None, log=subprocess.DEVNULL):
    """nginx on 127.0.0.1:`port` (a free one by default) in front of 127.0.0.1:`upstream_port`;
    yields its port and stops it afterwards."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed (scripts/client_tools.sh installs it)")
    port = port or _free_port()
    folder = Path(tempfile.mkdtemp(prefix="nginx-front-"))
    config = folder / "nginx.conf"
    config.write_text(nginx_config(f"127.0.0.1:{upstream_port}", f"127.0.0.1:{port}", folder))
    process = subprocess.Popen([binary, "-e", "stderr", "-p", str(folder), "-c", str(config),
                                "-g", "daemon off;"], stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 10
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start (exit {process.poll()})")
            time.sleep(0.05)
        yield port
    finally:
        process.send_signal(signal.SIGQUIT)  # graceful: finish what is in flight
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)

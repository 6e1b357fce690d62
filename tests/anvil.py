"""Real anvil nodes for tests: each on 127.0.0.1 and a free port, stopped by its pid."""

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
ANVIL = Path(os.environ.get(
    "ANVIL_BIN", ROOT / ".tools/node/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil"
))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Anvil:
    def __init__(self, chain_id: int = 31337, port: int | None = None):
        self.chain_id = chain_id
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15) -> "Anvil":
        self.process = subprocess.Popen(
            [str(ANVIL), "--host", "127.0.0.1", "--port", str(self.port),
             "--chain-id", str(self.chain_id), "--silent"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
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

    def rpc(self, method: str, params=None):
        response = requests.post(self.url, json={"jsonrpc": "2.0", "id": 1, "method": method,
                                                 "params": params or []}, timeout=5)
        response.raise_for_status()
        body = response.json()
        if "error" in body:
            raise RuntimeError(body["error"])
        return body["result"]

    def mine(self, blocks: int = 1) -> None:
        self.rpc("anvil_mine", [hex(blocks)])

    def block_number(self) -> int:
        return int(self.rpc("eth_blockNumber"), 16)

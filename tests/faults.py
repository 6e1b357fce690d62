"""Processes the fault tests start, stop and restart themselves: a PostgreSQL cluster and a
Redis server of their own on free ports (never the machine's shared ones)."""

import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tests.anvil import free_port

PG_BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1:] or [""]
PG_BIN = Path(PG_BIN[0])


def _as_postgres(*command) -> list[str]:
    # PostgreSQL refuses to run as root.
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)


class OwnPostgres:
    def __init__(self):
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="faults-pg-"))
        self.data = self.folder / "data"

    @staticmethod
    def available() -> bool:
        return (PG_BIN / "initdb").exists() and shutil.which("runuser") is not None

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def init(self) -> "OwnPostgres":
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        subprocess.run(_as_postgres(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust",
                                    "-U", "postgres", "--no-sync", "-E", "UTF8"),
                       check=True, capture_output=True, timeout=120)
        return self

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        subprocess.run(_as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options,
                                    "-l", str(self.folder / "log"), "-w", "-t", "60", "start"),
                       check=True, capture_output=True, timeout=90)

    def stop(self) -> None:
        subprocess.run(_as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                                    "-w", "stop"), capture_output=True, timeout=90)

    def create_database(self, name: str) -> None:
        subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-qc",
                        f"CREATE DATABASE {name}"], check=True, capture_output=True, timeout=60)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class OwnRedis:
    def __init__(self):
        self.port = free_port()
        self.process = None

    @staticmethod
    def available() -> bool:
        return shutil.which("redis-server") is not None

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> "OwnRedis":
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while time.time() < deadline:
            done = subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
                                  text=True)
            if done.stdout.strip() == "PONG":
                return self
            time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)  # a crash, not a clean shutdown
            self.process.wait(timeout=10)

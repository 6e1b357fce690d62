"""A PostgreSQL server of our own, in a temporary folder on a free port of 127.0.0.1, stopped
by its pid: the private primary (tests/private_primary.py) and its streaming replica
(tests/replica.py) of the replica tests and `bench/verify.py --replica`.

PostgreSQL refuses to run as root: run as root, its programs run as the `postgres` OS user,
who is given the folder.
"""

import ctypes
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from tests.anvil import free_port

PR_SET_PDEATHSIG = 1
USER = "postgres"  # the superuser of the servers made here (trust authentication)
HBA = ("local all all trust\n"
       "host all all 127.0.0.1/32 trust\n"
       "host replication all 127.0.0.1/32 trust\n")


class ServerUnavailable(Exception):
    """A server could not be made or started (why, in the message)."""


def postgres_bin() -> Path:
    """The newest PostgreSQL's binaries (PG_BIN to choose)."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    if not found:
        raise ServerUnavailable("no PostgreSQL binaries under /usr/lib/postgresql/*/bin "
                                "(or PG_BIN)")
    return Path(found[-1])


def run(*command, timeout: float) -> subprocess.CompletedProcess:
    """A PostgreSQL program (as `postgres` when we are root); ServerUnavailable if it fails."""
    try:
        done = subprocess.run([postgres_bin() / command[0], *command[1:]], capture_output=True,
                              text=True, timeout=timeout, **_as_postgres())
    except subprocess.TimeoutExpired:
        raise ServerUnavailable(f"{command[0]} took more than {timeout:.0f} s") from None
    if done.returncode != 0:
        raise ServerUnavailable(f"{command[0]} failed: {done.stderr.strip()}")
    return done


def _as_postgres() -> dict:
    """Popen's arguments that run a child as the `postgres` user when we are root."""
    if os.geteuid() != 0:
        return {}
    return {"user": "postgres", "group": "postgres", "extra_groups": [], "cwd": "/"}


def _die_with_parent() -> None:
    """In the child: killed with the process that started it (a crash leaves no server)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass


class PgServer:
    """One server: `make_data()` fills `data`, then start() launches it."""

    def __init__(self):
        self.port = free_port()
        self.folder: Path | None = None
        self.process: subprocess.Popen | None = None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def pid(self) -> int:
        return self.process.pid

    def url(self, database: str) -> str:
        return f"postgres://{USER}@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "postgres", **kwargs) -> psycopg.Connection:
        return psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname=database,
                               autocommit=True, **kwargs)

    def sql(self, statement: str, params=None, database: str = "postgres") -> list:
        """The rows `statement` returns (none for a command)."""
        with self.connect(database) as conn:
            cursor = conn.execute(statement, params)
            return cursor.fetchall() if cursor.description else []

    def start(self, timeout: float = 120) -> "PgServer":
        self.folder = Path(tempfile.mkdtemp(prefix=f"{type(self).__name__.lower()}-"))
        if os.geteuid() == 0:
            postgres = pwd.getpwnam("postgres")
            os.chown(self.folder, postgres.pw_uid, postgres.pw_gid)
        try:
            self.make_data()
            self.launch(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def make_data(self) -> None:
        raise NotImplementedError

    def configure(self, **settings) -> None:
        """Our postgresql.conf and pg_hba.conf (trust on 127.0.0.1, replication included)."""
        settings = {"port": self.port, "listen_addresses": "'127.0.0.1'",
                    "unix_socket_directories": f"'{self.folder}'", "fsync": "off", **settings}
        (self.data / "postgresql.conf").write_text(
            "".join(f"{name} = {value}\n" for name, value in settings.items()))
        (self.data / "pg_hba.conf").write_text(HBA)
        (self.data / "pg_ident.conf").write_text("")

    def ready(self) -> bool:
        """Answering (the replica also waits for recovery to allow connections)."""
        return bool(self.sql("SELECT 1"))

    def launch(self, timeout: float) -> None:
        if os.geteuid() == 0:
            for path in [self.data, *self.data.rglob("*")]:
                shutil.chown(path, "postgres", "postgres")
        log = open(self.folder / "server.log", "ab")  # noqa: SIM115 (the server's, kept open)
        self.process = subprocess.Popen(
            [postgres_bin() / "postgres", "-D", self.data], stdout=log,
            stderr=subprocess.STDOUT, preexec_fn=_die_with_parent, **_as_postgres())
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise ServerUnavailable(f"the server exited: {self.log_tail()}")
            try:
                if self.ready():
                    return
            except psycopg.OperationalError:
                pass
            if time.monotonic() > deadline:
                raise ServerUnavailable(f"the server did not start: {self.log_tail()}")
            time.sleep(0.1)

    def log_tail(self, lines: int = 15) -> str:
        path = self.folder / "server.log" if self.folder else None
        if path is None or not path.exists():
            return ""
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL to the server (its backends notice and exit)."""
        os.kill(self.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """A fast shutdown by its pid (SIGINT), SIGKILL if it lingers; the folder removed."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

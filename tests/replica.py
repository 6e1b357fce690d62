"""A real streaming replica of the machine's PostgreSQL, for the replica tests and
`bench/verify.py --replica`: `pg_basebackup -R` of the whole cluster into a temporary
folder, then a second server on a free port of 127.0.0.1, stopped by its pid.

PostgreSQL refuses to run as root: run as root, the backup and the server run as the
`postgres` OS user, who is given the folder. The primary must accept replication
connections from 127.0.0.1 (scripts/allow_replication.sh, which scripts/test.sh runs in CI).
"""

import ctypes
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

PR_SET_PDEATHSIG = 1
# Settings a hot standby needs at least as high as its primary's.
PRIMARY_MINIMUMS = ("max_connections", "max_prepared_transactions", "max_locks_per_transaction",
                    "max_wal_senders", "max_worker_processes")


class ReplicaUnavailable(Exception):
    """The replica could not be started (why, in the message)."""


def postgres_bin() -> Path:
    """The newest PostgreSQL's binaries (PG_BIN to choose)."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    if not found:
        raise ReplicaUnavailable("no PostgreSQL binaries under /usr/lib/postgresql/*/bin")
    return Path(found[-1])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_postgres() -> dict:
    """Popen's arguments that run a child as the `postgres` user when we are root."""
    if os.geteuid() != 0:
        return {}
    return {"user": "postgres", "group": "postgres", "extra_groups": []}


def _die_with_parent() -> None:
    """In the child: killed with the test process (a crashed run leaves no server)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass


class Replica:
    """A streaming replica of the PostgreSQL server at `host:port` (user `user`)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 5432, user: str = "postgres"):
        self.primary = {"host": host, "port": int(port), "user": user}
        self.port = free_port()
        self.folder: Path | None = None
        self.process: subprocess.Popen | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def url(self, database: str) -> str:
        return f"postgres://{self.primary['user']}@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "postgres", **kwargs) -> psycopg.Connection:
        return psycopg.connect(host="127.0.0.1", port=self.port, user=self.primary["user"],
                               dbname=database, autocommit=True, **kwargs)

    def sql(self, statement: str, params=None, database: str = "postgres"):
        with self.connect(database) as conn:
            return conn.execute(statement, params).fetchall()

    def start(self, timeout: float = 120, backup_timeout: float = 1200) -> "Replica":
        """Back up the primary's whole cluster (its size decides how long: minutes for tens
        of GB, hence `backup_timeout`), then start the server (within `timeout`)."""
        self.folder = Path(tempfile.mkdtemp(prefix="replica-"))
        if os.geteuid() == 0:
            postgres = pwd.getpwnam("postgres")
            os.chown(self.folder, postgres.pw_uid, postgres.pw_gid)
        data = self.folder / "data"
        minimums = self._primary_minimums()
        self._check_room()
        try:
            backup = subprocess.run(
                [postgres_bin() / "pg_basebackup", "-h", self.primary["host"],
                 "-p", str(self.primary["port"]), "-U", self.primary["user"], "-D", data,
                 "-R", "-X", "stream", "-c", "fast", "--no-sync"],
                capture_output=True, text=True, timeout=backup_timeout, **_as_postgres())
        except subprocess.TimeoutExpired:
            self.stop()
            raise ReplicaUnavailable(f"pg_basebackup took more than {backup_timeout:.0f} s "
                                     "(how large is the primary's cluster?)") from None
        if backup.returncode != 0:
            self.stop()
            raise ReplicaUnavailable(
                f"pg_basebackup failed: {backup.stderr.strip()} (does pg_hba.conf allow "
                "replication from 127.0.0.1? scripts/allow_replication.sh)")
        # The Debian layout keeps the configuration outside the data folder: write our own.
        settings = {"port": self.port, "listen_addresses": "'127.0.0.1'",
                    "unix_socket_directories": f"'{self.folder}'", "hot_standby": "on",
                    "fsync": "off", "shared_buffers": "'64MB'", **minimums}
        (data / "postgresql.conf").write_text(
            "".join(f"{name} = {value}\n" for name, value in settings.items()))
        (data / "pg_hba.conf").write_text("local all all trust\nhost all all 127.0.0.1/32 trust\n")
        (data / "pg_ident.conf").write_text("")
        self._launch(timeout)
        return self

    def _check_room(self) -> None:
        """The copy holds every database of the cluster plus the WAL written meanwhile:
        refuse to start one that could fill the disk (another checkout's bulk load on a
        shared machine once made it 27 GB)."""
        with psycopg.connect(dbname="postgres", autocommit=True, **self.primary) as conn:
            cluster = conn.execute("SELECT sum(pg_database_size(oid)) FROM pg_database"
                                   ).fetchone()[0]
        free = shutil.disk_usage(self.folder).free
        if free < 2 * cluster + 2 * 2**30:
            self.stop()
            raise ReplicaUnavailable(
                f"the cluster holds {cluster / 2**30:.1f} GB and {self.folder.parent} has "
                f"{free / 2**30:.1f} GB free: too little room for its copy (drop benchmark "
                "databases, or set TMPDIR to a larger disk)")

    def _primary_minimums(self) -> dict:
        with psycopg.connect(dbname="postgres", autocommit=True, **self.primary) as conn:
            return {name: conn.execute(f"SHOW {name}").fetchone()[0] for name in PRIMARY_MINIMUMS}

    def _launch(self, timeout: float) -> None:
        data = self.folder / "data"
        if os.geteuid() == 0:
            for path in [data, *data.rglob("*")]:
                shutil.chown(path, "postgres", "postgres")
        log = open(self.folder / "server.log", "ab")  # noqa: SIM115 (the server's, kept open)
        self.process = subprocess.Popen(
            [postgres_bin() / "postgres", "-D", data], stdout=log, stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent, **_as_postgres())
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise ReplicaUnavailable(f"the replica exited: {self.log_tail()}")
            try:
                if self.sql("SELECT pg_is_in_recovery()")[0][0]:
                    return
            except psycopg.OperationalError:
                pass
            if time.monotonic() > deadline:
                raise ReplicaUnavailable(f"the replica did not start: {self.log_tail()}")
            time.sleep(0.1)

    def log_tail(self, lines: int = 15) -> str:
        path = self.folder / "server.log" if self.folder else None
        if path is None or not path.exists():
            return ""
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    # What the tests do to it ---------------------------------------------------------------

    def pause_replay(self) -> None:
        self.sql("SELECT pg_wal_replay_pause()")

    def resume_replay(self) -> None:
        self.sql("SELECT pg_wal_replay_resume()")

    def catch_up(self, timeout: float = 30) -> None:
        """Wait until it has replayed everything the primary has flushed now."""
        with psycopg.connect(dbname="postgres", autocommit=True, **self.primary) as conn:
            target = conn.execute("SELECT pg_current_wal_flush_lsn()").fetchone()[0]
        deadline = time.monotonic() + timeout
        while not self.sql("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [str(target)])[0][0]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the replica did not reach {target}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL to the server (its backends notice and exit)."""
        os.kill(self.pid, signal.SIGKILL)
        self.process.wait()

    def restart(self, timeout: float = 60) -> None:
        """Start it again on its folder after kill(): crash recovery, then streaming. The
        killed server's backends may still be leaving: tried until they have."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._launch(timeout)
                return
            except ReplicaUnavailable:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

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

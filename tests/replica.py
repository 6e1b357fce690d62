"""A real streaming replica, for the replica tests and `bench/verify.py --replica`:
`pg_basebackup -R` of a primary into a temporary folder, then a second server on a free port
of 127.0.0.1 (tests/pg_server.py), stopped by its pid.

The primary is a private one (tests/private_primary.py): a base backup copies every database
of a cluster, so that of the machine's cluster would take as long as whatever else it holds
(tens of GB of benchmark databases, once).
"""

import time

import psycopg

from tests.pg_server import PgServer, ServerUnavailable, run

# Settings a hot standby needs at least as high as its primary's.
PRIMARY_MINIMUMS = ("max_connections", "max_prepared_transactions", "max_locks_per_transaction",
                    "max_wal_senders", "max_worker_processes")


class Replica(PgServer):
    """A hot standby streaming from the PostgreSQL server at `host:port` (user `user`)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 5432, user: str = "postgres",
                 **settings):
        super().__init__()
        self.primary = {"host": host, "port": int(port), "user": user}
        self.settings = {"shared_buffers": "'32MB'", **settings}

    def start(self, timeout: float = 120, backup_timeout: float = 300) -> "Replica":
        """Back up the primary (within `backup_timeout`), then start (within `timeout`)."""
        self.backup_timeout = backup_timeout
        return super().start(timeout)

    def make_data(self) -> None:
        with self._primary() as conn:
            minimums = {name: conn.execute(f"SHOW {name}").fetchone()[0]
                        for name in PRIMARY_MINIMUMS}
        try:
            run("pg_basebackup", "-h", self.primary["host"], "-p", str(self.primary["port"]),
                "-U", self.primary["user"], "-D", str(self.data), "-R", "-X", "stream",
                "-c", "fast", "--no-sync", timeout=self.backup_timeout)
        except ServerUnavailable as exc:
            raise ServerUnavailable(f"{exc} (is this a private primary, which allows "
                                    "replication from 127.0.0.1?)") from None
        # Our own configuration (the primary's was copied: its port, say).
        self.configure(**{"hot_standby": "on", **self.settings, **minimums})

    def ready(self) -> bool:
        return self.sql("SELECT pg_is_in_recovery()")[0][0]

    def _primary(self) -> psycopg.Connection:
        return psycopg.connect(dbname="postgres", autocommit=True, **self.primary)

    # What the tests do to it ---------------------------------------------------------------

    def pause_replay(self) -> None:
        self.sql("SELECT pg_wal_replay_pause()")

    def resume_replay(self) -> None:
        self.sql("SELECT pg_wal_replay_resume()")

    def catch_up(self, timeout: float = 30) -> None:
        """Wait until it has replayed everything the primary has flushed now."""
        with self._primary() as conn:
            target = conn.execute("SELECT pg_current_wal_flush_lsn()").fetchone()[0]
        deadline = time.monotonic() + timeout
        while not self.sql("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [str(target)])[0][0]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the replica did not reach {target}")
            time.sleep(0.05)

    def restart(self, timeout: float = 60) -> None:
        """Start it again on its folder after kill(): crash recovery, then streaming. The
        killed server's backends may still be leaving: tried until they have."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.launch(timeout)
                return
            except ServerUnavailable:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

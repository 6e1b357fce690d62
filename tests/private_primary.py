"""A small PostgreSQL cluster of our own to stream a replica from: `initdb` into a temporary
folder, trust authentication and replication allowed on 127.0.0.1, a free port. Its base
backup takes seconds whatever the machine's own cluster holds (that one is neither copied
nor reconfigured).

    .venv/bin/python -m tests.private_primary COMMAND ...

starts one, runs COMMAND with DATABASE_URL (and PRIVATE_PRIMARY_URL) pointing at its
database `registry`, stops it by its pid and exits with COMMAND's exit code. scripts/test.sh
runs the tests that need a replica (the `pg_replica` fixture) this way, in their own pass:
`python -m tests.private_primary .venv/bin/python -m pytest tests/core/test_read_replicas.py`.
"""

import os
import signal
import subprocess
import sys

from tests.pg_server import PgServer, ServerUnavailable, run

DATABASE = "registry"
# What the tests' pass is told: the primary whose replicas the `pg_replica` fixture makes.
ENVIRONMENT = "PRIVATE_PRIMARY_URL"


class PrivatePrimary(PgServer):
    """`settings` go to its postgresql.conf (a small cache unless told otherwise)."""

    def __init__(self, **settings):
        super().__init__()
        self.settings = {"shared_buffers": "'32MB'", **settings}

    def make_data(self) -> None:
        run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
            "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync", timeout=120)
        # wal_level `replica` and max_wal_senders 10 are PostgreSQL's defaults.
        self.configure(**self.settings)

    def create_database(self, name: str) -> str:
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)


def main(command: list[str]) -> int:
    if not command:
        print(__doc__, file=sys.stderr)
        return 2
    # A TERM (a CI run cancelled) stops the server as an interrupt does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    primary = PrivatePrimary()
    try:
        try:
            primary.start()
            url = primary.create_database(DATABASE)
        except ServerUnavailable as exc:
            print(f"The private PostgreSQL primary could not be started: {exc}",
                  file=sys.stderr)
            return 1
        print(f"==> Private PostgreSQL primary on 127.0.0.1:{primary.port} "
              f"(pid {primary.pid})", flush=True)
        env = {**os.environ, "DATABASE_URL": url, ENVIRONMENT: url}
        return subprocess.run(command, env=env).returncode
    finally:
        primary.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

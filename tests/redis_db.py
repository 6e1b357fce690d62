"""Which Redis database a test process uses, and its claim on it.

Each process of a test run (each pytest-xdist worker) takes a database of its own, counting
down from TEST_REDIS_URL's (gw0 that one, gw1 the one below, ...), since the Redis tests
flush theirs. Two checkouts testing on one machine at once, or a service using a database,
must not share one: the first worker to ask holds a connection to its database named for
its run (CLIENT SETNAME) for as long as the process lives, and a process that finds another
client on its database refuses to use it, naming that client, rather than flush its keys.
"""

import os
import socket
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import redis

CLIENT_PREFIX = "chain-registry-tests"
CHECKOUT = Path(__file__).resolve().parent.parent
_held: dict[str, redis.Redis] = {}  # url -> the claim's client, kept open


class RedisDatabaseTaken(Exception):
    """The database this process would use is not free; the message says what to do."""


ADVICE = ("Each test run takes TEST_REDIS_DB (default 15) and the TEST_WORKERS - 1 databases "
          "below it: give each checkout testing at once a range of its own, e.g. "
          "TEST_REDIS_DB=12 beside one on the default 15 with 2 workers.")


def worker_url(url: str, worker: int) -> str:
    """The database of worker `worker` (gw<n>): the URL's number minus `worker`."""
    parts = urlsplit(url)
    base = int(parts.path.lstrip("/") or 0)
    if base - worker < 0:
        raise RedisDatabaseTaken(
            f"TEST_REDIS_DB={base} leaves worker gw{worker} no database (they count down "
            f"from it, and stop at 0). {ADVICE}")
    return urlunsplit(parts._replace(path=f"/{base - worker}"))


def owner() -> str:
    """This process's name for its claim: the run's checkout and the process."""
    where = str(CHECKOUT).replace(" ", "_")
    return f"{CLIENT_PREFIX}:{socket.gethostname()}:{where}:{os.getpid()}"


def claim(url: str, name: str | None = None, held: dict | None = None) -> str:
    """Hold `url`'s database for this process (once; later calls return at once), or raise
    RedisDatabaseTaken naming the other clients connected to it. (`held`: the claims made,
    this process's by default.)"""
    held = _held if held is None else held
    if url in held:
        return url
    name = name or owner()
    client = redis.Redis.from_url(url, client_name=name, socket_timeout=5)
    database = client.connection_pool.connection_kwargs.get("db", 0)
    others = [c for c in client.client_list()
              if int(c.get("db", -1)) == database and c.get("name") != name]
    if others:
        client.close()
        named = ", ".join(f"{c.get('name') or 'a client without a name'} from {c.get('addr')}"
                          for c in others)
        raise RedisDatabaseTaken(
            f"Redis database {database} ({url}) is in use by {named}; these tests flush "
            f"their database, so they leave it alone. {ADVICE}")
    held[url] = client  # its connection stays open: others see the claim
    return url

"""One indexer per chain at a time, across processes: a PostgreSQL session-level advisory lock
(held outside any transaction, since chain calls happen between the range transactions), or a
cache entry on other databases (SQLite, the embedded single-process default)."""

import uuid
from contextlib import contextmanager

from django.core.cache import cache
from django.db import connection

# The two-key lock space (distinct from the one-key space the executor sweep uses).
LOCK_CLASS = 0x1DE7
CACHE_LOCK_SECONDS = 15 * 60  # a crashed process's cache lock expires


@contextmanager
def chain_lock(chain_id: int):
    """Yields whether this process now holds the chain's lock (False: someone else does)."""
    if connection.vendor == "postgresql":
        key = [LOCK_CLASS, chain_id & 0x7FFFFFFF]  # int4; distant chain ids may share a lock
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", key)
            held = cursor.fetchone()[0]
        try:
            yield held
        finally:
            if held:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)
        return
    name, token = f"indexer-lock:{chain_id}", uuid.uuid4().hex
    held = cache.add(name, token, CACHE_LOCK_SECONDS)
    try:
        yield held
    finally:
        if held and cache.get(name) == token:
            cache.delete(name)

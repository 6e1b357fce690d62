"""Tasks of the tests only (the worker imports them with --include): one logs, takes and
returns an RPC URL with a key, the way a careless task would; one tells which database
session it ran in."""

import logging

from celery import shared_task
from django.db import connection

logger = logging.getLogger(__name__)


@shared_task(name="tests.call_rpc")
def call_rpc(url: str) -> dict:
    logger.warning("Calling %s", url)
    return {"url": url}


@shared_task(name="tests.backend_pid")
def backend_pid() -> int:
    """The PostgreSQL backend (session) the task's queries ran in."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]

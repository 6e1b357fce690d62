"""A task of the tests only (the worker imports it with --include): it logs, takes and
returns an RPC URL with a key, the way a careless task would."""

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(name="tests.call_rpc")
def call_rpc(url: str) -> dict:
    logger.warning("Calling %s", url)
    return {"url": url}

# The compose workers' broker: the test Redis number, emptied (tests/celery/compose_workers.py).
from tests.celery.compose_workers import broker  # noqa: F401

# The real worker's fixtures (its own queue on the test Redis, started and stopped by pid).
from tests.executors.test_celery_worker import (  # noqa: F401
    broker_url,
    forget_results,
    queue,
    start_worker,
)

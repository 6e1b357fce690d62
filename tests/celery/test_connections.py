"""A worker's database connections live as the web's do: kept across tasks for
CONN_MAX_AGE (Celery's Django fix-up alone opens a new PostgreSQL session for every task,
which cost an index run more than its queries), health-checked before reuse, closed at once
when CONN_MAX_AGE is 0. A real `celery worker` on the real Redis broker."""

import pytest
from celery import Celery
from django.db import connection

from tests.executors.test_celery_worker import DEADLINE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'",
                       reason="the worker process needs the test database on a server"),
]


@pytest.fixture
def sessions(start_worker, broker_url, queue):
    """sessions(count, max_age): the backend pids of `count` tasks run one after the other
    by a worker whose DB_CONN_MAX_AGE is `max_age`; `sessions.between` runs between two."""
    client = Celery("test-client", broker=broker_url, backend=broker_url)

    def run(count: int, max_age: int, between=lambda pid: None) -> list[int]:
        start_worker(include=("tests.celery.tasks",), env={"DB_CONN_MAX_AGE": str(max_age)})
        pids = []
        for _ in range(count):
            if pids:
                between(pids[-1])
            result = client.send_task("tests.backend_pid", queue=queue, ignore_result=False)
            try:
                pids.append(result.get(timeout=DEADLINE))
            except Exception as exc:
                pytest.fail(f"no result ({exc!r}); worker log:\n{start_worker.log()}")
        return pids

    yield run
    client.close()


def test_a_worker_keeps_its_database_session_across_tasks(sessions):
    pids = sessions(3, max_age=60)

    assert len(set(pids)) == 1


def test_a_session_that_died_between_tasks_is_replaced_by_the_health_check(sessions):
    def kill(pid):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])

    first, second = sessions(2, max_age=60, between=kill)

    assert first != second


def test_conn_max_age_0_closes_the_session_after_each_task(sessions):
    pids = sessions(2, max_age=0)

    assert len(set(pids)) == 2

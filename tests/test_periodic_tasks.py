"""Periodic work (SPEC section 8): the default django-celery-beat schedules, which operators
change in the admin, and the in-process scheduler of the embedded default."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask, PeriodicTasks

from config.celery import app
from config.management.commands.run_scheduler import Command as Scheduler
from executors.models import ExecutorStatus
from ops.schedules import PERIODIC_TASKS
from tests.factories import ExecutorFactory

pytestmark = pytest.mark.django_db

EXPIRY = next(name for name, spec in PERIODIC_TASKS.items()
              if spec["task"] == "executors.expire_leases")
DEFAULT_EVERY = PERIODIC_TASKS[EXPIRY]["every"]


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=out)
    return out.getvalue()


def every(seconds: int) -> IntervalSchedule:
    return IntervalSchedule.objects.get_or_create(every=seconds, period=IntervalSchedule.SECONDS)[0]


def expiry_task() -> PeriodicTask:
    return PeriodicTask.objects.select_related("interval").get(name=EXPIRY)


@pytest.fixture
def no_tasks():
    """A database without the periodic tasks (the test database's `migrate` wrote them)."""
    PeriodicTask.objects.all().delete()


# migrate -----------------------------------------------------------------------------------


def test_migrate_writes_the_periodic_tasks_with_an_expiry_of_one_interval(no_tasks):
    call_command("migrate", verbosity=0)

    assert set(PeriodicTask.objects.values_list("name", flat=True)) == set(PERIODIC_TASKS)
    for task in PeriodicTask.objects.select_related("interval"):
        spec = PERIODIC_TASKS[task.name]
        assert (task.task, task.interval.every, task.enabled) == (spec["task"], spec["every"], True)
        # A run still queued when the next is due is dropped: no pile after an outage.
        assert task.expire_seconds == spec["every"]


def test_migrate_keeps_an_interval_and_enabled_flag_an_operator_changed():
    task = expiry_task()
    task.interval, task.enabled = every(45), False
    task.save()

    call_command("migrate", verbosity=0)

    task = expiry_task()
    assert (task.interval.every, task.enabled) == (45, False)
    assert PeriodicTask.objects.filter(name=EXPIRY).count() == 1


def test_migrate_gives_a_task_made_before_expiry_existed_an_expiry_of_its_own_interval():
    PeriodicTask.objects.filter(name=EXPIRY).update(expire_seconds=None, interval=every(45))

    call_command("migrate", verbosity=0)

    assert expiry_task().expire_seconds == 45


def test_migrate_moves_a_renamed_task_to_its_new_name_on_the_interval_an_operator_chose():
    # The workflow tracker was verification.track_workflows before the bindings app (issue 18).
    tracker = next(name for name, spec in PERIODIC_TASKS.items()
                   if spec["task"] == "bindings.track_workflows")
    PeriodicTask.objects.filter(name=tracker).update(task="verification.track_workflows",
                                                     interval=every(45), enabled=False)
    changed_before = PeriodicTasks.last_change()

    call_command("migrate", verbosity=0)

    task = PeriodicTask.objects.select_related("interval").get(name=tracker)
    assert (task.task, task.interval.every, task.enabled) == ("bindings.track_workflows", 45, False)
    assert PeriodicTask.objects.filter(name=tracker).count() == 1
    assert PeriodicTasks.last_change() != changed_before  # beat reloads its schedule


def test_a_database_without_the_schedules_is_not_ready(no_tasks, anon):
    # What the stack shipped before: migrate without the schedules, so beat had nothing.
    response = anon.get("/readyz")
    assert response.status_code == 503
    assert "No enabled periodic task" in response.json()["checks"]["schedules"]["detail"]
    call_command("migrate", verbosity=0)
    assert anon.get("/readyz").status_code == 200


# setup_periodic_tasks ----------------------------------------------------------------------


def test_setup_periodic_tasks_creates_each_default_task_once(no_tasks):
    first = run("setup_periodic_tasks")
    second = run("setup_periodic_tasks")

    assert f"created  {EXPIRY}: executors.expire_leases every {DEFAULT_EVERY}s" in first
    assert f"kept     {EXPIRY}" in second
    assert PeriodicTask.objects.filter(task="executors.expire_leases").count() == 1
    task = expiry_task()
    assert (task.interval.every, task.interval.period) == (DEFAULT_EVERY, "seconds")
    assert task.enabled
    assert PeriodicTask.objects.count() == len(PERIODIC_TASKS)


def test_setup_periodic_tasks_keeps_the_interval_an_operator_changed():
    run("setup_periodic_tasks")
    task = expiry_task()
    task.interval = every(45)  # what an operator does in the admin
    task.save()

    out = run("setup_periodic_tasks")

    assert "kept" in out and "every 45 seconds" in out
    assert expiry_task().interval.every == 45


def test_setup_periodic_tasks_reset_restores_the_default_and_enables_it():
    run("setup_periodic_tasks")
    task = expiry_task()
    task.interval, task.enabled = every(45), False
    task.save()

    out = run("setup_periodic_tasks", "--reset")

    assert f"reset    {EXPIRY}: executors.expire_leases every {DEFAULT_EVERY}s" in out
    task = expiry_task()
    assert (task.interval.every, task.enabled) == (DEFAULT_EVERY, True)
    assert task.expire_seconds == DEFAULT_EVERY


def test_setup_periodic_tasks_copes_with_twin_intervals_made_in_the_admin(no_tasks):
    IntervalSchedule.objects.create(every=DEFAULT_EVERY, period=IntervalSchedule.SECONDS)
    IntervalSchedule.objects.create(every=DEFAULT_EVERY, period=IntervalSchedule.SECONDS)

    assert "created" in run("setup_periodic_tasks")
    assert "reset" in run("setup_periodic_tasks", "--reset")
    assert expiry_task().interval.every == DEFAULT_EVERY


# run_scheduler ------------------------------------------------------------------------------


def lapsed_executor():
    return ExecutorFactory(lease_expires_at=timezone.now() - timedelta(seconds=1))


def status_of(executor) -> str:
    executor.refresh_from_db()
    return executor.status


def test_run_scheduler_once_runs_a_due_task():
    run("setup_periodic_tasks")
    executor = lapsed_executor()

    out = run("run_scheduler", "--once")

    assert f"{EXPIRY}: {{'stale': 1, 'offline': 0, 'heldBack': {{}}}}" in out
    assert status_of(executor) == ExecutorStatus.STALE
    task = expiry_task()
    assert task.total_run_count == 1
    assert timezone.now() - task.last_run_at < timedelta(seconds=10)


def test_run_scheduler_once_skips_a_task_that_is_not_due_yet():
    run("setup_periodic_tasks")
    just_now = timezone.now() - timedelta(seconds=1)
    PeriodicTask.objects.filter(name=EXPIRY).update(last_run_at=just_now)
    executor = lapsed_executor()

    out = run("run_scheduler", "--once")

    assert EXPIRY not in out  # (other tasks, due, may have run)
    assert status_of(executor) == ExecutorStatus.HEALTHY
    assert expiry_task().total_run_count == 0


def test_run_scheduler_once_runs_a_task_again_once_its_interval_has_passed():
    run("setup_periodic_tasks")
    PeriodicTask.objects.filter(name=EXPIRY).update(
        last_run_at=timezone.now() - timedelta(seconds=DEFAULT_EVERY))
    executor = lapsed_executor()

    run("run_scheduler", "--once")

    assert status_of(executor) == ExecutorStatus.STALE


def test_run_scheduler_skips_disabled_tasks():
    run("setup_periodic_tasks")
    PeriodicTask.objects.filter(name=EXPIRY).update(enabled=False)
    executor = lapsed_executor()

    assert EXPIRY not in run("run_scheduler", "--once")
    assert status_of(executor) == ExecutorStatus.HEALTHY


def test_run_scheduler_names_a_task_it_does_not_know():
    PeriodicTask.objects.create(name="Typo", task="executors.no_such_task", interval=every(10))

    assert "Typo: no task named executors.no_such_task" in run("run_scheduler", "--once")


FLAKY_FAILURES = []  # how many more runs of tests.flaky fail


@app.task(name="tests.flaky")
def flaky():
    """A periodic task that fails while FLAKY_FAILURES has entries (one per run)."""
    if FLAKY_FAILURES:
        FLAKY_FAILURES.pop()
        raise OperationalError("database is locked")
    return "done"


def test_run_scheduler_logs_a_failed_run_tries_it_again_later_and_goes_on(no_tasks, caplog):
    run("setup_periodic_tasks")
    PeriodicTask.objects.exclude(name=EXPIRY).delete()
    PeriodicTask.objects.create(name="Flaky", task="tests.flaky", interval=every(60))
    FLAKY_FAILURES[:] = [1, 1]
    executor = lapsed_executor()
    scheduler, now = Scheduler(stdout=StringIO(), stderr=StringIO()), timezone.now()

    scheduler.run_due(now)  # fails; the other task runs all the same

    assert "Flaky failed (1 in a row: OperationalError('database is locked')); trying again " \
        "in 2 s" in caplog.text
    assert "Traceback" in caplog.text
    assert status_of(executor) == ExecutorStatus.STALE
    flaky_task = PeriodicTask.objects.get(name="Flaky")
    assert (flaky_task.last_run_at, flaky_task.total_run_count) == (None, 0)  # not run

    scheduler.run_due(now + timedelta(seconds=1))  # not yet
    assert len(FLAKY_FAILURES) == 1
    scheduler.run_due(now + timedelta(seconds=2))  # again: fails, waits twice as long
    assert "Flaky failed (2 in a row" in caplog.text and "trying again in 4 s" in caplog.text
    scheduler.run_due(now + timedelta(seconds=5))
    assert len(FLAKY_FAILURES) == 0
    scheduler.run_due(now + timedelta(seconds=6))  # succeeds: recorded as run

    assert PeriodicTask.objects.get(name="Flaky").total_run_count == 1
    assert "Flaky: done" in scheduler.stdout._out.getvalue()
    assert scheduler.failures == {}


def test_a_failing_run_is_tried_again_at_the_latest_after_its_interval(no_tasks):
    PeriodicTask.objects.create(name="Flaky", task="tests.flaky", interval=every(3))
    FLAKY_FAILURES[:] = [1] * 5
    scheduler, now = Scheduler(stdout=StringIO(), stderr=StringIO()), timezone.now()

    for second in (0, 2, 6):  # retries after 2 s, then 4 s cut to the interval of 3 s
        scheduler.run_due(now + timedelta(seconds=second))
    assert len(FLAKY_FAILURES) == 5 - 3
    scheduler.run_due(now + timedelta(seconds=8))  # 6 + 3 not reached
    assert len(FLAKY_FAILURES) == 2


# check_beat (compose's health check of beat) ------------------------------------------------


def test_check_beat_fails_while_a_task_has_never_run_and_passes_once_they_ran():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=EXPIRY):
        run("check_beat")
    run("run_scheduler", "--once")  # runs every due task, as beat's first tick does
    assert '"status": "ok"' in run("check_beat")

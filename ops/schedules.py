"""The periodic tasks (Celery beat) and their default intervals in seconds.

`ensure_periodic_tasks` writes them into django-celery-beat's tables, where operators
change them in the Django admin; later runs keep what operators changed. It runs after every
`manage.py migrate` (a post_migrate receiver, config/apps.py), so no deployment lacks them;
`manage.py setup_periodic_tasks [--reset]` runs it by hand.
"""

from django.db import transaction
from django.utils import timezone

PERIODIC_TASKS = {
    "Expire executor leases": {"task": "executors.expire_leases", "every": 10},
    # Each endpoint has its own interval (monitoring.intervalSeconds); this is how often
    # the task looks for endpoints that are due, and queues one probe task per chain.
    "Probe RPC endpoints": {"task": "registry.probe_rpcs", "every": 5},
    # One index task per chain, each read up to its head. `manage.py follow_chains` queues
    # them on every new block; this is the safety net for when it is down or a head was
    # missed, so it bounds how stale a chain can get then, and costs a run per chain that
    # mostly finds nothing new.
    "Index chains": {"task": "attestations.index_chains", "every": 15},
    # Expiry and abandoned jobs (minutes-long deadlines), then one task per chain for the
    # receipts of submitted workflows, which the follower also queues after each index run.
    "Track workflows": {"task": "bindings.track_workflows", "every": 15},
    # Webhook deliveries that are due and that no worker holds: retries, lost messages,
    # runs of killed workers (their claims ran out).
    "Sweep webhooks": {"task": "webhooks.sweep", "every": 10},
    # Each issuer is checked IDENTITY_CHECK_INTERVAL_SECONDS after its last check (6 h by
    # default); this is how often the task looks for issuers that are due.
    "Check issuers' identity": {"task": "issuers.check_issuers", "every": 600},
}


def ensure_periodic_tasks(reset: bool = False, using: str = "default") -> list[str]:
    """Create the default periodic tasks that are missing; with `reset`, restore the default
    task, interval and enabled flag of those that exist; without, keep what operators changed
    but the task's name, which follows the code. Returns one line per task.

    Each task's messages expire after its interval (`expire_seconds`): a run still queued
    when the next one is due is dropped, so an outage of the workers leaves no pile of stale
    runs behind. An operator who changes the interval in the admin sets the expiry there too.
    """
    with transaction.atomic(using=using):
        return [_ensure(name, spec, reset, using) for name, spec in PERIODIC_TASKS.items()]


def _ensure(name: str, spec: dict, reset: bool, using: str) -> str:
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    # Not get_or_create: nothing makes intervals unique, and the admin can add twins.
    intervals = IntervalSchedule.objects.using(using)
    interval = intervals.filter(every=spec["every"], period=IntervalSchedule.SECONDS).order_by(
        "pk").first() or intervals.create(every=spec["every"], period=IntervalSchedule.SECONDS)
    # start_time: django-celery-beat runs a new task at beat's first tick then, not one
    # interval after it was written (six hours' worth of never-run for the slow ones).
    task, created = PeriodicTask.objects.using(using).get_or_create(
        name=name, defaults={"task": spec["task"], "interval": interval,
                             "expire_seconds": spec["every"], "start_time": timezone.now()})
    if created:
        return f"created  {name}: {spec['task']} every {spec['every']}s"
    if reset:
        task.task, task.interval, task.enabled = spec["task"], interval, True
        task.expire_seconds = spec["every"]
        task.crontab = task.solar = task.clocked = None
        task.save(using=using)
        return f"reset    {name}: {spec['task']} every {spec['every']}s"
    renamed = ""
    if task.task != spec["task"]:
        # The code renamed the task (verification.track_workflows became
        # bindings.track_workflows): the row follows, on the schedule operators gave it.
        renamed, task.task = f" (was {task.task})", spec["task"]
        task.save(update_fields=["task"], using=using)
    if task.expire_seconds is None and task.interval is not None:
        # Made before messages expired (an upgrade): after its own interval, as operators
        # set it.
        task.expire_seconds = int(task.interval.schedule.run_every.total_seconds())
        task.save(update_fields=["expire_seconds"], using=using)
    # The schedule model reads as "every 45 seconds" (Celery's repr does not).
    state = "" if task.enabled else ", disabled"
    return f"kept     {name}: {task.task}{renamed} ({task.scheduler}{state})"


def ensure_after_migrate(sender, using: str = "default", **kwargs) -> None:
    """post_migrate receiver (sent once per migrate for django_celery_beat, whose tables
    exist by then): `manage.py migrate`, which every deployment runs, leaves the schedules
    in place."""
    ensure_periodic_tasks(using=using)

from django.core.management.base import BaseCommand
from django.db import transaction
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from config.schedules import PERIODIC_TASKS


class Command(BaseCommand):
    help = ("Create the default periodic tasks (Celery beat, django-celery-beat). Idempotent: "
            "tasks that exist keep their schedule unless --reset.")

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true",
                            help="Restore the default interval and enable every task.")

    @transaction.atomic
    def handle(self, *args, reset: bool, **options):
        for name, spec in PERIODIC_TASKS.items():
            # Not get_or_create: nothing makes intervals unique, and the admin can add twins.
            interval = IntervalSchedule.objects.filter(
                every=spec["every"], period=IntervalSchedule.SECONDS
            ).order_by("pk").first() or IntervalSchedule.objects.create(
                every=spec["every"], period=IntervalSchedule.SECONDS
            )
            task, created = PeriodicTask.objects.get_or_create(
                name=name, defaults={"task": spec["task"], "interval": interval}
            )
            if created:
                self.stdout.write(f"created  {name}: {spec['task']} every {spec['every']}s")
            elif reset:
                task.task, task.interval, task.enabled = spec["task"], interval, True
                task.crontab = task.solar = task.clocked = None
                task.save()
                self.stdout.write(f"reset    {name}: {spec['task']} every {spec['every']}s")
            else:
                # The schedule model reads as "every 45 seconds" (Celery's repr does not).
                state = "" if task.enabled else ", disabled"
                self.stdout.write(f"kept     {name}: {task.task} ({task.scheduler}{state})")

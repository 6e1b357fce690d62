from django.core.management.base import BaseCommand

from ops.schedules import ensure_periodic_tasks


class Command(BaseCommand):
    help = ("Create the default periodic tasks (Celery beat, django-celery-beat). Idempotent: "
            "tasks that exist keep their schedule unless --reset. `migrate` runs it too.")

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true",
                            help="Restore the default interval and enable every task.")

    def handle(self, *args, reset: bool, **options):
        for line in ensure_periodic_tasks(reset=reset):
            self.stdout.write(line)

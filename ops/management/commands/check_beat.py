import json

from django.core.management.base import BaseCommand, CommandError

from ops.health import check_schedules


class Command(BaseCommand):
    help = ("Health check of Celery beat (compose's `beat` service): exit 1 unless every "
            "enabled periodic task ran within 3 of its intervals (a task never run counts "
            "as late: the check's start period covers beat's first tick).")

    def handle(self, *args, **options):
        result = check_schedules(never_run_is_late=True)
        if result["status"] != "ok":
            raise CommandError(json.dumps(result))
        self.stdout.write(json.dumps(result))

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from registry.models import ApiKey, KeyScope


class Command(BaseCommand):
    help = "Create an API key and print it (the key alone, on the last line). It is shown only once."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="What the key is for, e.g. 'billing-service'.")
        parser.add_argument("--scope", required=True, choices=KeyScope.values,
                            help="What the key may do: admin (everything), api (the read and "
                            "verify endpoints, workflows), executor (register, heartbeat, jobs).")
        parser.add_argument("--expires-in-days", type=int, help="Expire the key after this many days.")

    def handle(self, *args, name, scope, expires_in_days, **options):
        name = name.strip()
        if not name:
            raise CommandError("--name must not be empty.")
        # Checked here: the database would refuse it with a traceback instead of a message.
        max_length = ApiKey._meta.get_field("name").max_length
        if len(name) > max_length:
            raise CommandError(f"--name must be at most {max_length} characters.")
        expires_at = None
        if expires_in_days is not None:
            if expires_in_days <= 0:
                raise CommandError("--expires-in-days must be a positive number of days.")
            expires_at = timezone.now() + timedelta(days=expires_in_days)
        key, raw_key = ApiKey.issue(name=name, scope=scope, expires_at=expires_at)
        self.stderr.write(f"Created {scope} key {key.display_prefix} ({key.name}). Store it now: "
                          "it cannot be shown again.")
        self.stdout.write(raw_key)

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from registry.models import ApiKey, KeyScope

# How the README runs the commands of a checkout (scripts/run.sh calls this one).
MANAGE = ".venv/bin/python manage.py"


class Command(BaseCommand):
    help = (
        "First-run set-up of a local instance: a Django admin user and one key of each scope, "
        "printed once. Does nothing when keys already exist."
    )

    def add_arguments(self, parser):
        parser.add_argument("--base-url", default="http://127.0.0.1:8000",
                            help="Where the service answers, for the printed examples "
                            "(default: http://127.0.0.1:8000).")

    def handle(self, *args, base_url, **options):
        if ApiKey.objects.exists():
            self.stdout.write(
                "Demo keys were created on the first run (they are shown only once). Make "
                f"more with: {MANAGE} create_api_key --name NAME --scope admin|api|executor\n"
                f"A Django admin login ({base_url}/admin/): {MANAGE} createsuperuser, or "
                f"{MANAGE} changepassword admin for the demo's user.")
            return
        keys = {scope: ApiKey.issue(name=f"demo-{scope}", scope=scope)[1] for scope in KeyScope.values}
        lines = [
            "",
            "First run: demo credentials, shown this once (only their hashes are stored).",
            f"  admin key    (Authorization: Bearer ...): {keys[KeyScope.ADMIN]}",
            f"  api key      (X-API-Key: ...):            {keys[KeyScope.API]}",
            f"  executor key (X-API-Key: ...):            {keys[KeyScope.EXECUTOR]}",
        ]
        User = get_user_model()
        if not User.objects.filter(is_superuser=True).exists():
            password = secrets.token_urlsafe(12)
            User.objects.create_superuser("admin", password=password)
            lines.append(f"  Django admin {base_url}/admin/  user: admin  password: {password}")
        lines += [
            f"  API docs     {base_url}/v1/docs",
            f"  Try: curl -H 'Authorization: Bearer {keys[KeyScope.ADMIN]}' {base_url}/v1/admin/chains",
            "",
        ]
        self.stdout.write("\n".join(lines))

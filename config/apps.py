import sys

from django.apps import AppConfig

PYTHON_DEFAULT_RECURSION_LIMIT = 1000


class ProjectConfig(AppConfig):
    """The project's own wiring, an app for its management commands and start-up."""

    name = "config"
    verbose_name = "Project"

    def ready(self):
        # py_ecc (imported by web3 through eth_account) raises the recursion limit to
        # 100,000 for BLS code we never run. On CPython 3.11 deep recursion in C - json of
        # a hostile request body or RPC answer - then overflows the stack and kills the
        # process instead of raising RecursionError. Import it once now, and restore.
        import py_ecc  # noqa: F401

        sys.setrecursionlimit(PYTHON_DEFAULT_RECURSION_LIMIT)

        # Every `migrate` (compose's one-shot `migrate` service, scripts/run.sh, the test
        # database) leaves the periodic tasks in place: sent once, for django_celery_beat.
        from django.apps import apps
        from django.db.models.signals import post_migrate

        from ops.schedules import ensure_after_migrate

        post_migrate.connect(ensure_after_migrate,
                             sender=apps.get_app_config("django_celery_beat"),
                             dispatch_uid="config.ensure_periodic_tasks")

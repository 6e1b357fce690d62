from django.apps import AppConfig


class ExecutorsConfig(AppConfig):
    name = "executors"
    default_auto_field = "django.db.models.BigAutoField"

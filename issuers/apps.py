from django.apps import AppConfig


class IssuersConfig(AppConfig):
    name = "issuers"
    default_auto_field = "django.db.models.BigAutoField"

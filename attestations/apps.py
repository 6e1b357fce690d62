from django.apps import AppConfig


class AttestationsConfig(AppConfig):
    name = "attestations"
    default_auto_field = "django.db.models.BigAutoField"

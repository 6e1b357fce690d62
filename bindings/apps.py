from django.apps import AppConfig


class BindingsConfig(AppConfig):
    """Binding documents: workflows from the request to the confirmed attestation, and the
    executor jobs that carry them out."""

    name = "bindings"
    default_auto_field = "django.db.models.BigAutoField"

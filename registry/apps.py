from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "registry"
    verbose_name = "Chain registry"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # drf-spectacular finds the OpenAPI extensions of our authentication classes on import.
        from registry import authentication  # noqa: F401

from django.apps import AppConfig


class ExecutorsConfig(AppConfig):
    name = "executors"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from executors.trust import end_trust_of_keys
        from registry import holdings

        holdings.on_key_ended(end_trust_of_keys)

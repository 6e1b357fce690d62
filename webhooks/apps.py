from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Signed webhooks: subscriptions, watches, and the outbox of events delivered to them."""

    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from core import events
        from webhooks.outbox import record_event

        events.listen(record_event)

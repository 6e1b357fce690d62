from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Signed webhooks: subscriptions, watches, and the outbox of events delivered to them."""

    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from core import events
        from registry import holdings
        from webhooks.outbox import record_event
        from webhooks.services import subscriptions_end_for_keys

        events.listen(record_event)
        holdings.on_key_ended(subscriptions_end_for_keys)

from django.contrib import admin, messages

from core.admin_forms import URLS_AS_TEXT, ApiRulesForm
from registry.authentication import KeyHolder
from registry.models import KeyScope
from webhooks import routing, services
from webhooks.models import Delivery, DeliveryAttempt, Subscription, Watch
from webhooks.serializers import SubscriptionSerializer, WatchSerializer


class SubscriptionForm(ApiRulesForm):
    """The API's rules (core/admin_forms.py), for the key that owns the subscription: event
    types for admin keys only where its owner is not one."""

    serializer_class = SubscriptionSerializer

    def wire_data(self, candidate, names):
        data = super().wire_data(candidate, names)
        if "document_hash" in data:
            data["document_hash"] = data["document_hash"] or None  # blank: no filter, null
        return data

    def check(self, validated, candidate):
        owner = KeyHolder(KeyScope.ADMIN if candidate.owner_is_admin else KeyScope.API,
                          name="", prefix=candidate.owner)
        services.check_subscription(holder=owner, url=candidate.url,
                                    event_types=candidate.event_types)


class WatchForm(ApiRulesForm):
    serializer_class = WatchSerializer

    def serializer_context(self):
        return {"owner": getattr(self, "cleaned_data", {}).get("owner", self.instance.owner)}


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    """Subscriptions are edited here as through the API; a disabled one shows why. The secret
    is never shown: the owner rotates it through the API."""

    form = SubscriptionForm
    formfield_overrides = URLS_AS_TEXT
    list_display = ["url", "owner", "enabled", "disabled_at", "created_at"]
    list_filter = ["enabled", "owner_is_admin"]
    search_fields = ["id", "url", "owner", "description"]
    readonly_fields = ["id", "owner", "owner_is_admin", "disabled_at", "disabled_reason",
                       "previous_secret_expires_at", "created_at", "updated_at"]
    fields = ["id", "owner", "owner_is_admin", "url", "event_types", "chain_id", "workflow_id",
              "document_hash", "description", "enabled", "disabled_at", "disabled_reason",
              "previous_secret_expires_at", "created_at", "updated_at"]

    def has_add_permission(self, request):
        return False  # the secret is shown to the key that creates it, through the API

    def save_model(self, request, obj, form, change):
        if obj.enabled and "enabled" in form.changed_data:
            obj.disabled_at, obj.disabled_reason = None, ""
        super().save_model(request, obj, form, change)
        routing.forget()


class DeliveryAttemptInline(admin.TabularInline):
    model = DeliveryAttempt
    extra = 0
    can_delete = False
    readonly_fields = ["attempted_at", "status_code", "latency_ms", "ok", "error",
                       "response_excerpt"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    """Deliveries and their attempts, read-only; "Redeliver" sends the chosen ones again."""

    list_display = ["id", "event", "subscription", "state", "attempts", "last_status_code",
                    "next_attempt_at", "delivered_at"]
    list_filter = ["state", "event__type"]
    search_fields = ["id", "subscription__url", "subscription__id"]
    list_select_related = ["event", "subscription"]
    inlines = [DeliveryAttemptInline]
    actions = ["redeliver"]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Delivery._meta.fields]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Redeliver the selected deliveries")
    def redeliver(self, request, queryset):
        sent = 0
        for delivery in queryset.select_related("subscription"):
            if delivery.subscription.enabled:
                services.delivery_redeliver(delivery)
                sent += 1
        skipped = queryset.count() - sent
        self.message_user(request, f"{sent} queued again"
                          + (f"; {skipped} of disabled subscriptions left" if skipped else ""),
                          messages.SUCCESS if not skipped else messages.WARNING)


@admin.register(Watch)
class WatchAdmin(admin.ModelAdmin):
    form = WatchForm
    list_display = ["document_hash", "owner", "created_at"]
    search_fields = ["document_hash", "owner"]



from django.contrib import admin
from django.utils import timezone
from django.utils.timesince import timesince

from executors.models import Executor, ExecutorStatusChange, SelfPreservation, TrustedAttester
from executors.services import executor_deregister, executor_set_trust


class StatusChangeInline(admin.TabularInline):
    model = ExecutorStatusChange
    fields = ["created_at", "from_status", "to_status", "cause"]
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    ordering = ["-created_at", "-id"]

    def get_queryset(self, request):
        return super().get_queryset(request).order_by("-created_at", "-id")


class TrustFilter(admin.SimpleListFilter):
    title = "trust"
    parameter_name = "trusted"

    def lookups(self, request, model_admin):
        return [("yes", "Trusted"), ("no", "Trust revoked")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(trust_revoked_at__isnull=self.value() == "yes")
        return queryset


@admin.register(Executor)
class ExecutorAdmin(admin.ModelAdmin):
    list_display = ["__str__", "chain", "address", "status_now", "heartbeat_age", "lease_expires_at",
                    "trusted", "version"]
    list_filter = ["status", TrustFilter, "chain"]
    search_fields = ["address", "name", "=id"]
    list_select_related = ["chain"]
    readonly_fields = [
        "id", "chain", "address", "registered_by", "status", "status_changed_at", "registered_at",
        "last_heartbeat_at", "lease_expires_at", "pending_jobs", "head_block", "trust_revoked_at",
    ]
    fields = [*readonly_fields[:3], "name", "endpoint_url", "version", "capabilities", "metadata",
              *readonly_fields[3:]]
    inlines = [StatusChangeInline]
    actions = ["revoke_trust", "restore_trust", "deregister"]

    def has_add_permission(self, request):
        return False  # executors register themselves through the API

    @admin.display(description="status")
    def status_now(self, executor):
        return executor.current_status()

    @admin.display(description="last heartbeat", ordering="last_heartbeat_at")
    def heartbeat_age(self, executor):
        if executor.last_heartbeat_at is None:
            return "never"
        return f"{timesince(executor.last_heartbeat_at, timezone.now())} ago"

    @admin.display(boolean=True)
    def trusted(self, executor):
        return executor.is_trusted

    @admin.action(description="Revoke trust (their attestations stop verifying)")
    def revoke_trust(self, request, queryset):
        for executor in queryset:
            executor_set_trust(executor.pk, trusted=False)
        self.message_user(request, f"Revoked the trust of {queryset.count()} executor(s).")

    @admin.action(description="Restore trust")
    def restore_trust(self, request, queryset):
        for executor in queryset:
            executor_set_trust(executor.pk, trusted=True)
        self.message_user(request, f"Restored the trust of {queryset.count()} executor(s).")

    @admin.action(description="Deregister (take out of service; trust is kept)")
    def deregister(self, request, queryset):
        for executor in queryset:
            executor_deregister(executor.pk)
        self.message_user(request, f"Deregistered {queryset.count()} executor(s).")


@admin.register(TrustedAttester)
class TrustedAttesterAdmin(admin.ModelAdmin):
    list_display = ["address", "chain", "note", "added_by", "created_at"]
    list_filter = ["chain"]
    search_fields = ["address", "note"]
    readonly_fields = ["added_by", "created_at"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.added_by = f"user:{request.user.get_username()}"
        super().save_model(request, obj, form, change)


@admin.register(SelfPreservation)
class SelfPreservationAdmin(admin.ModelAdmin):
    list_display = ["chain", "since", "would_go_offline", "executors", "checked_at"]
    readonly_fields = ["chain", "since", "would_go_offline", "executors", "checked_at"]

    def has_add_permission(self, request):
        return False  # the sweep sets and clears holds

    def has_change_permission(self, request, obj=None):
        return False

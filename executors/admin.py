from django.contrib import admin
from django.utils import timezone
from django.utils.timesince import timesince

from core.admin_forms import ApiRulesForm
from executors.models import (
    Executor,
    ExecutorStatus,
    ExecutorStatusChange,
    SelfPreservation,
    TrustedAttester,
)
from executors.serializers import TrustedAttesterSerializer


class StatusChangeInline(admin.TabularInline):
    model = ExecutorStatusChange
    fields = ["created_at", "from_status", "to_status", "cause"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["-created_at", "-id"]

    def has_add_permission(self, request, obj=None):
        return False  # history is recorded by the service, never typed in


class StatusFilter(admin.SimpleListFilter):
    """By the status shown in the list, which a lapsed lease makes stale before the sweep."""

    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return ExecutorStatus.choices

    def queryset(self, request, queryset):
        if self.value() in ExecutorStatus.values:
            return queryset.showing(self.value())
        return queryset


class TrustFilter(admin.SimpleListFilter):
    title = "trust"
    parameter_name = "trusted"

    def lookups(self, request, model_admin):
        return [("yes", "Trusted"), ("no", "Not trusted"), ("pending", "Waiting for approval")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(trust_revoked_at__isnull=self.value() == "yes")
        if self.value() == "pending":
            return queryset.filter(trust_revoked_at__isnull=False, trusted_at__isnull=True)
        return queryset


@admin.register(Executor)
class ExecutorAdmin(admin.ModelAdmin):
    list_display = ["__str__", "chain", "address", "status_now", "heartbeat_age", "lease_expires_at",
                    "trust", "version"]
    list_filter = [StatusFilter, TrustFilter, ("chain", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["address", "name", "=id"]
    list_select_related = ["chain"]
    # All read-only: the executor writes its details at each registration (validated by the
    # API, its endpoint URL shown masked); an administrator acts through the actions.
    fields = [
        "id", "chain", "address", "name", "masked_endpoint_url", "version", "capabilities",
        "metadata", "registered_by", "status", "status_changed_at", "registered_at",
        "last_heartbeat_at", "lease_expires_at", "pending_jobs", "head_block", "balance_wei",
        "trust", "trust_basis", "trusted_at", "trust_revoked_at", "trust_changed_by",
        "trust_reason",
    ]
    readonly_fields = fields
    inlines = [StatusChangeInline]
    actions = ["approve", "revoke_trust", "deregister"]

    def has_add_permission(self, request):
        return False  # executors register themselves through the API

    @admin.display(description="status")
    def status_now(self, executor):
        return executor.current_status()

    @admin.display(description="endpoint url")
    def masked_endpoint_url(self, executor):
        return executor.masked_endpoint_url

    @admin.display(description="last heartbeat", ordering="last_heartbeat_at")
    def heartbeat_age(self, executor):
        if executor.last_heartbeat_at is None:
            return "never"
        seconds = int((timezone.now() - executor.last_heartbeat_at).total_seconds())
        if seconds < 60:  # leases last seconds: timesince() would say "0 minutes"
            return f"{max(seconds, 0)} s ago"
        return f"{timesince(executor.last_heartbeat_at, timezone.now())} ago"

    @admin.display(boolean=True)
    def trusted(self, executor):
        return executor.is_trusted

    @admin.display(description="trust")
    def trust(self, executor):
        return executor.trust

    # Each action needs the change permission: a view-only user sees the list, not the levers.
    # (count() after the loop reads the loop's result cache: the list's filter, status or
    # trust, is not run again on the rows just changed.)

    @admin.action(description="Approve: trust them (their attestations verify)",
                  permissions=["change"])
    def approve(self, request, queryset):
        for executor in queryset:
            Executor.set_trust(executor.pk, trusted=True, by=_user(request))
        self.message_user(request, f"Approved {queryset.count()} executor(s): trusted.")

    @admin.action(description="Revoke trust (their attestations stop verifying)",
                  permissions=["change"])
    def revoke_trust(self, request, queryset):
        for executor in queryset:
            Executor.set_trust(executor.pk, trusted=False, by=_user(request))
        self.message_user(request, f"Revoked the trust of {queryset.count()} executor(s).")

    @admin.action(description="Deregister (take out of service; trust is kept)",
                  permissions=["change"])
    def deregister(self, request, queryset):
        for executor in queryset:
            Executor.deregister(executor.pk)
        self.message_user(request, f"Deregistered {queryset.count()} executor(s).")


def _user(request) -> str:
    return f"user:{request.user.get_username()}"


class TrustedAttesterForm(ApiRulesForm):
    """Refuses what the API refuses, with its messages (core/admin_forms.py)."""

    serializer_class = TrustedAttesterSerializer


@admin.register(TrustedAttester)
class TrustedAttesterAdmin(admin.ModelAdmin):
    form = TrustedAttesterForm
    list_display = ["address", "chain", "note", "added_by", "proven_at", "created_at"]
    list_filter = [("chain", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["address", "note"]
    readonly_fields = ["added_by", "proven_at", "created_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:  # as in the API: chain and address never change once added
            return ["chain", "address", *self.readonly_fields]
        return self.readonly_fields

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

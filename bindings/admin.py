from django.contrib import admin

from bindings.models import Workflow, WorkflowTransition


class WorkflowTransitionInline(admin.TabularInline):
    model = WorkflowTransition
    extra = 0
    can_delete = False
    readonly_fields = ["from_state", "to_state", "cause", "created_at"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Workflow)
class WorkflowAdmin(admin.ModelAdmin):
    """Workflows are read here; they change only through the state machine (the API and
    the tracking task), so that every change is a recorded transition."""

    list_display = ["id", "chain", "document_hash", "state", "attempts", "executor", "created_at"]
    list_filter = ["state", "chain"]
    search_fields = ["id", "document_hash", "tx_hash", "attestation_uid"]
    inlines = [WorkflowTransitionInline]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Workflow._meta.fields]

    def has_add_permission(self, request):
        return False

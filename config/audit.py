"""The audit trail (django-auditlog): who changed what, when, through the admin API or the
Django admin. Every audited model is registered here, in one place.

Who: a Django admin user is the entry's `actor`; an API key (which is not a user) is named in
`additional_data` (`apiKey`: its public prefix, `apiKeyName`, `scope`). The entry's `cid` is
the request id, so an entry leads to the request's log lines. Changes made by the service
itself (sweeps, probes, the indexer) carry neither: they are either left out below (fields
that move every few seconds) or recorded as the system's.
"""

from django.contrib import admin
from django.utils.html import format_html

from registry.masking import MASK, mask_url

# model label -> options of auditlog.register(). Fields the service itself rewrites all the
# time (heartbeats, probe results, last use) are left out: the trail is for decisions.
AUDITED = {
    "registry.Chain": {"exclude_fields": ["updated_at"]},
    "registry.Category": {},
    "registry.ContractName": {},
    "registry.ContractVersion": {},
    "registry.Deployment": {},
    "registry.RpcEndpoint": {
        "include_fields": ["chain", "url", "provider", "priority", "monitoring_enabled",
                           "probe_interval_seconds", "probe_timeout_ms"],
        "mask_fields": ["url"],
    },
    "registry.ProviderHealth": {},
    "registry.ApiKey": {"include_fields": ["name", "scope", "prefix", "expires_at", "revoked_at"]},
    "executors.Executor": {
        "exclude_fields": ["last_heartbeat_at", "lease_expires_at", "updated_at", "metadata"],
    },
    "executors.TrustedAttester": {},
    # Workflows are not here: each of their changes is recorded as a WorkflowTransition.
}


def register_models() -> None:
    from auditlog.registry import auditlog
    from django.apps import apps

    for label, options in AUDITED.items():
        auditlog.register(apps.get_model(label), **options)


def mask_value(value: str) -> str:
    """AUDITLOG_MASK_CALLABLE: an RPC URL keeps its host, loses its credentials."""
    return mask_url(value) if "://" in str(value) else MASK


def request_id() -> str | None:
    """AUDITLOG_CID_GETTER: the request id of the request making the change."""
    from config.middleware import request_id_var

    value = request_id_var.get()
    return None if value == "-" else value


class AuditMiddleware:
    """Sets who acts for the entries written during a request. The API key is known only
    once DRF has authenticated (inside the view), so it is read when an entry is saved."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("GET", "HEAD", "OPTIONS"):  # reads change nothing: no overhead
            return self.get_response(request)
        from auditlog.context import set_extra_data
        from django.contrib.auth import get_user_model

        user = getattr(request, "user", None)
        actor = user if isinstance(user, get_user_model()) and user.is_authenticated else None
        context = {"actor": actor, "additional_data": lambda: key_of(request),
                   "remote_addr": request.META.get("REMOTE_ADDR")}
        with set_extra_data(context_data=context):
            return self.get_response(request)


def key_of(request) -> dict | None:
    holder = getattr(request, "auth", None)
    prefix = getattr(holder, "prefix", None)
    if prefix is None:
        return None
    return {"apiKey": prefix, "apiKeyName": holder.name, "scope": str(holder.scope)}


def install_admin() -> None:
    """The auditlog admin, with a column naming the API key that made each change."""
    from auditlog.admin import LogEntryAdmin
    from auditlog.models import LogEntry

    class AuditEntryAdmin(LogEntryAdmin):
        list_display = [*LogEntryAdmin.list_display[:-1], "api_key", "cid_url"]

        @admin.display(description="API key")
        def api_key(self, obj):
            data = obj.additional_data or {}
            if not data.get("apiKey"):
                return "-"
            return format_html("{} ({})", data["apiKey"], data.get("apiKeyName", ""))

    if admin.site.is_registered(LogEntry):
        admin.site.unregister(LogEntry)
    admin.site.register(LogEntry, AuditEntryAdmin)

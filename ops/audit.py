"""The audit trail (django-auditlog): who changed what, when, through the admin API or the
Django admin. Every audited model is registered here, in one place.

Who: a Django admin user is the entry's `actor`; an API key (which is not a user) is named in
`additional_data` (`apiKey`: its public prefix, `apiKeyName`, `scope`). The entry's `cid` is
the request id, so an entry leads to the request's log lines. Changes made by the service
itself (sweeps, probes, the indexer) carry neither: they are either left out below (fields
that move every few seconds) or recorded as the system's.
"""

from contextvars import ContextVar

from django.contrib import admin
from django.utils.html import format_html

from core.masking import MASK, mask_url
from core.request_id import request_id_var

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
    "registry.ApiKey": {"include_fields": ["name", "scope", "prefix", "expires_at", "revoked_at",
                                           "allowed_addresses"]},
    "executors.Executor": {
        "exclude_fields": ["last_heartbeat_at", "lease_expires_at", "updated_at", "metadata"],
    },
    "executors.TrustedAttester": {},
    # Workflows are not here: each of their changes is recorded as a WorkflowTransition.
    # Subscriptions: what their owners and administrators decide (not the claims, secrets
    # or the service's own disabling, which the subscription shows with its reason).
    "webhooks.Subscription": {
        "include_fields": ["url", "event_types", "chain_id", "workflow_id", "document_hash",
                           "description", "enabled"],
        "mask_fields": ["url"],
    },
    "webhooks.Watch": {},
    # Issuers: what administrators decide (the checks are kept as IdentityCheck rows).
    "issuers.Issuer": {"include_fields": ["name", "domain"]},
    "issuers.IssuerAddress": {"include_fields": ["issuer", "chain", "address"]},
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
    value = request_id_var.get()
    return None if value == "-" else value


# The request whose changes are being recorded (set by AuditMiddleware for write methods).
_request: ContextVar = ContextVar("audited_request", default=None)


class AuditMiddleware:
    """Names who acts in the entries written during a request. The API key is known only
    once DRF has authenticated (inside the view), and most requests write no entry: so the
    middleware only marks the request, and `_name_the_actor` reads it when an entry is
    saved. (auditlog's own set_actor connects and disconnects a signal receiver per request,
    which costs a busy endpoint more than its work.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("GET", "HEAD", "OPTIONS"):  # reads change nothing
            return self.get_response(request)
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)


def _name_the_actor(sender, instance, **kwargs):
    """pre_save of every audit entry: the actor, address and API key of the request."""
    from django.contrib.auth import get_user_model

    request = _request.get()
    if request is None:
        return  # the service's own change (a sweep, a command)
    user = getattr(request, "user", None)
    if instance.actor is None and isinstance(user, get_user_model()) and user.is_authenticated:
        instance.actor = user
        instance.actor_email = getattr(user, "email", None)
    instance.remote_addr = request.META.get("REMOTE_ADDR")
    instance.additional_data = key_of(request)


def connect_actor() -> None:
    from auditlog import get_logentry_model
    from django.db.models.signals import pre_save

    pre_save.connect(_name_the_actor, sender=get_logentry_model(),
                     dispatch_uid="ops.audit.actor")


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

from urllib.parse import urlsplit

from django import forms
from django.contrib import admin, messages
from django.db.models.constants import LOOKUP_SEP
from django.utils import timezone

from core.admin_forms import URLS_AS_TEXT, ApiRulesForm
from core.validators import InvalidHex, normalize_address
from registry.models.api_keys import ApiKey, KeyScope
from registry.models.chains import Chain
from registry.models.contracts import Category, ContractName, ContractVersion, Deployment
from registry.models.rpc import ProviderHealth, RpcEndpoint
from registry.serializers import (
    CategorySerializer,
    ChainSerializer,
    ContractNameSerializer,
    ContractVersionSerializer,
    DeploymentSerializer,
    ProviderHealthSerializer,
    RpcEndpointSerializer,
)


class HidesRpcUrls:
    """No lookup on an RPC URL through the admin's query string, for anyone: the admin
    allows any lookup on a model's own fields, and `?url__startswith=` answered with or
    without the endpoint is an oracle that spells out a masked password letter by letter.
    (Lookups through a relation are refused by Django unless listed in list_filter.)"""

    def lookup_allowed(self, lookup, value, request=None):
        if "url" in lookup.split(LOOKUP_SEP):
            return False
        return super().lookup_allowed(lookup, value, request)


# Each model's form checks what it saves with the API's serializer (core/admin_forms.py):
# the admin refuses what the API refuses, with the same messages.


class ChainForm(ApiRulesForm):
    serializer_class = ChainSerializer


@admin.register(Chain)
class ChainAdmin(HidesRpcUrls, admin.ModelAdmin):
    form = ChainForm
    list_display = ["chain_id", "name", "short_name", "status", "is_testnet", "confirmations",
                    "finality", "binding_mode", "executor_trust", "source",
                    "max_fee_per_gas_cap", "updated_at"]
    list_filter = ["status", "is_testnet", "finality", "binding_mode", "executor_trust",
                   "source"]
    search_fields = ["name", "short_name", "=chain_id"]
    readonly_fields = ["source", "edited_fields", "created_at", "updated_at"]
    actions = ["activate", "deactivate"]
    formfield_overrides = URLS_AS_TEXT

    def get_readonly_fields(self, request, obj=None):
        # The chain id is the chain's identity: set once.
        return [*self.readonly_fields, "chain_id"] if obj else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if change:  # by hand: import_chains leaves these fields as they are from now on
            obj.note_edited(form.changed_data)
        super().save_model(request, obj, form, change)

    @admin.action(description="Activate selected chains")
    def activate(self, request, queryset):
        count = queryset.update(status=Chain.Status.ACTIVE, updated_at=timezone.now())
        self.message_user(request, f"Activated {count} chain(s).")

    @admin.action(description="Deactivate selected chains")
    def deactivate(self, request, queryset):
        count = queryset.update(status=Chain.Status.INACTIVE, updated_at=timezone.now())
        self.message_user(request, f"Deactivated {count} chain(s).")


class CategoryForm(ApiRulesForm):
    serializer_class = CategorySerializer


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    form = CategoryForm
    list_display = ["slug", "name"]
    search_fields = ["slug", "name"]
    prepopulated_fields = {"slug": ["name"]}


class ContractNameForm(ApiRulesForm):
    serializer_class = ContractNameSerializer


@admin.register(ContractName)
class ContractNameAdmin(admin.ModelAdmin):
    form = ContractNameForm
    list_display = ["name", "display_name", "category"]
    list_filter = ["category"]
    search_fields = ["name", "display_name"]


class ContractVersionForm(ApiRulesForm):
    serializer_class = ContractVersionSerializer


@admin.register(ContractVersion)
class ContractVersionAdmin(admin.ModelAdmin):
    form = ContractVersionForm
    list_display = ["contract_name", "version", "compiler_version", "created_at"]
    list_filter = ["contract_name"]
    search_fields = ["contract_name__name", "version"]
    readonly_fields = ["created_at", "interface_summary"]

    def get_readonly_fields(self, request, obj=None):
        # The ABI of a version never changes: a new ABI is a new version.
        if obj:
            return [*self.readonly_fields, "contract_name", "version", "abi"]
        return self.readonly_fields

    @admin.display(description="Interface")
    def interface_summary(self, obj):
        if obj.pk is None:
            return "-"
        described = obj.interface()
        lines = [f"{f['selector']}  {f['signature']}" for f in described["functions"]]
        lines += [f"{e['topic'][:10]}…  event {e['signature']}" for e in described["events"]]
        return "\n".join(lines) or "(empty ABI)"


class DeploymentForm(ApiRulesForm):
    serializer_class = DeploymentSerializer


@admin.register(Deployment)
class DeploymentAdmin(admin.ModelAdmin):
    form = DeploymentForm
    list_display = ["contract_version", "chain", "address", "kind", "start_block", "created_at"]
    list_filter = ["kind", ("chain", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["address", "contract_version__contract_name__name"]
    readonly_fields = ["created_at"]
    list_select_related = ["chain", "contract_version__contract_name"]


class RpcEndpointForm(ApiRulesForm):
    """Shows the URL masked; leaving the masked value in place keeps the stored URL."""

    serializer_class = RpcEndpointSerializer

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and "url" in self.fields:  # not there for a view-only user
            self.initial["url"] = self.instance.masked_url
            self.fields["url"].help_text = "Shown masked. Enter a new URL to replace it."

    def clean_url(self):
        value = self.cleaned_data["url"]
        if self.instance.pk and value == self.instance.masked_url:
            return self.instance.url
        return value

    def wire_data(self, candidate, names):
        data = super().wire_data(candidate, names)
        if "url" in data:  # as typed: the API shows a URL masked, but takes it whole
            data["url"] = candidate.url
        return data


@admin.register(RpcEndpoint)
class RpcEndpointAdmin(HidesRpcUrls, admin.ModelAdmin):
    form = RpcEndpointForm
    list_display = ["masked_url", "chain", "provider", "priority", "current_status", "status",
                    "latency_ms", "lag_blocks", "uptime_1h", "uptime_24h", "last_checked_at"]
    list_filter = ["status", "provider", "monitoring_enabled",
                   ("chain", admin.RelatedOnlyFieldListFilter)]
    # The provider, and the URL's host (get_search_results): never the URL itself.
    search_fields = ["provider"]
    readonly_fields = ["status", "latency_ms", "head_block", "lag_blocks", "consecutive_failures",
                       "consecutive_successes", "observed_chain_id", "syncing", "last_checked_at",
                       "last_error", "uptime_1h", "uptime_24h", "created_at", "updated_at"]
    list_select_related = ["chain"]

    def get_queryset(self, request):
        return super().get_queryset(request).with_health()

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if obj is not None and not self.has_change_permission(request, obj):
            # Read-only, the admin would show the stored URL as it is: show it masked.
            return ["masked_url" if name == "url" else name for name in fields]
        return fields

    def get_search_results(self, request, queryset, search_term):
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().lower()
        if not term:
            return found, may_have_duplicates
        # Matched in Python on the host alone, so that no query compares the stored URL.
        by_host = [pk for pk, url in RpcEndpoint.objects.values_list("pk", "url")
                   if term in (_hostname(url) or "")]
        return found | queryset.filter(pk__in=by_host), may_have_duplicates

    @admin.display(description="URL")
    def masked_url(self, obj):
        return obj.masked_url

    @admin.display(description="Status in force")
    def current_status(self, obj):
        # What reads act on: a provider-health override while one is active, else the probe's.
        return obj.effective_status

    @admin.display(description="Uptime 1 h")
    def uptime_1h(self, obj):
        return _percent(getattr(obj, "uptime_1h", None))  # None on the add page

    @admin.display(description="Uptime 24 h")
    def uptime_24h(self, obj):
        return _percent(getattr(obj, "uptime_24h", None))


def _hostname(url: str) -> str | None:
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _percent(share) -> str | None:
    # None: no probe in the window (the admin's empty value is shown instead).
    return None if share is None else f"{share * 100:.1f} %"


class ProviderHealthForm(ApiRulesForm):
    serializer_class = ProviderHealthSerializer


@admin.register(ProviderHealth)
class ProviderHealthAdmin(HidesRpcUrls, admin.ModelAdmin):
    form = ProviderHealthForm
    list_display = ["created_at", "provider", "rpc_endpoint", "status", "until", "reason", "reported_by"]
    list_filter = ["status", "provider"]
    readonly_fields = ["reported_by", "created_at"]

    def has_change_permission(self, request, obj=None):
        return False  # history: add a new report instead of changing one

    def save_model(self, request, obj, form, change):
        obj.reported_by = f"user:{request.user.get_username()}"
        super().save_model(request, obj, form, change)


class ApiKeyForm(forms.ModelForm):
    """As `create_api_key`: a key's expiry, when it has one, is in the future. Its allow-list
    as the API takes it (PATCH /v1/admin/api-keys/{prefix})."""

    def clean_allowed_addresses(self):
        values = self.cleaned_data.get("allowed_addresses") or []
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise forms.ValidationError("A list of addresses: [\"0x...\", ...].")
        scope = self.instance.scope if self.instance.pk else self.cleaned_data.get("scope")
        if values and scope != KeyScope.EXECUTOR:
            raise forms.ValidationError("Only an executor key has an allow-list.")
        try:
            return sorted({normalize_address(value) for value in values})
        except InvalidHex as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_expires_at(self):
        value = self.cleaned_data.get("expires_at")
        if value is not None and "expires_at" in self.changed_data and value <= timezone.now():
            raise forms.ValidationError("An expiry in the past makes a key that never works.")
        return value


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    form = ApiKeyForm
    list_display = ["name", "display_prefix", "scope", "created_at", "last_used_at", "expires_at",
                    "revoked_at"]
    list_filter = ["scope", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix"]
    readonly_fields = ["display_prefix", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["name", "scope", "expires_at"]
        return ["name", "display_prefix", "scope", "expires_at", "created_at", "last_used_at",
                "revoked_at", "allowed_addresses"]

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "scope"] if obj else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        raw_key = obj.generate()
        super().save_model(request, obj, form, change)
        self.message_user(
            request,
            f"New {obj.scope} key: {raw_key}  (copy it now: it is stored only as a hash and "
            "will not be shown again)",
            level=messages.WARNING,
        )

    @admin.action(description="Revoke selected keys")
    def revoke(self, request, queryset):
        count = queryset.revoke()
        self.message_user(request, f"Revoked {count} key(s).")

"""The registry's wire shapes and their validation rules: the admin API's (registry/api/), and
what the Django admin (registry/admin.py), the chain file import (registry/services.py) and
the other apps' serializers check the same way. Outside api/, so that nothing but the HTTP
layer imports api/ (a contract in pyproject.toml)."""

import functools
from urllib.parse import urlsplit

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.validators import UniqueValidator

from core.errors import camel_attr
from core.fields import AddressField, Bytes32Field, ChainIdField, ExactCharField, WeiField
from core.masking import mask_url
from core.serializers import (
    StrictModelSerializer,
    StrictSerializer,
    field_paths,
    non_field_error,
)
from registry import abi
from registry.models.api_keys import ApiKey, KeyScope
from registry.models.chains import Chain
from registry.models.contracts import Category, ContractName, ContractVersion, Deployment
from registry.models.rpc import OverrideStatus, ProviderHealth, RpcEndpoint
from registry.rpc_transport import host_refusal

WEB_SCHEMES = ("http", "https")
RPC_SCHEMES = ("http", "https", "ws", "wss")


def check_url(value: str, schemes: tuple[str, ...]) -> str:
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise serializers.ValidationError(f"Not a valid URL: {exc}.") from exc
    if parts.scheme.lower() not in schemes or not parts.hostname:
        raise serializers.ValidationError(f"Enter a URL with scheme {', '.join(schemes)} and a host.")
    if any(c.isspace() for c in value):
        raise serializers.ValidationError("A URL contains no whitespace.")
    return value


MAX_BIGINT = 2**63 - 1  # what the column holds


class ChainRefField(serializers.PrimaryKeyRelatedField):
    """A chain named by its chain id in a request body."""

    default_error_messages = {"does_not_exist": "No chain with chain id {pk_value} is registered."}

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", Chain.objects.all())
        kwargs.setdefault("pk_field", ChainIdField())
        super().__init__(**kwargs)


class NativeCurrencySerializer(StrictSerializer):
    # Kept as given, spaces included: an imported list's values stay exactly theirs.
    name = ExactCharField(source="currency_name", max_length=100)
    symbol = serializers.CharField(source="currency_symbol", max_length=16)
    decimals = serializers.IntegerField(source="currency_decimals", min_value=0, max_value=255)


class ChainSerializer(StrictModelSerializer):
    chain_id = ChainIdField(
        validators=[UniqueValidator(Chain.objects.all(), "A chain with this chain id exists.")]
    )
    name = ExactCharField(max_length=200)
    native_currency = NativeCurrencySerializer(source="*", required=False)
    # A string here, checked as a URL in validate_info_url: a chain list's own value (the
    # import's context says so) is kept as the list has it, "www.example.org" included.
    info_url = serializers.CharField(max_length=500, allow_blank=True, required=False,
                                     help_text="The chain's website (http or https URL).")
    max_fee_per_gas_cap = WeiField(
        min_value=1, max_value=MAX_BIGINT, allow_null=True, required=False,
        help_text="The most an executor offers per gas on this chain, in wei: above it, it "
        "holds (blocked_by_fees) until fees fall. null: no cap.")
    edited_fields = serializers.SerializerMethodField(
        help_text="The fields an administrator set or edited (all of them for a chain "
        "registered by hand): `import_chains` leaves them as they are unless `--overwrite`.")

    class Meta:
        model = Chain
        fields = [
            "chain_id", "name", "short_name", "native_currency", "explorer_url", "info_url",
            "is_testnet", "status", "confirmations", "finality", "stall_blocks",
            "offchain_unanchored", "binding_mode", "max_fee_per_gas_cap", "replace_after_blocks",
            "low_funds_batches", "executor_trust", "untrusted_executor_jobs", "source",
            "edited_fields", "created_at", "updated_at",
        ]
        immutable_fields = ["chain_id"]
        extra_kwargs = {
            "short_name": {"validators": [UniqueValidator(Chain.objects.all(),
                                                          "A chain with this short name exists.")]},
            "confirmations": {"max_value": 10_000},
            "replace_after_blocks": {"min_value": 1, "max_value": 10_000},
            "stall_blocks": {"min_value": 1, "max_value": 1_000_000},
            "low_funds_batches": {"max_value": 1_000_000},
        }

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:
            # The chain id never changes: a PATCH to another chain's id is "immutable" (400),
            # not a clash with that chain (409).
            _drop_unique(fields["chain_id"])
        if self.context.get("imported"):
            # import_chains checks both across the whole list (a short name may move from
            # one chain to another within one import).
            _drop_unique(fields["chain_id"])
            _drop_unique(fields["short_name"])
        return fields

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_edited_fields(self, chain) -> list[str]:
        paths = chain_field_paths()
        return [camel_attr(paths[name]) for name in chain.edited_fields if name in paths]

    def update(self, instance, validated_data):
        if not self.context.get("imported"):  # by hand: the import keeps these from now on
            instance.note_edited(name for name, value in validated_data.items()
                                 if getattr(instance, name) != value)
        return super().update(instance, validated_data)

    def validate_short_name(self, value):
        # /v1/chain-registry/{chain} takes a chain id or a short name: digits would be ambiguous.
        if value.isdigit():
            raise serializers.ValidationError("All digits would read as a chain id; use a name.")
        return value

    def validate_explorer_url(self, value):
        return check_url(value, WEB_SCHEMES) if value else value

    def validate_info_url(self, value):
        if not value or self.context.get("imported"):
            return value
        return check_url(value, WEB_SCHEMES)


def _drop_unique(field) -> None:
    field.validators = [v for v in field.validators if not isinstance(v, UniqueValidator)]


@functools.cache
def chain_field_paths() -> dict[str, str]:
    """A chain's model fields -> their wire paths (`currency_name` -> `native_currency.name`)."""
    return field_paths(ChainSerializer())


class ChainStatusSerializer(StrictSerializer):
    status = serializers.ChoiceField(choices=Chain.Status.choices)


class CategorySerializer(StrictModelSerializer):
    class Meta:
        model = Category
        fields = ["slug", "name", "description"]


class ContractNameSerializer(StrictModelSerializer):
    category = serializers.SlugRelatedField(
        slug_field="slug", queryset=Category.objects.all(), allow_null=True, required=False
    )

    class Meta:
        model = ContractName
        fields = ["name", "display_name", "category", "description"]


class InterfaceSerializer(serializers.Serializer):
    functions = serializers.ListField(child=serializers.DictField())
    events = serializers.ListField(child=serializers.DictField())
    errors = serializers.ListField(child=serializers.DictField())


class ContractVersionSerializer(StrictModelSerializer):
    contract_name = serializers.SlugRelatedField(slug_field="name", queryset=ContractName.objects.all())
    abi = serializers.JSONField()
    interface = serializers.SerializerMethodField()

    class Meta:
        model = ContractVersion
        fields = ["id", "contract_name", "version", "abi", "compiler_version", "created_at", "interface"]
        immutable_fields = ["contract_name", "version", "abi"]
        validators = []  # validate() checks uniqueness and names the field, not "non_field_errors"

    def validate(self, attrs):
        self.refuse_duplicate(
            attrs, "version",
            "This contract already has this version; a new ABI needs a new version.",
            "contract_name",
        )
        return attrs

    def validate_abi(self, value):
        problems = abi.validate_abi(value)
        if problems:
            raise serializers.ValidationError(problems.pop("") if "" in problems else problems)
        return value

    @extend_schema_field(InterfaceSerializer)
    def get_interface(self, version) -> dict:
        return version.interface()


class DeploymentSerializer(StrictModelSerializer):
    chain_id = ChainRefField(source="chain")
    contract_version = serializers.PrimaryKeyRelatedField(queryset=ContractVersion.objects.all())
    address = AddressField()
    tx_hash = Bytes32Field(required=False, allow_null=True)
    contract_name = serializers.CharField(
        source="contract_version.contract_name.name", read_only=True
    )

    class Meta:
        model = Deployment
        fields = [
            "id", "chain_id", "contract_version", "contract_name", "address", "start_block",
            "tx_hash", "kind", "created_at",
        ]
        immutable_fields = ["chain_id", "address"]
        # DRF's generated (chain, address) check would preempt validate() below with a
        # "non_field_errors" message in snake_case; the database constraint still holds.
        validators = []

    def validate(self, attrs):
        self.refuse_duplicate(
            attrs, "address", "This address is already registered on this chain.", "chain"
        )
        return attrs


class MonitoringSerializer(StrictSerializer):
    enabled = serializers.BooleanField(source="monitoring_enabled", required=False)
    interval_seconds = serializers.IntegerField(
        source="probe_interval_seconds", min_value=5, max_value=86_400, required=False
    )
    timeout_ms = serializers.IntegerField(
        source="probe_timeout_ms", min_value=100, max_value=60_000, required=False
    )


@extend_schema_field({"type": "string", "format": "uri",
                      "description": "Shown with credentials masked as ***."})
class RpcUrlField(serializers.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 1000)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        try:
            url = check_url(super().to_internal_value(data), RPC_SCHEMES)
        except serializers.ValidationError:
            # check_url's messages may quote a piece of the URL (a password read as a
            # port), and an RPC URL can hold credentials: say what is wanted instead.
            raise serializers.ValidationError(
                f"Enter a URL with scheme {', '.join(RPC_SCHEMES)}, a host, and no whitespace."
            ) from None
        refusal = host_refusal(urlsplit(url).hostname)
        if refusal is not None:  # checked again at every connection (names resolve later)
            raise serializers.ValidationError(f"This host is not allowed: {refusal}.")
        return url

    def to_representation(self, value):
        return mask_url(value)


class OverrideSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=OverrideStatus.choices)
    reason = serializers.CharField()
    until = serializers.DateTimeField(allow_null=True)
    reported_at = serializers.DateTimeField()


class UptimeSerializer(serializers.Serializer):
    def get_fields(self):
        # "1h" and "24h" are not identifiers: declared here rather than as attributes.
        return {"1h": serializers.FloatField(allow_null=True),
                "24h": serializers.FloatField(allow_null=True)}


class RpcEndpointSerializer(StrictModelSerializer):
    chain_id = ChainRefField(source="chain")
    url = RpcUrlField()
    monitoring = MonitoringSerializer(source="*", required=False)
    status = serializers.CharField(source="effective_status", read_only=True)
    probe_status = serializers.CharField(source="status", read_only=True)
    override = serializers.SerializerMethodField()
    uptime = serializers.SerializerMethodField()

    class Meta:
        model = RpcEndpoint
        fields = [
            "id", "chain_id", "url", "provider", "priority", "monitoring", "status",
            "probe_status", "override", "latency_ms", "head_block", "lag_blocks", "syncing",
            "observed_chain_id", "consecutive_failures", "consecutive_successes",
            "last_checked_at", "last_error", "uptime", "created_at", "updated_at",
        ]
        read_only_fields = [
            "latency_ms", "head_block", "lag_blocks", "syncing", "observed_chain_id",
            "consecutive_failures", "consecutive_successes", "last_checked_at", "last_error",
        ]
        immutable_fields = ["chain_id"]
        extra_kwargs = {"priority": {"max_value": 1_000_000}}
        # validate() checks (chain, url) itself, naming `url`, after a masked URL sent
        # back is resolved; DRF's own check would name no field.
        validators = []

    def validate_provider(self, value):
        if value and not value.replace("-", "").replace("_", "").replace(".", "").isalnum():
            raise serializers.ValidationError("Use letters, digits, '.', '-' and '_' only.")
        return value.lower()

    def validate(self, attrs):
        if self.instance is not None and attrs.get("url") == self.instance.masked_url:
            # The masked URL that GET showed, sent back unchanged: keep the stored one,
            # or a read-modify-write client would overwrite the key with ***.
            attrs["url"] = self.instance.url
        url = attrs.get("url")
        if not attrs.get("provider", getattr(self.instance, "provider", "")):
            # An empty provider means "the default": derived from the URL.
            attrs["provider"] = provider_from_url(url or self.instance.url)
        if url:
            self.refuse_duplicate(
                attrs, "url", "This URL is already registered on this chain.", "chain"
            )
        return attrs

    @extend_schema_field(UptimeSerializer)
    def get_uptime(self, endpoint):
        # Shares of successful probes (0..1), null without probes in the window.
        return {"1h": getattr(endpoint, "uptime_1h", None), "24h": getattr(endpoint, "uptime_24h", None)}

    @extend_schema_field(OverrideSerializer(allow_null=True))
    def get_override(self, endpoint):
        if endpoint.active_override() is None:
            return None
        return OverrideSerializer({
            "status": endpoint.override_status,
            "reason": endpoint.override_reason,
            "until": endpoint.override_until,
            "reported_at": endpoint.override_reported_at,
        }).data


def provider_from_url(url: str) -> str:
    """The provider's name from the host: eth-mainnet.g.alchemy.com -> alchemy."""
    host = (urlsplit(url).hostname or "").lower()
    labels = host.split(".")
    if len(labels) >= 2 and not host.replace(".", "").isdigit():
        return labels[-2][:64]
    return host[:64]


class ProviderHealthSerializer(StrictModelSerializer):
    rpc_id = serializers.PrimaryKeyRelatedField(
        source="rpc_endpoint", queryset=RpcEndpoint.objects.all(), required=False,
        allow_null=True,  # a report about a whole provider names no endpoint
    )
    status = serializers.ChoiceField(choices=OverrideStatus.choices, allow_null=True)
    affected_endpoints = serializers.SerializerMethodField()

    class Meta:
        model = ProviderHealth
        fields = [
            "id", "provider", "rpc_id", "status", "reason", "until", "reported_by", "created_at",
            "affected_endpoints",
        ]
        read_only_fields = ["reported_by", "created_at"]

    def validate_provider(self, value):
        value = value.lower()
        if value and not RpcEndpoint.objects.filter(provider=value).exists():
            raise serializers.ValidationError(f"No RPC endpoint has provider {value!r}.")
        return value

    def validate_until(self, value):
        if value is not None and value <= timezone.now():
            raise serializers.ValidationError("`until` must be in the future.")
        return value

    def validate(self, attrs):
        if bool(attrs.get("provider")) == bool(attrs.get("rpc_endpoint")):
            raise non_field_error("Name either a provider or an rpcId, not both or neither.")
        return attrs

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_affected_endpoints(self, report) -> list[int]:
        if report.rpc_endpoint_id:
            return [report.rpc_endpoint_id]
        # One query per provider on a page, not one per report.
        by_provider = self.context.setdefault("endpoints_by_provider", {})
        if report.provider not in by_provider:
            by_provider[report.provider] = list(
                RpcEndpoint.objects.filter(provider=report.provider).values_list("id", flat=True)
            )
        return by_provider[report.provider]


MAX_ALLOWED_ADDRESSES = 1000


class ApiKeySerializer(StrictModelSerializer):
    """A key as administrators see it: never its secret (shown once, at its creation)."""

    prefix = serializers.CharField(source="display_prefix", read_only=True)
    allowed_addresses = serializers.ListField(
        child=AddressField(), max_length=MAX_ALLOWED_ADDRESSES, required=False,
        help_text="An executor key's standing allow-list: an executor it registers at one of "
        "these addresses (after proving it holds the address's key) is trusted at once, "
        "without an administrator's approval. Read at each registration; emptied when the key "
        "is revoked.")

    class Meta:
        model = ApiKey
        fields = ["prefix", "name", "scope", "created_at", "last_used_at", "expires_at",
                  "revoked_at", "allowed_addresses"]
        read_only_fields = ["prefix", "scope", "created_at", "last_used_at", "expires_at",
                            "revoked_at"]

    def validate_allowed_addresses(self, values):
        if values and self.instance is not None and self.instance.scope != KeyScope.EXECUTOR:
            raise serializers.ValidationError("Only an executor key has an allow-list.")
        if self.instance is not None and self.instance.is_revoked:
            raise serializers.ValidationError("A revoked key has no allow-list.")
        return sorted(set(values))

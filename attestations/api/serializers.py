from rest_framework import serializers

from config.api.serializers import StrictSerializer
from registry.api.serializers import NativeCurrencySerializer
from registry.models import Chain, Deployment
from registry.models.rpc import OverrideStatus, ProbeStatus

# Best first: the summary's status is the best of its endpoints' statuses in force.
STATUS_RANK = [ProbeStatus.HEALTHY, ProbeStatus.DEGRADED, ProbeStatus.UNKNOWN,
               OverrideStatus.MAINTENANCE, ProbeStatus.DOWN]
RPC_SUMMARY_STATUSES = [str(status) for status in STATUS_RANK]


class PublicDeploymentSerializer(serializers.ModelSerializer):
    contract_name = serializers.CharField(source="contract_version.contract_name.name")
    version = serializers.CharField(source="contract_version.version")

    class Meta:
        model = Deployment
        fields = ["kind", "address", "contract_name", "version", "start_block"]


class RpcSummarySerializer(serializers.Serializer):
    endpoints = serializers.IntegerField(help_text="RPC endpoints registered for the chain.")
    healthy = serializers.IntegerField(help_text="Of those, healthy now (overrides included).")
    best_head_block = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(
        choices=RPC_SUMMARY_STATUSES, help_text="The best status among its endpoints."
    )


class ExecutorSummarySerializer(serializers.Serializer):
    online = serializers.IntegerField(help_text="Healthy or draining, with a valid lease.")
    registered = serializers.IntegerField(help_text="Not deregistered.")


class PublicChainSerializer(serializers.ModelSerializer):
    """A supported chain as API consumers see it (no RPC URLs: those are administrators')."""

    native_currency = NativeCurrencySerializer(source="*")
    deployments = PublicDeploymentSerializer(many=True)
    rpc = serializers.SerializerMethodField()
    executors = serializers.SerializerMethodField()

    class Meta:
        model = Chain
        fields = [
            "chain_id", "name", "short_name", "native_currency", "explorer_url", "info_url",
            "is_testnet", "confirmations", "deployments", "rpc", "executors",
        ]

    def get_rpc(self, chain) -> RpcSummarySerializer:
        endpoints = list(chain.rpc_endpoints.all())
        statuses = [e.effective_status for e in endpoints]
        ranked = [s for s in STATUS_RANK if s in statuses]
        heads = [e.head_block for e in endpoints if e.head_block is not None
                 and e.answers_for_its_chain and e.effective_status != ProbeStatus.DOWN]
        return RpcSummarySerializer({
            "endpoints": len(endpoints),
            "healthy": statuses.count(ProbeStatus.HEALTHY),
            "best_head_block": max(heads) if heads else None,
            "status": ranked[0] if ranked else ProbeStatus.DOWN,
        }).data

    def get_executors(self, chain) -> ExecutorSummarySerializer:
        return ExecutorSummarySerializer({
            "online": chain.online_executors, "registered": chain.registered_executors,
        }).data


class SchemaValidateRequestSerializer(StrictSerializer):
    schema = serializers.CharField(
        max_length=2000, allow_blank=True, trim_whitespace=False,
        help_text="An EAS schema string: `bytes32 documentHash,string name,uint64 expiry`.",
    )
    data = serializers.DictField(
        required=False,
        help_text="Values keyed by field name, to check and ABI-encode. Without it only the "
        "schema string is checked.",
    )


class SchemaFieldSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField(help_text="Canonical ABI type: `uint256`, `(string,uint256)[]`.")
    components = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="Tuples only: their fields, each {name, type, components?}.",
    )


class SchemaCheckErrorSerializer(serializers.Serializer):
    attr = serializers.CharField(
        help_text="`schema`, `schema.3` (4th field), `schema.3.1` (its 2nd component) or "
        "`data.attrs.1.value`."
    )
    code = serializers.CharField()
    detail = serializers.CharField()


class SchemaValidateResponseSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    errors = SchemaCheckErrorSerializer(many=True)
    fields = SchemaFieldSerializer(many=True, help_text="Empty when the schema is invalid.")
    document_hash_field = serializers.CharField(
        allow_null=True, help_text="`documentHash` when the schema has a `bytes32 documentHash` "
        "field (a document schema), else null.",
    )
    encoded = serializers.CharField(
        allow_null=True, help_text="The data ABI-encoded as EAS stores it (0x-hex); null "
        "without data or when anything is invalid.",
    )

from rest_framework import serializers

from registry.api.serializers import NativeCurrencySerializer
from registry.models import Chain, Deployment
from registry.models.rpc import OverrideStatus, ProbeStatus

# Best first: the summary's status is the best of its endpoints' statuses in force.
STATUS_RANK = [ProbeStatus.HEALTHY, ProbeStatus.DEGRADED, ProbeStatus.UNKNOWN,
               OverrideStatus.MAINTENANCE, ProbeStatus.DOWN]


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
        choices=[str(s) for s in STATUS_RANK], help_text="The best status among its endpoints."
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

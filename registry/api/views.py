import re

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.conditional import ConditionalMixin
from core.errors import Conflict, NotFound
from core.parsers import BodyLimits
from core.viewsets import AdminAccess, AdminViewSet, CreatedLocationMixin
from registry import serializers
from registry.api import filters
from registry.models.api_keys import ApiKey
from registry.models.chains import Chain
from registry.models.contracts import Category, ContractName, ContractVersion, Deployment
from registry.models.rpc import ProviderHealth, RpcEndpoint


class ChainViewSet(AdminViewSet):
    """Blockchain networks, identified by their EIP-155 chain id."""

    queryset = Chain.objects.all()
    serializer_class = serializers.ChainSerializer
    filterset_class = filters.ChainFilter
    lookup_field = "chain_id"
    lookup_value_regex = "[0-9]+"

    @extend_schema(operation_id="adminUpdateChainStatus", summary="Activate or deactivate a chain",
                   request=serializers.ChainStatusSerializer, responses=serializers.ChainSerializer)
    @action(detail=True, methods=["patch"], url_path="status")
    def status(self, request, chain_id=None):
        """Activate or deactivate a chain."""
        chain = self.get_object()
        body = serializers.ChainStatusSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        chain.set_status(body.validated_data["status"])
        return Response(self.get_serializer(chain).data)

    def perform_destroy(self, chain):
        # SPEC 3: a chain with deployments is deactivated, not deleted; say so rather than
        # the generic "still referenced" (the PROTECT foreign key still guards a race).
        if chain.deployments.exists():
            raise Conflict("This chain has deployments: deactivate it with PATCH "
                           f"/v1/admin/chains/{chain.chain_id}/status instead of deleting it.")
        chain.delete()


class CategoryViewSet(AdminViewSet):
    """Categories that group contract names."""

    queryset = Category.objects.all()
    serializer_class = serializers.CategorySerializer
    filterset_class = filters.CategoryFilter
    lookup_field = "slug"


class ContractNameViewSet(AdminViewSet):
    """Base contract configurations."""

    queryset = ContractName.objects.select_related("category")
    serializer_class = serializers.ContractNameSerializer
    filterset_class = filters.ContractNameFilter
    lookup_field = "name"


class ContractVersionViewSet(AdminViewSet):
    """Contract versions with their ABI; the ABI of a version never changes."""

    queryset = ContractVersion.objects.select_related("contract_name")
    serializer_class = serializers.ContractVersionSerializer
    filterset_class = filters.ContractVersionFilter
    # An ABI is large: a megabyte of entries and their inputs holds some 40,000 keys.
    body_limits = BodyLimits(keys=100_000, items=50_000)


class DeploymentViewSet(AdminViewSet):
    """Contract versions deployed at an address on a chain."""

    queryset = Deployment.objects.select_related("contract_version__contract_name")
    serializer_class = serializers.DeploymentSerializer
    filterset_class = filters.DeploymentFilter


class RpcEndpointViewSet(AdminViewSet):
    """RPC endpoints of chains, with what the probes measured; URLs are shown masked."""

    queryset = RpcEndpoint.objects.with_health()
    serializer_class = serializers.RpcEndpointSerializer
    filterset_class = filters.RpcEndpointFilter
    lookup_value_regex = "[0-9]+"

    # Re-read after a write so that the response carries the override annotations.
    def perform_create(self, serializer):
        serializer.instance = RpcEndpoint.objects.with_health().get(pk=serializer.save().pk)

    def perform_update(self, serializer):
        serializer.instance = RpcEndpoint.objects.with_health().get(pk=serializer.save().pk)


class ProviderHealthViewSet(
    AdminAccess, CreatedLocationMixin, ConditionalMixin, mixins.CreateModelMixin,
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet,
):
    """Provider health reports: history rows, created and read, never changed."""

    queryset = ProviderHealth.objects.all()
    serializer_class = serializers.ProviderHealthSerializer
    filterset_class = filters.ProviderHealthFilter
    lookup_value_regex = "[0-9]+"

    def perform_create(self, serializer):
        serializer.save(reported_by=self.request.auth.prefix)


class ApiKeyViewSet(AdminAccess, ConditionalMixin, mixins.ListModelMixin,
                    mixins.RetrieveModelMixin, mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once)."""

    queryset = ApiKey.objects.all()
    serializer_class = serializers.ApiKeySerializer
    filterset_class = filters.ApiKeyFilter
    http_method_names = ["get", "post", "patch", "head", "options"]
    lookup_field = "prefix"
    lookup_value_regex = "[^/]+"  # a prefix is crk_ and 12 hex digits: anything else a 404

    def get_object(self):
        prefix = self.kwargs["prefix"]
        if not re.fullmatch(r"crk_[0-9a-f]{12}", prefix):
            raise NotFound("No API key with this prefix (crk_ and 12 hex digits).")
        self.kwargs["prefix"] = prefix.removeprefix("crk_")
        return super().get_object()

    @extend_schema(operation_id="adminRevokeApiKey", summary="Revoke an API key",
                   request=None, responses=serializers.ApiKeySerializer)
    @action(detail=True, methods=["post"])
    def revoke(self, request, prefix=None):
        """Revoke the key, and end what it held, in one transaction: its executors lose their
        trust (unless moved to another key), its webhook subscriptions are disabled (saying
        why), its allow-list goes. Revoking a revoked key changes nothing."""
        key = self.get_object()
        key.revoke()
        return Response(self.get_serializer(key).data)

from django.db import transaction
from django.db.models import Count, OuterRef, Prefetch, Q, Subquery
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ErrorDetail, NotFound, ValidationError
from rest_framework.response import Response

from attestations import offchain, schema
from attestations.api import filters, serializers
from attestations.models import (
    Attestation,
    OffchainAttestation,
    OffchainRevocation,
    Schema,
    Timestamp,
)
from core.conditional import ConditionalMixin
from core.errors import Conflict
from core.pagination import KeysetPagination
from core.parsers import VerbatimJSONParser
from core.validators import BYTES32_PATTERN, InvalidHex, normalize_bytes32
from core.viewsets import created_headers
from executors.models import LIVE_STATUSES, ExecutorStatus
from registry.models import Chain, Deployment, RpcEndpoint

# Chains and schemas change seldom (an administrator's edit, a new registration): a client
# may keep a read a minute. Attestations and workflows change as the chain moves: no max-age.
PUBLIC_REGISTRY_MAX_AGE = 60


class AttestationPagination(KeysetPagination):
    time_field = "time"


class ChainViewSet(ConditionalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                   viewsets.GenericViewSet):
    """The supported blockchain networks: active chains with their deployments, the health
    of their RPC endpoints and their online executors."""

    cache_max_age = PUBLIC_REGISTRY_MAX_AGE
    serializer_class = serializers.PublicChainSerializer
    filterset_class = filters.PublicChainFilter
    lookup_field = "chain_id"
    lookup_value_regex = "[0-9]+"

    def get_queryset(self):
        now = timezone.now()
        online = Q(executors__status__in=LIVE_STATUSES, executors__lease_expires_at__gt=now)
        return (
            Chain.objects.filter(status=Chain.Status.ACTIVE)
            .select_related("head")
            .annotate(
                online_executors=Count("executors", filter=online, distinct=True),
                registered_executors=Count(
                    "executors", filter=~Q(executors__status=ExecutorStatus.DEREGISTERED),
                    distinct=True,
                ),
            )
            .prefetch_related(
                Prefetch("deployments", queryset=Deployment.objects.select_related(
                    "contract_version__contract_name").order_by("kind", "id")),
                Prefetch("rpc_endpoints", queryset=RpcEndpoint.objects.with_override()),
            )
        )


class UidLookupMixin:
    """Records of active chains (`model`, with their confirmations, without the columns in
    `deferred_fields`, in `record_order`), retrieved by a bytes32 (the EAS UID; a
    timestamp's data). It does not include the chain id, so the same one can exist on two
    chains: `?chainId=` (a filter of the list, applied here too) narrows, and without it one
    held by several chains is a 409 naming them, never a guess."""

    lookup_field = "uid"
    lookup_name = "UID"  # in messages
    lookup_value_regex = "[^/]+"  # a malformed UID reaches the view: a 400, not a 404
    conflict_actions = ("retrieve",)
    bad_request_actions = ("retrieve",)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # generating the schema: no database
            return self.model.objects.none()
        records = on_active_chains(self.model.objects.all()).with_confirmations()
        return records.defer(*self.deferred_fields).order_by(*self.record_order)

    def get_object(self):
        name = self.lookup_url_kwarg or self.lookup_field
        try:
            value = normalize_bytes32(self.kwargs[name])
        except InvalidHex as exc:
            raise ValidationError({name: [str(exc)]}) from None
        queryset = (self.filter_queryset(self.get_queryset())
                    .filter(**{self.lookup_field: value}).order_by("chain_id"))
        found = list(queryset[:MAX_CHAINS_NAMED])
        if not found:
            raise NotFound(f"No {self.record_name} with this {self.lookup_name} on an active "
                           "chain.")
        if len(found) > 1:
            chains = ", ".join(str(record.chain_id) for record in found)
            raise Conflict(f"This {self.lookup_name} exists on chains {chains}: add ?chainId= "
                           "to choose one.", code=f"ambiguous_{name}")
        return found[0]


MAX_CHAINS_NAMED = 20
UID_PARAMETERS = [
    OpenApiParameter("uid", {"type": "string", "pattern": BYTES32_PATTERN},
                     OpenApiParameter.PATH, description="The EAS UID (32 bytes, 0x-hex)."),
    OpenApiParameter("chainId", OpenApiTypes.INT64, description="The chain to read it from; "
                     "needed only when the UID exists on several chains (else a 409)."),
]


def on_active_chains(queryset):
    """Only the records of active chains. The chain ids are read first (a few rows) and
    given as a list: joined to the chain table instead, the planner misjudges how many rows
    match and merges every chain's rows where an index walk would stop after one page."""
    active = list(Chain.objects.filter(status=Chain.Status.ACTIVE).values_list("chain_id",
                                                                               flat=True))
    return queryset.filter(chain_id__in=active)


@extend_schema_view(retrieve=extend_schema(parameters=UID_PARAMETERS))
class SchemaViewSet(ConditionalMixin, UidLookupMixin, mixins.ListModelMixin,
                    mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """EAS schemas registered on active chains, in the order of registration per chain;
    and the grammar check of a schema string and of data for it."""

    serializer_class = serializers.PublicSchemaSerializer
    filterset_class = filters.SchemaFilter
    record_name = "schema"
    model = Schema
    deferred_fields = ("parse_error", "block_hash", "log_index", "indexed_at", "deployment")
    record_order = ("chain_id", "block_number", "log_index")
    cache_max_age = PUBLIC_REGISTRY_MAX_AGE

    @extend_schema(
        request=serializers.SchemaValidateRequestSerializer,
        responses=serializers.SchemaValidateResponseSerializer,
        description="Parse an EAS schema string and, when `data` is given, check and ABI-encode "
        "it. An invalid schema or data is a 200 with `valid: false` and errors naming the "
        "field; a malformed request is a 400.",
    )
    @action(detail=False, methods=["post"])
    def validate(self, request):
        body = serializers.SchemaValidateRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        result = schema.check(body.validated_data["schema"], body.validated_data.get("data"))
        # Rendered from the dict: the serializer above only documents the shape.
        return Response(result.as_dict())


@extend_schema_view(retrieve=extend_schema(parameters=UID_PARAMETERS))
class AttestationViewSet(ConditionalMixin, UidLookupMixin, mixins.ListModelMixin,
                         mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """EAS attestations on active chains, newest first (by attestation time, then by the
    order of indexing), with an opaque cursor that stays put while new ones arrive;
    `offchain=true` lists the offchain ones submitted here instead."""

    pagination_class = AttestationPagination
    record_name = "attestation"
    model = Attestation
    deferred_fields = ("block_hash", "log_index", "indexed_at", "deployment", "schema",
                       "revoked_block_number")
    record_order = ("-time", "-id")

    def offchain(self) -> bool:
        """`offchain=true` on the list: the offchain attestations, same filters and order."""
        request = getattr(self, "request", None)
        return (self.action == "list" and request is not None
                and request.query_params.get("offchain") == "true")

    @property
    def filterset_class(self):
        return filters.OffchainAttestationFilter if self.offchain() else filters.AttestationFilter

    def get_serializer_class(self):
        if self.offchain():
            return serializers.OffchainAttestationSerializer
        return serializers.AttestationSerializer

    def get_queryset(self):
        if self.offchain() and not getattr(self, "swagger_fake_view", False):
            return offchain_records()
        return super().get_queryset()


class TimestampPagination(KeysetPagination):
    time_field = "timestamp"


HASH_PARAMETERS = [
    OpenApiParameter("hash", {"type": "string", "pattern": BYTES32_PATTERN},
                     OpenApiParameter.PATH, description="The timestamped bytes32 (0x-hex)."),
    UID_PARAMETERS[1],
]


@extend_schema_view(retrieve=extend_schema(parameters=HASH_PARAMETERS))
class TimestampViewSet(ConditionalMixin, UidLookupMixin, mixins.ListModelMixin,
                       mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """EAS `Timestamped` events on active chains: a bytes32 (an offchain attestation's uid,
    a document hash, ...) anchored at a block's time, newest first, with an opaque cursor."""

    serializer_class = serializers.TimestampSerializer
    filterset_class = filters.TimestampFilter
    pagination_class = TimestampPagination
    record_name = "timestamp"
    model = Timestamp
    lookup_field = "data"
    lookup_url_kwarg = "hash"
    lookup_name = "hash"
    deferred_fields = ("block_hash", "log_index", "indexed_at", "deployment")
    record_order = ("-timestamp", "-id")


class OffchainRevocationViewSet(UidLookupMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """EAS `RevokedOffchain` events on active chains: an attester's revocation of an offchain
    attestation (its uid in `data`), newest first, with an opaque cursor."""

    serializer_class = serializers.OffchainRevocationSerializer
    filterset_class = filters.OffchainRevocationFilter
    pagination_class = TimestampPagination
    model = OffchainRevocation
    deferred_fields = ("block_hash", "log_index", "indexed_at", "deployment")
    record_order = ("-timestamp", "-id")


def with_chain_facts(records):
    """Offchain attestations with what their chain says of their uid: `revocation_time`, the
    attester's own RevokedOffchain on their EAS contract, and `timestamped_at`, the earliest
    Timestamped of it there (both as indexed)."""
    same = {"chain_id": OuterRef("chain_id"), "deployment_id": OuterRef("deployment_id"),
            "data": OuterRef("uid")}
    revoked = OffchainRevocation.objects.filter(revoker=OuterRef("attester"), **same)
    stamped = Timestamp.objects.filter(**same)
    return records.annotate(
        revocation_time=Subquery(revoked.order_by("timestamp").values("timestamp")[:1]),
        timestamped_at=Subquery(stamped.order_by("timestamp").values("timestamp")[:1]))


def offchain_records():
    """The offchain attestations of active chains, with their chain facts, newest first."""
    records = on_active_chains(OffchainAttestation.objects.select_related("deployment"))
    return with_chain_facts(records.defer("package")).order_by("-time", "-id")


@extend_schema_view(retrieve=extend_schema(parameters=UID_PARAMETERS))
class OffchainAttestationViewSet(ConditionalMixin, UidLookupMixin, mixins.ListModelMixin,
                                 mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """EAS offchain attestations submitted here (checked: attestations/offchain.py), on
    active chains, newest first by their signed time, with the filters of /attestations."""

    serializer_class = serializers.OffchainAttestationSerializer
    filterset_class = filters.OffchainAttestationFilter
    pagination_class = AttestationPagination
    record_name = "offchain attestation"
    parser_classes = [VerbatimJSONParser]  # a signed package: its keys as signed

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return OffchainAttestation.objects.none()
        return offchain_records()

    @extend_schema(
        request=serializers.OffchainPackageSerializer,
        responses={201: serializers.OffchainAttestationSerializer,
                   200: serializers.OffchainAttestationSerializer},
        description="Submit an EAS offchain attestation package, as the EAS SDK signs it "
        "(versions 0, 1 and 2). Stored when its domain is an active chain's EAS deployment "
        "(and that contract's version), its types are its version's, its uid is the one its "
        "message makes, its signature is the signer's and its schema is registered on the "
        "chain; otherwise a 400 naming the part (`sig.domain.version`, `sig.signature`, ...) "
        "and why. 201 when new (`Location`), 200 with the stored one when its uid is known "
        "on that chain. 503 when the chain cannot be asked its EAS version.",
    )
    def create(self, request):
        body = serializers.OffchainPackageSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            checked = offchain.check_package(request.data)
            with transaction.atomic():
                record, created = offchain.store(checked, request.data)
        except offchain.OffchainRefused as exc:
            raise ValidationError({exc.attr: [ErrorDetail(str(exc), code=exc.code)]}) from None
        answer = self.get_serializer(with_chain_facts(
            OffchainAttestation.objects.select_related("deployment")).get(pk=record.pk)).data
        if not created:
            return Response(answer)
        return Response(answer, status=201, headers=created_headers(
            "public-offchain-attestation-detail", uid=record.uid))

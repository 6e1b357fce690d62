from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from core.viewsets import AdminViewSet
from issuers.api import filters
from issuers.models import Issuer
from issuers.serializers import IdentityCheckSerializer, IssuerSerializer
from issuers.services import issuer_check
from issuers.tasks import queue_check

RECENT_CHECKS = 50


class IssuerViewSet(AdminViewSet):
    """The organisations behind attester addresses, and their proven identity."""

    queryset = Issuer.objects.prefetch_related("addresses")
    serializer_class = IssuerSerializer
    filterset_class = filters.IssuerFilter

    def perform_create(self, serializer):
        queue_check(serializer.save().pk)  # its proofs, once the save is committed

    def perform_update(self, serializer):
        queue_check(serializer.save().pk)

    @extend_schema(operation_id="adminCheckIssuer", request=None, responses=IssuerSerializer,
                   summary="Check the issuer's proofs now (DNS TXT, did:web), and answer it.")
    @action(detail=True, methods=["post"])
    def check(self, request, pk=None):
        issuer = issuer_check(issuer_id=self.get_object().pk)  # the network: no transaction
        if issuer is None:
            raise Http404  # deleted meanwhile
        return Response(IssuerSerializer(self.get_queryset().get(pk=issuer.pk)).data)

    @extend_schema(operation_id="adminListIssuerChecks",
                   responses=IdentityCheckSerializer(many=True),
                   summary=f"The issuer's latest {RECENT_CHECKS} checks, newest first.")
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def checks(self, request, pk=None):
        checks = self.get_object().checks.all()[:RECENT_CHECKS]
        return Response(IdentityCheckSerializer(checks, many=True).data)

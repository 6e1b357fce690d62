"""The JSON the issuer pages' scripts call: session login and CSRF token, not API keys
(docs/api.md, "The issuer pages"). Left out of the OpenAPI schema: they serve the pages,
and a browser with a session is their only client. Creating workflows goes through the
same service as POST /workflows/batch (issuance/services.py)."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from bindings.workflows import BATCH_LIMIT
from core.errors import NotFound
from core.parsers import BodyLimits
from issuance import progress
from issuance.api import serializers
from issuance.models import Run
from issuance.services import run_add_documents, run_create, tenant_holder


class IsIssuer(permissions.BasePermission):
    """A logged-in user with the permission and a tenant (tenant_holder says why not)."""

    def has_permission(self, request, view):
        request.tenant = tenant_holder(request.user)
        return True


class IssuerView(APIView):
    authentication_classes = [SessionAuthentication]  # enforces Django's CSRF check
    permission_classes = [IsIssuer]
    throttle_classes = []  # people at a browser; the tenant's key limits its API clients

    def run(self, run_id) -> Run:
        run = Run.objects.of_tenant(self.request.tenant.prefix).select_related("chain").filter(
            pk=run_id).first()
        if run is None:
            raise NotFound("No run of your issuer has this id.")
        return run


@extend_schema(exclude=True)
class RunsView(IssuerView):
    def post(self, request):
        body = serializers.RunCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        run = run_create(holder=request.tenant, user=request.user,
                         chain_id=body.validated_data["chain_id"],
                         schema_uid=body.validated_data.get("schema_id"))
        return Response(serializers.RunSerializer(run).data, status=status.HTTP_201_CREATED)


@extend_schema(exclude=True)
class RunDocumentsView(IssuerView):
    # issue.js sends up to 1,000 documents and 1,000 skipped files of two fields each
    body_limits = BodyLimits(keys=5 * BATCH_LIMIT, items=3 * BATCH_LIMIT)

    def post(self, request, run_id):
        run = self.run(run_id)
        body = serializers.RunDocumentsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        documents = run_add_documents(run=run, holder=request.tenant,
                                      documents=body.validated_data["documents"],
                                      skipped=body.validated_data["skipped"])
        return Response({"documents": serializers.RunDocumentSerializer(documents,
                                                                         many=True).data})


@extend_schema(exclude=True)
class RunProgressView(IssuerView):
    def get(self, request, run_id):
        return Response(progress.run_progress(self.run(run_id)))

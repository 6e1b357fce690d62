"""Executor jobs: an executor of a chain claims the oldest queued workflow and reports what
it did with it. Served beside the executor registry (/v1/chain-registry/{chain}/jobs/...),
which knows nothing of workflows."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from bindings import workflows
from bindings.api import serializers
from executors.api.views import CHAIN_PARAMETER
from registry.permissions import HasExecutorScope


class JobViewSet(viewsets.GenericViewSet):
    """The jobs of one chain's executors."""

    permission_classes = [HasExecutorScope]
    # An inactive chain; a job in the wrong state (OpenAPI lists the 409)
    conflict_actions = ["claim_job", "report_job"]
    lookup_field = "chain"
    lookup_value_regex = "[^/]+"

    @extend_schema(parameters=[CHAIN_PARAMETER], request=serializers.JobClaimSerializer,
                   responses={200: serializers.JobSerializer, 204: None})
    @action(detail=True, methods=["post"], url_path="jobs/claim")
    def claim_job(self, request, chain=None):
        """Take the oldest queued workflow of the chain; 204 when there is none."""
        body = serializers.JobClaimSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        job = workflows.job_claim(chain_ref=self.kwargs["chain"], holder=request.auth,
                                  executor_id=body.validated_data["executor_id"])
        if job is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(serializers.JobSerializer(job).data)

    @extend_schema(parameters=[CHAIN_PARAMETER, OpenApiParameter("workflow_id", str, OpenApiParameter.PATH)],
                   request=serializers.JobResultSerializer,
                   responses=serializers.JobResultResponseSerializer)
    @action(detail=True, methods=["post"], url_path=r"jobs/(?P<workflow_id>[^/]+)/result")
    def report_job(self, request, chain=None, workflow_id=None):
        """Report the transaction sent for a job (`txHash`), or the error met (`error`).
        403 for a job another executor holds, 409 when the job takes no result now."""
        body = serializers.JobResultSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        workflow = workflows.job_report(
            chain_ref=self.kwargs["chain"], holder=request.auth, workflow_id=workflow_id,
            executor_id=data["executor_id"], tx_hash=data.get("tx_hash"), error=data.get("error"),
        )
        return Response(serializers.JobResultResponseSerializer(workflow).data)

"""Executor jobs: an executor of a chain claims the oldest queued workflows and reports what
it did with them. Served beside the executor registry (/v1/chain-registry/{chain}/jobs/...),
which knows nothing of workflows."""

from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from bindings import jobs
from bindings.api import serializers
from core import lean
from core.parsers import DEFAULT_BODY_LIMITS, BodyLimits
from executors.api.views import CHAIN_PARAMETER
from registry.permissions import HasExecutorScope

CLAIMED = PolymorphicProxySerializer(
    component_name="JobClaimResponse", resource_type_field_name=None,
    serializers=[serializers.JobSerializer, serializers.JobBatchSerializer])


class JobViewSet(viewsets.GenericViewSet):
    """The jobs of one chain's executors."""

    permission_classes = [HasExecutorScope]
    # An inactive chain; a job in the wrong state (OpenAPI lists the 409)
    conflict_actions = ["claim_job", "report_job", "report_jobs"]
    lookup_field = "chain"
    lookup_value_regex = "[^/]+"
    body_limits = DEFAULT_BODY_LIMITS  # core/parsers.py; a report of many results has its own

    @extend_schema(parameters=[CHAIN_PARAMETER], request=serializers.JobClaimSerializer,
                   responses={200: CLAIMED, 204: None})
    @action(detail=True, methods=["post"], url_path="jobs/claim")
    def claim_job(self, request, chain=None):
        """Take the oldest queued workflow of the chain (204 when there is none); with
        `limit`, up to that many of them, as `{"jobs": [...]}`, each handed to this executor
        alone."""
        # Read and answered without DRF's slower paths (core/lean.py): an executor waiting
        # for work asks several times a second, and a batch's answer is large.
        data = lean.read_request(serializers.JobClaimSerializer, request)
        claimed = jobs.job_claim(chain_ref=self.kwargs["chain"], holder=request.auth,
                                 executor_id=data["executor_id"], limit=data.get("limit", 1))
        if "limit" in data:
            return lean.respond(serializers.JobBatchSerializer({"jobs": claimed}).data)
        if not claimed:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(serializers.JobSerializer(claimed[0]).data)

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
        workflow = jobs.job_report(
            chain_ref=self.kwargs["chain"], holder=request.auth, workflow_id=workflow_id,
            executor_id=data["executor_id"], tx_hash=data.get("tx_hash"), error=data.get("error"),
        )
        return Response(serializers.JobResultResponseSerializer(workflow).data)

    @extend_schema(parameters=[CHAIN_PARAMETER], request=serializers.JobResultsSerializer,
                   responses=serializers.JobResultsResponseSerializer)
    @action(detail=True, methods=["post"], url_path="jobs/results",
            body_limits=BodyLimits(keys=10 * serializers.MAX_RESULTS, items=2 * serializers.MAX_RESULTS))
    def report_jobs(self, request, chain=None):
        """Report the results of many jobs at once, all or nothing: when one item would be
        refused (another executor's job 403, unknown 404, not taking a result now 409,
        malformed or repeated 400), the whole call is, naming the item (`results.3`), and
        nothing is written. A repeat of the same `txHash` is a repeat, as for one job."""
        body = serializers.JobResultsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        workflows = jobs.job_report_many(chain_ref=self.kwargs["chain"], holder=request.auth,
                                         executor_id=data["executor_id"],
                                         results=[dict(item) for item in data["results"]])
        return lean.respond(serializers.JobResultsResponseSerializer({"results": workflows}).data)

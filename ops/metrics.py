"""Prometheus metrics at /metrics (prometheus-client).

Request counts and latency are counted in each process; with gunicorn's several workers set
PROMETHEUS_MULTIPROC_DIR (an empty folder, emptied at each start) so that a scrape adds up
every worker (gunicorn.conf.py marks dead workers). The state of the service (executors,
RPC endpoints, indexer lag, workflows, read replicas' lag) is read at scrape time by
`StateCollector`, so it is right whichever process answers: the Celery workers, the follower
and beat publish nothing of their own, their work shows in the database (index lag, workflows,
webhook deliveries) and in /readyz's checks (`readyz_check_ok`, run at the scrape). The alert
rules and the dashboard built on these names: deploy/prometheus, deploy/grafana.

Apps count their own events with counters of their own (verification/metrics.py): every
counter of the process is published here.
"""

import hmac
import logging
import os
import re
import time
from functools import lru_cache

from django.conf import settings
from django.db.models import Count, Min, Q
from django.http import HttpResponse
from django.utils import timezone
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from core.problems import problem_response

logger = logging.getLogger(__name__)

REQUESTS = Counter("http_requests", "HTTP requests answered, by route and status.",
                   ["method", "route", "status"])
LATENCY = Histogram("http_request_duration_seconds", "Time to answer a request, by route.",
                    ["method", "route"],
                    buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10))

_REGEX_PARAM = re.compile(r"\(\?P<(\w+)>[^)]*\)")
_ROUTE_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def route_of(request) -> str:
    """The matched route as a template (`/v1/admin/chains/{pk}`): a label of bounded
    cardinality, unlike the path. Unmatched paths (404s) share one label."""
    match = getattr(request, "resolver_match", None)
    if match is None or not match.route:
        return "unmatched"
    return _template(match.route)


@lru_cache(maxsize=1024)  # as many as there are routes
def _template(route: str) -> str:
    text = _ROUTE_PARAM.sub(r"{\1}", _REGEX_PARAM.sub(r"{\1}", route))
    return "/" + text.replace("^", "").replace("$", "").replace("\\", "")


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    REQUESTS.labels(method=method, route=route, status=str(status)).inc()
    LATENCY.labels(method=method, route=route).observe(seconds)


class StateCollector:
    """Gauges computed from the database at each scrape. Each family is read on its own:
    one that fails (a table not migrated yet) is left out and logged, the others stay."""

    def collect(self):
        for family in (self._chains, self._confirmation_times, self._executors,
                       self._rpc_endpoints, self._index, self._heads, self._workflows,
                       self._webhooks,
                       self._replicas, self._readiness):
            try:
                yield from family()
            except Exception as exc:  # a scrape must answer with what it can
                logger.warning("metrics: %s failed: %s: %s", family.__name__, type(exc).__name__, exc)

    def _chains(self):
        from registry.models import Chain

        gauge = GaugeMetricFamily("registry_chain_active",
                                  "1 when the chain is active (followed, indexed, probed), else 0.",
                                  labels=["chain_id"])
        for chain_id, status in Chain.objects.values_list("chain_id", "status"):
            gauge.add_metric([str(chain_id)], 1 if status == Chain.Status.ACTIVE else 0)
        yield gauge

    def _confirmation_times(self):
        """A family of its own: the follower's status is in the cache, which may fail while
        the database answers (registry_chain_active is not lost with it)."""
        from ops.follower import follower_status
        from registry.heads import DEFAULT_BLOCK_TIME
        from registry.models import Chain

        gauge = GaugeMetricFamily(
            "registry_chain_confirmation_seconds",
            "Expected time from a transaction's submission to its confirmations: (confirmations"
            " + 1) x the block time the follower learned (2 s until it has).",
            labels=["chain_id"])
        _, followed = follower_status()
        for chain_id, confirmations in Chain.objects.values_list("chain_id", "confirmations"):
            block_time = (followed.get(str(chain_id)) or {}).get("blockTime") or DEFAULT_BLOCK_TIME
            gauge.add_metric([str(chain_id)], (confirmations + 1) * block_time)
        yield gauge

    def _executors(self):
        from executors.models import Executor, ExecutorStatus

        gauge = GaugeMetricFamily("registry_executors", "Executors by chain and current status.",
                                  labels=["chain_id", "status"])
        now = timezone.now()
        chains = Executor.objects.values_list("chain_id", flat=True).distinct()
        for status in ExecutorStatus.values:
            rows = (Executor.objects.showing(status, now=now).values("chain_id")
                    .annotate(n=Count("id")).order_by())
            counts = {row["chain_id"]: row["n"] for row in rows}
            for chain_id in chains:
                gauge.add_metric([str(chain_id), status], counts.get(chain_id, 0))
        yield gauge

    def _rpc_endpoints(self):
        from registry.models import RpcEndpoint

        up = GaugeMetricFamily(
            "registry_rpc_endpoint_up",
            "1 when the RPC endpoint is healthy or degraded (after overrides), 0 otherwise.",
            labels=["chain_id", "endpoint_id", "provider", "status"])
        lag = GaugeMetricFamily("registry_rpc_endpoint_lag_blocks",
                                "Blocks the endpoint is behind the chain's best one.",
                                labels=["chain_id", "endpoint_id", "provider"])
        latency = GaugeMetricFamily("registry_rpc_endpoint_latency_seconds",
                                    "Latency of the last probe.",
                                    labels=["chain_id", "endpoint_id", "provider"])
        endpoints = RpcEndpoint.objects.with_override().filter(monitoring_enabled=True)
        for endpoint in endpoints:
            ids = [str(endpoint.chain_id), str(endpoint.pk), endpoint.provider]
            status = endpoint.effective_status
            up.add_metric([*ids, status], 1 if status in ("healthy", "degraded") else 0)
            if endpoint.lag_blocks is not None:
                lag.add_metric(ids, endpoint.lag_blocks)
            if endpoint.latency_ms is not None:
                latency.add_metric(ids, endpoint.latency_ms / 1000)
        yield from (up, lag, latency)

    def _index(self):
        from attestations.models import IndexCursor

        labels = ["chain_id", "deployment_id"]
        lag = GaugeMetricFamily("attestations_index_lag_blocks",
                                "Blocks between a chain's head and what the indexer has read.",
                                labels=labels)
        success = GaugeMetricFamily("attestations_index_last_success_timestamp_seconds",
                                    "When the indexer's last run of the deployment succeeded.",
                                    labels=labels)
        skipped = GaugeMetricFamily(
            "attestations_index_skipped_records",
            "Records the indexer could not store or read and went past (the latest "
            f"{IndexCursor.SKIPPED_KEPT}, listed with the reason on the cursor in the admin).",
            labels=labels)
        for cursor in IndexCursor.objects.all():
            ids = [str(cursor.chain_id), str(cursor.deployment_id)]
            if cursor.lag is not None:
                lag.add_metric(ids, cursor.lag)
            if cursor.last_success_at is not None:
                success.add_metric(ids, cursor.last_success_at.timestamp())
            skipped.add_metric(ids, len(cursor.skipped))
        yield from (lag, success, skipped)

    def _heads(self):
        """What the indexer last saw of each active chain (attestations/finality.py)."""
        from attestations.models import ChainHead

        stalled = GaugeMetricFamily(
            "chain_stalled", "1 when the chain is stalled (no new head for its stall window, "
            "or its safe/finalized block not advancing), else 0.", labels=["chain_id", "reason"])
        head_age = GaugeMetricFamily("chain_head_age_seconds",
                                     "Seconds since the chain's newest head was first seen.",
                                     labels=["chain_id"])
        final_lag = GaugeMetricFamily("chain_finality_lag_blocks",
                                      "Blocks from the chain's newest final block to its head.",
                                      labels=["chain_id"])
        now = timezone.now()
        for head in ChainHead.objects.filter(chain__status="active"):
            ids = [str(head.chain_id)]
            stalled.add_metric([*ids, head.stall_reason], 1 if head.stalled_since else 0)
            head_age.add_metric(ids, (now - head.head_at).total_seconds())
            if head.final_block is not None:
                final_lag.add_metric(ids, max(0, head.head_block - head.final_block))
        yield from (stalled, head_age, final_lag)

    def _workflows(self):
        from bindings.models import Workflow, WorkflowState

        gauge = GaugeMetricFamily("workflows", "Workflows by state.", labels=["state"])
        counts = dict(Workflow.objects.values_list("state").annotate(n=Count("pk")).order_by())
        for state in WorkflowState.values:
            gauge.add_metric([state], counts.get(state, 0))
        yield gauge

        oldest = GaugeMetricFamily("workflows_submitted_oldest_age_seconds",
                                   "Age of the chain's oldest workflow in state submitted (since "
                                   "its last transition).", labels=["chain_id"])
        now = timezone.now()
        rows = (Workflow.objects.filter(state=WorkflowState.SUBMITTED).values("chain_id")
                .annotate(since=Min("updated_at")).order_by())
        for row in rows:
            oldest.add_metric([str(row["chain_id"])], (now - row["since"]).total_seconds())
        yield oldest

    def _webhooks(self):
        from webhooks.models import Delivery, DeliveryState, Event

        counts = Delivery.objects.filter(state=DeliveryState.PENDING).aggregate(
            pending=Count("pk"), retrying=Count("pk", filter=Q(attempts__gt=0)))
        yield GaugeMetricFamily("webhook_deliveries_pending",
                                "Webhook deliveries waiting to be sent or retried (the outbox).",
                                value=counts["pending"])
        yield GaugeMetricFamily("webhook_deliveries_retrying",
                                "Pending webhook deliveries whose last attempt failed.",
                                value=counts["retrying"])
        oldest = Event.objects.filter(fanned_out=False).aggregate(at=Min("occurred_at"))["at"]
        yield GaugeMetricFamily("webhook_fan_out_oldest_age_seconds",
                                "Age of the oldest webhook event still without its deliveries "
                                "(the webhooks worker's fan-out); 0 when none waits.",
                                value=(timezone.now() - oldest).total_seconds() if oldest else 0)

    def _replicas(self):
        from core.replicas import statuses

        lag = GaugeMetricFamily("database_replica_lag_seconds",
                                "How far the read replica is behind the primary (0: caught up).",
                                labels=["replica"])
        usable = GaugeMetricFamily("database_replica_usable",
                                   "1 when the read replica answers reads, 0 when skipped.",
                                   labels=["replica"])
        for status in statuses():
            if status.lag_seconds is not None:
                lag.add_metric([status.alias], status.lag_seconds)
            usable.add_metric([status.alias], 1 if status.usable else 0)
        yield from (lag, usable)

    def _readiness(self):
        from ops.health import run_checks

        gauge = GaugeMetricFamily("readyz_check_ok",
                                  "1 when the /readyz check passes at this scrape, 0 when it fails.",
                                  labels=["check"])
        results, _ = run_checks()
        for name, result in results.items():
            gauge.add_metric([name], 1 if result["status"] == "ok" else 0)
        yield gauge


def _scrape_registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry()
        registry.register(_ProcessMetrics())
    registry.register(StateCollector())
    return registry


class _ProcessMetrics:
    """The default registry's metrics (this process's counters, process and GC figures)."""

    def collect(self):
        return REGISTRY.collect()


def metrics_view(request):
    """GET /metrics; with METRICS_TOKEN set, only with `Authorization: Bearer <token>`."""
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            response = problem_response(401, detail="Send the metrics token as a Bearer token.")
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
            return response
    if request.method not in ("GET", "HEAD"):
        response = problem_response(405)
        response["Allow"] = "GET, HEAD"
        return response
    started = time.perf_counter()
    body = generate_latest(_scrape_registry())
    logger.debug("metrics scraped in %.1f ms", (time.perf_counter() - started) * 1000)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)

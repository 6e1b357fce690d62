"""The one place that talks to chains: a web3 client over a chain's best RPC endpoints.

`chain_client(chain)` returns a Web3 whose provider tries the chain's endpoints in order of
health (healthy, degraded, unknown, down), then priority, then measured latency, and fails
over to the next on connection errors, timeouts, HTTP 429 and 5xx (and 401, 403, 404, 408:
this provider refuses the key or the path, or gave up waiting). Each failure is recorded on
the endpoint for the health model. Endpoints that answered with another chain's id, or that
an administrator marked down or in maintenance, are left out. No retries hidden in web3,
short timeouts, and never call this inside a database transaction.

Only http(s) endpoints serve this synchronous client; ws(s) endpoints are probed, and
followed for new heads (registry/heads.py).
Requests go through registry/rpc_transport.py: refused addresses, redirects and answers
over RPC_RESPONSE_MAX_BYTES fail over like a connection error.
"""

import logging

import requests
from django.db.models import F
from django.utils import timezone
from web3 import HTTPProvider, Web3
from web3.providers.base import JSONBaseProvider

from registry.models import Chain, RpcEndpoint
from registry.models.rpc import OverrideStatus, ProbeStatus
from registry.rpc_transport import RpcRefusal, rpc_session

logger = logging.getLogger(__name__)
DEFAULT_TIMEOUT_SECONDS = 5.0
_RANK = {ProbeStatus.HEALTHY: 0, ProbeStatus.DEGRADED: 1, ProbeStatus.UNKNOWN: 2, ProbeStatus.DOWN: 3}
_EXCLUDED_OVERRIDES = (OverrideStatus.DOWN, OverrideStatus.MAINTENANCE)


class NoEndpointAvailable(Exception):
    """No endpoint of the chain answered; the message lists what each one did (masked)."""


HTTP, WEBSOCKET = ("http://", "https://"), ("ws://", "wss://")


def ordered_endpoints(chain: Chain, *, schemes: tuple[str, ...] = HTTP) -> list[RpcEndpoint]:
    """The chain's usable endpoints of these URL schemes (http(s) by default), best first."""
    now = timezone.now()
    candidates = [
        endpoint for endpoint in RpcEndpoint.objects.with_override().filter(chain=chain)
        if endpoint.url.lower().startswith(schemes)
        and endpoint.answers_for_its_chain
        and endpoint.active_override(now) not in _EXCLUDED_OVERRIDES
    ]
    return sorted(candidates, key=lambda e: (
        _RANK.get(e.effective_status, 2), e.priority,
        e.latency_ms if e.latency_ms is not None else float("inf"), e.pk,
    ))


# HTTP statuses that say "this endpoint cannot serve you now" (rate limit, server error, and
# a key refused or a path unknown to this provider), not "this request is wrong": another
# endpoint may well answer. A JSON-RPC error (a revert) is an answer, never a reason.
_FAILOVER_4XX = {401, 403, 404, 408, 429}


def _failover_reason(exc: Exception) -> str | None:
    """Why `exc` should make the client try the next endpoint, or None if it should not."""
    if isinstance(exc, RpcRefusal):
        return exc.category
    if isinstance(exc, requests.HTTPError) and exc.response is not None:
        status = exc.response.status_code
        return f"HTTP {status}" if status in _FAILOVER_4XX or status >= 500 else None
    if isinstance(exc, requests.Timeout):
        return "timed out"
    if isinstance(exc, requests.ConnectionError):
        return "connection failed"
    if isinstance(exc, requests.RequestException):  # a body cut short, too many redirects
        return "request failed"
    if isinstance(exc, (ValueError, RecursionError)):  # not JSON-RPC: a proxy's page, say
        return "invalid response"
    return None


def _json_rpc(answer):
    """`answer` if it is a JSON-RPC response; what else a server may send fails over."""
    if not isinstance(answer, dict) or ("result" not in answer and "error" not in answer):
        raise ValueError("not a JSON-RPC response")
    return answer


def record_failure(endpoint: RpcEndpoint, reason: str) -> None:
    """Count a failed call toward the endpoint's health (the probes decide its status)."""
    RpcEndpoint.objects.filter(pk=endpoint.pk).update(
        consecutive_failures=F("consecutive_failures") + 1, consecutive_successes=0,
        last_error=reason[:500],
    )


class FailoverProvider(JSONBaseProvider):
    """A web3 provider over several endpoints of one chain, tried in order."""

    def __init__(self, chain: Chain, endpoints: list[RpcEndpoint], timeout: float):
        super().__init__()
        self.chain = chain
        self._targets = [
            (endpoint, HTTPProvider(endpoint.url, session=rpc_session(),
                                    request_kwargs={"timeout": timeout, "allow_redirects": False},
                                    exception_retry_configuration=None))
            for endpoint in endpoints
        ]

    def _call(self, name: str, send):
        failures = []
        for index, (endpoint, provider) in enumerate(self._targets):
            try:
                response = send(provider)
            except Exception as exc:
                reason = _failover_reason(exc)
                if reason is None:
                    raise
                failures.append(f"{endpoint.masked_url} {reason}")
                record_failure(endpoint, reason)  # our words: the server's could carry keys
                logger.warning("RPC %s on chain %s failed at %s (%s); failing over.", name,
                               self.chain.chain_id, endpoint.masked_url, reason)
                continue
            if index:  # sticky: the endpoint that answered goes first for this client
                self._targets.insert(0, self._targets.pop(index))
            return response
        raise NoEndpointAvailable(
            f"No RPC endpoint of chain {self.chain.chain_id} answered {name}: "
            + ("; ".join(failures) if failures else "none is usable") + "."
        )

    def make_request(self, method, params):
        return self._call(method, lambda provider: _json_rpc(provider.make_request(method, params)))

    def make_batch_request(self, requests_):
        def send(provider):
            answers = provider.make_batch_request(requests_)
            if isinstance(answers, list):
                return [_json_rpc(answer) for answer in answers]
            return _json_rpc(answers)  # one error for the whole batch
        return self._call("a batch", send)

    def is_connected(self, show_traceback: bool = False) -> bool:
        return any(provider.is_connected() for _, provider in self._targets)


def endpoint_clients(chain: Chain, *, timeout: float = DEFAULT_TIMEOUT_SECONDS
                     ) -> list[tuple[RpcEndpoint, Web3]]:
    """One Web3 per usable endpoint of `chain`, best first: for a caller that judges the
    answers itself and moves on from an endpoint whose answer makes no sense (live
    verification), which the provider below cannot tell from a real JSON-RPC error."""
    return [(endpoint, Web3(FailoverProvider(chain, [endpoint], timeout)))
            for endpoint in ordered_endpoints(chain)]


def chain_client(chain: Chain, *, timeout: float = DEFAULT_TIMEOUT_SECONDS,
                 url: str | None = None) -> Web3:
    """A Web3 for `chain` over its best endpoints (or over `url` alone, when given)."""
    if url is not None:
        endpoints = [RpcEndpoint(chain=chain, url=url, provider="override")]
    else:
        endpoints = ordered_endpoints(chain)
    return Web3(FailoverProvider(chain, endpoints, timeout))

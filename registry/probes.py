"""RPC endpoint probes and the health model they feed.

A probe asks eth_chainId (a wrong chain id marks the endpoint down at once and keeps it out
of rotation until it answers right), eth_blockNumber and eth_syncing, with the endpoint's
own short timeout and no retries. All due endpoints are probed concurrently, so a cycle
takes about one timeout whatever their number. Status moves with hysteresis: a failure makes
a healthy endpoint degraded, RPC_PROBE_FAILURES_TO_DOWN in a row make it down, and a down
endpoint needs RPC_PROBE_SUCCESSES_TO_HEALTHY successes in a row to come back. Lagging more
than RPC_MAX_LAG_BLOCKS behind the chain's best endpoint, or syncing, is degraded.

Whatever an endpoint answers fails its own probe only, with a short last error of our own
words (the server's text could carry markup or keys): a quantity beyond a bigint, an
answer over RPC_RESPONSE_MAX_BYTES, a redirect, a page, a JSON-RPC error, a refused address
(registry/rpc_transport.py), silence. The cycle goes on for every other endpoint.
"""

import asyncio
import json
import logging
import re
import time
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

import aiohttp
import websockets
import websockets.asyncio.client
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from core import events
from core.masking import mask_url
from core.progress import ProgressCallback, no_progress
from registry.models import RpcEndpoint, RpcProbe
from registry.models.rpc import ProbeStatus
from registry.rpc_transport import (
    CheckedResolver,
    RedirectRefused,
    ResponseTooLarge,
    RpcRefusal,
    check_literal_host,
    read_capped,
    resolve_checked,
)

logger = logging.getLogger(__name__)
LATENCY_SMOOTHING = 0.3  # weight of the newest sample in the latency average (EWMA)
LOCK_NAME = "lock:probe-rpcs"


@dataclass
class ProbeResult:
    endpoint_id: int
    ok: bool
    chain_id: int | None = None
    head_block: int | None = None
    syncing: bool = False
    latency_ms: float | None = None
    error: str = ""


class RpcError(Exception):
    """An answer that is not a usable one; `category` is all that is kept of it."""

    def __init__(self, category: str):
        super().__init__(category)
        self.category = category


INVALID = "invalid response"
# Quantities are stored in bigint columns: an answer beyond them is a wrong answer.
_QUANTITY = re.compile(r"0x[0-9a-fA-F]{1,16}")
MAX_QUANTITY = 2**63 - 1


async def _call_http(session: aiohttp.ClientSession, url: str, method: str):
    check_literal_host(urlsplit(url).hostname)  # names are checked by the resolver
    payload = {"jsonrpc": "2.0", "id": 1, "method": method, "params": []}
    async with session.post(url, json=payload, allow_redirects=False) as response:
        if 300 <= response.status < 400:
            raise RedirectRefused()
        if response.status != 200:
            raise RpcError(f"HTTP {response.status}")
        body = await read_capped(response)
    return rpc_result(parse_json(body))


# The three checks below are shared with the head follower (registry/heads.py).
def parse_json(body: bytes | str):
    try:
        return json.loads(body)
    except (ValueError, RecursionError):  # a captive portal's page, or JSON nested too deep
        raise RpcError(INVALID) from None


def rpc_result(body):
    if not isinstance(body, dict) or ("result" not in body and "error" not in body):
        raise RpcError(INVALID)
    if "error" in body:  # its message is the provider's text: not kept
        raise RpcError("JSON-RPC error")
    return body["result"]


def quantity(value) -> int:
    if not isinstance(value, str) or not _QUANTITY.fullmatch(value):
        raise RpcError(INVALID)
    number = int(value, 16)
    if number > MAX_QUANTITY:
        raise RpcError(INVALID)
    return number


class _ConnectWithoutRedirects(websockets.asyncio.client.connect):
    def process_redirect(self, exc):
        return exc  # raised as it is: a redirect is refused


async def _probe(endpoint: RpcEndpoint, session: aiohttp.ClientSession) -> ProbeResult:
    if endpoint.url.lower().startswith(("ws://", "wss://")):
        parts = urlsplit(endpoint.url)
        port = parts.port or (443 if parts.scheme.lower() == "wss" else 80)
        address = await resolve_checked(parts.hostname, port)
        async with _ConnectWithoutRedirects(
            endpoint.url, host=address, port=port, proxy=None, open_timeout=None,
            close_timeout=0.5, max_size=settings.RPC_RESPONSE_MAX_BYTES,
        ) as ws:
            async def call(method):
                await ws.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": []}))
                return rpc_result(parse_json(await ws.recv()))
            return await _ask(endpoint, call)
    return await _ask(endpoint, lambda method: _call_http(session, endpoint.url, method))


async def _ask(endpoint: RpcEndpoint, call) -> ProbeResult:
    chain_id = quantity(await call("eth_chainId"))
    started = time.perf_counter()
    head = quantity(await call("eth_blockNumber"))
    latency_ms = (time.perf_counter() - started) * 1000
    try:
        syncing = bool(await call("eth_syncing"))
    except RpcError:  # not every provider answers eth_syncing
        syncing = False
    return ProbeResult(endpoint.pk, True, chain_id, head, syncing, latency_ms)


def _failure(exc: Exception) -> str:
    """The last error shown for a failed probe: our own words, never the server's."""
    if isinstance(exc, RpcRefusal):
        return str(exc)
    if isinstance(exc, RpcError):
        return exc.category
    if isinstance(exc, websockets.InvalidStatus):
        status = exc.response.status_code
        return RedirectRefused.category if 300 <= status < 400 else f"HTTP {status}"
    if isinstance(exc, websockets.ConnectionClosed) and exc.sent and exc.sent.code == 1009:
        return ResponseTooLarge.category  # a message over max_size
    return "connection failed"


async def _probe_with_deadline(endpoint, session, limit: asyncio.Semaphore) -> ProbeResult:
    timeout = endpoint.probe_timeout_ms / 1000
    async with limit:
        try:
            return await asyncio.wait_for(_probe(endpoint, session), timeout)
        except TimeoutError:
            return ProbeResult(endpoint.pk, False, error=f"timed out after {endpoint.probe_timeout_ms} ms")
        except (RpcRefusal, RpcError, aiohttp.ClientError, OSError,
                websockets.WebSocketException) as exc:
            return ProbeResult(endpoint.pk, False, error=_failure(exc))
        except Exception as exc:  # one odd answer must not end the cycle for every endpoint
            logger.warning("Probe of RPC endpoint %s failed unexpectedly.", endpoint.pk,
                           exc_info=True)
            return ProbeResult(endpoint.pk, False, error=f"probe failed: {type(exc).__name__}")


async def _probe_all(endpoints, progress: ProgressCallback) -> list[ProbeResult]:
    limit = asyncio.Semaphore(settings.RPC_PROBE_CONCURRENCY)
    # Keep-alive: an endpoint's three calls share one connection (one TCP and TLS setup, not
    # three), and the latency sample is a JSON-RPC round trip, as the chain client sees it.
    connector = aiohttp.TCPConnector(limit=settings.RPC_PROBE_CONCURRENCY,
                                     resolver=CheckedResolver())
    # With more endpoints than slots, the ones that failed last time start first: a timeout
    # holds its slot for the whole timeout, and queued behind fast probes it would end late.
    queue = sorted(endpoints, key=lambda endpoint: endpoint.consecutive_failures == 0)
    done = 0

    async def probed(endpoint):
        nonlocal done
        result = await _probe_with_deadline(endpoint, session, limit)
        done += 1
        progress(done, len(queue))
        return result

    async with aiohttp.ClientSession(connector=connector) as session:
        return await asyncio.gather(*(probed(e) for e in queue))


def probe_endpoints(endpoints: list[RpcEndpoint], *,
                    progress: ProgressCallback = no_progress) -> list[ProbeResult]:
    """Probe `endpoints` concurrently (network only; nothing is written); one result per
    endpoint, not in their order. `progress(done, total)` as each probe ends."""
    return asyncio.run(_probe_all(endpoints, progress)) if endpoints else []


def next_status(endpoint: RpcEndpoint, result: ProbeResult, lagging: bool) -> str:
    """The status after this probe; the endpoint's counters are already updated."""
    if not result.ok:
        if endpoint.consecutive_failures >= settings.RPC_PROBE_FAILURES_TO_DOWN:
            return ProbeStatus.DOWN
        if endpoint.status == ProbeStatus.HEALTHY:
            return ProbeStatus.DEGRADED
        return endpoint.status
    if not endpoint.answers_for_its_chain:
        return ProbeStatus.DOWN
    recovering = endpoint.status == ProbeStatus.DOWN
    if recovering and endpoint.consecutive_successes < settings.RPC_PROBE_SUCCESSES_TO_HEALTHY:
        return ProbeStatus.DOWN
    return ProbeStatus.DEGRADED if (lagging or result.syncing) else ProbeStatus.HEALTHY


def apply_results(results: list[ProbeResult], now=None) -> list[RpcEndpoint]:
    """Fold probe results into the endpoints' health and history."""
    now = now or timezone.now()
    endpoints = RpcEndpoint.objects.in_bulk([r.endpoint_id for r in results])
    updated = []
    for result in results:
        endpoint = endpoints.get(result.endpoint_id)
        if endpoint is None:  # deleted while being probed
            continue
        _count(endpoint, result)
        endpoint.last_checked_at = now
        updated.append((endpoint, result))

    best = _best_heads({e.chain_id for e, _ in updated}, [e for e, _ in updated], now)
    changed = []
    for endpoint, result in updated:
        if result.ok and endpoint.answers_for_its_chain and endpoint.head_block is not None:
            endpoint.lag_blocks = max(0, best.get(endpoint.chain_id, 0) - endpoint.head_block)
        lagging = (endpoint.lag_blocks or 0) > settings.RPC_MAX_LAG_BLOCKS
        before, endpoint.status = endpoint.status, next_status(endpoint, result, lagging)
        if endpoint.status != before:
            changed.append((endpoint, before))

    with transaction.atomic():
        _save_health([e for e, _ in updated])
        for endpoint, before in changed:
            _emit_status_changed(endpoint, before, now)
        RpcProbe.objects.bulk_create(
            [RpcProbe(endpoint=e, checked_at=now, ok=r.ok and e.answers_for_its_chain,
                      latency_ms=r.latency_ms, head_block=r.head_block, error=e.last_error if not
                      (r.ok and e.answers_for_its_chain) else "")
             for e, r in updated],
            batch_size=1000,
        )
        RpcProbe.objects.filter(
            checked_at__lt=now - timedelta(hours=settings.RPC_PROBE_RETENTION_HOURS)
        ).delete()
    return [e for e, _ in updated]


def _emit_status_changed(endpoint: RpcEndpoint, before: str, now) -> None:
    """Tell core.events (the webhooks' outbox) of a probe status change; the URL masked."""
    events.emit("rpc_endpoint.status_changed", {
        "rpcId": endpoint.pk, "chainId": endpoint.chain_id, "provider": endpoint.provider,
        "url": mask_url(endpoint.url), "from": before, "to": endpoint.status,
        "cause": "probe", "lastError": endpoint.last_error or None,
    }, occurred_at=now, chain_id=endpoint.chain_id)


HEALTH_FIELDS = ["status", "latency_ms", "head_block", "lag_blocks", "consecutive_failures",
                 "consecutive_successes", "observed_chain_id", "syncing", "last_checked_at",
                 "last_error"]


def _save_health(endpoints: list[RpcEndpoint]) -> None:
    """Write the health fields: one UPDATE per endpoint, sent as one batch (executemany).

    Not bulk_update(): Django builds its CASE WHEN expressions at about 2 ms a row, which is
    a second of CPU for 500 endpoints, on top of a cycle meant to take one probe timeout.
    """
    fields = [RpcEndpoint._meta.get_field(name) for name in HEALTH_FIELDS]
    quote = connection.ops.quote_name
    sql = (f"UPDATE {quote(RpcEndpoint._meta.db_table)} SET "
           + ", ".join(f"{quote(field.column)} = %s" for field in fields)
           + f" WHERE {quote(RpcEndpoint._meta.pk.column)} = %s")
    rows = [[field.get_db_prep_save(getattr(endpoint, field.attname), connection)
             for field in fields] + [endpoint.pk] for endpoint in endpoints]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _count(endpoint: RpcEndpoint, result: ProbeResult) -> None:
    if result.ok:
        endpoint.observed_chain_id = result.chain_id
    if result.ok and endpoint.answers_for_its_chain:
        endpoint.consecutive_successes += 1
        endpoint.consecutive_failures = 0
        endpoint.head_block, endpoint.syncing = result.head_block, result.syncing
        previous = endpoint.latency_ms
        endpoint.latency_ms = round(result.latency_ms if previous is None else
                                    LATENCY_SMOOTHING * result.latency_ms
                                    + (1 - LATENCY_SMOOTHING) * previous, 2)
        return
    endpoint.consecutive_failures += 1
    endpoint.consecutive_successes = 0
    if result.ok:  # it answered, for another chain
        endpoint.last_error = (f"Answers chain id {result.chain_id}, but is registered for "
                               f"chain id {endpoint.chain_id}.")
    else:
        endpoint.last_error = result.error[:500]


def _best_heads(chain_ids, fresh: list[RpcEndpoint], now) -> dict[int, int]:
    """The highest head block per chain: this cycle's answers and other recent ones."""
    recent = now - timedelta(minutes=5)
    best = dict(
        RpcEndpoint.objects.filter(chain_id__in=chain_ids, last_checked_at__gte=recent)
        .exclude(pk__in=[e.pk for e in fresh])
        .filter(Q(observed_chain_id__isnull=True) | Q(observed_chain_id=F("chain_id")))
        .values("chain_id").annotate(best=Max("head_block")).values_list("chain_id", "best")
    )
    for endpoint in fresh:
        if endpoint.answers_for_its_chain and endpoint.head_block is not None \
                and endpoint.consecutive_failures == 0:
            best[endpoint.chain_id] = max(best.get(endpoint.chain_id) or 0, endpoint.head_block)
    return best


def chains_due(now=None) -> list[int]:
    """The chains with a monitored endpoint whose probe is due."""
    now = now or timezone.now()
    return sorted({endpoint.chain_id for endpoint in RpcEndpoint.objects.filter(
        monitoring_enabled=True) if endpoint.is_probe_due(now)})


def probe_rpcs(*, due_only: bool = True, chain=None, now=None,
               progress: ProgressCallback = no_progress) -> dict:
    """One probe cycle (of `chain`'s endpoints only, when given); returns counts by status.
    Skipped while another cycle of the same scope runs."""
    now = now or timezone.now()
    lock = LOCK_NAME if chain is None else f"{LOCK_NAME}:{chain.pk}"
    if not cache.add(lock, True, timeout=300):
        return {"skipped": "another probe cycle is running"}
    try:
        endpoints = RpcEndpoint.objects.filter(monitoring_enabled=True)
        if chain is not None:
            endpoints = endpoints.filter(chain=chain)
        endpoints = [e for e in endpoints if not due_only or e.is_probe_due(now)]
        results = probe_endpoints(endpoints, progress=progress)
        updated = apply_results(results, now)
    finally:
        cache.delete(lock)
    counts = Counter(str(endpoint.status) for endpoint in updated)
    order = [ProbeStatus.HEALTHY, ProbeStatus.DEGRADED, ProbeStatus.UNKNOWN, ProbeStatus.DOWN]
    return {"probed": len(updated), **{s.value: counts[s.value] for s in order if counts[s.value]}}

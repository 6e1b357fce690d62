"""Following a chain's head: each new block, as soon as it exists.

Where the chain has a ws(s) RPC endpoint: an `eth_subscribe` `newHeads` subscription (the
node pushes each block). Otherwise, or while the websocket is down: `eth_blockNumber` over
the chain client, polled at the chain's block time (learned from the timestamps of recent
blocks): the first poll one block time after the last new head, then quick ones until the
next shows, so a block is seen within a fraction of a block time for two or three calls.

`HeadFollower(chain_id, on_head).run(stop)` calls `on_head(number)` for every head it has not
reported: a higher one, and also a lower one or the same number with another hash (a
reorganisation: the indexer compares block hashes and rolls back). Reports are at most
MIN_REPORT_GAP apart; heads in between are folded into the next report. Nothing an endpoint
sends stops it: garbage, errors, silence, refused addresses, a dropped connection each cost
a reconnection after a back-off (polling meanwhile), logged with the masked URL.
"""

import json
import logging
import statistics
import threading
import time
from urllib.parse import urlsplit

import websockets
from django.db import close_old_connections, connection
from websockets.sync.client import connect

from registry.chain_client import (
    HTTP,
    WEBSOCKET,
    NoEndpointAvailable,
    chain_client,
    ordered_endpoints,
)
from registry.models import Chain, RpcEndpoint
from registry.probes import RpcError, parse_json, quantity, rpc_result
from registry.rpc_transport import RpcRefusal, checked_socket

logger = logging.getLogger(__name__)

# Block times are learned from the last LEARN_BLOCKS blocks, within these bounds, and again
# every RELEARN_SECONDS (or after a failure); DEFAULT_BLOCK_TIME until they are known.
LEARN_BLOCKS = 20
MIN_BLOCK_TIME, MAX_BLOCK_TIME, DEFAULT_BLOCK_TIME = 0.25, 30.0, 2.0
RELEARN_SECONDS = 300
QUICK_POLL_SHARE, MIN_QUICK_POLL = 1 / 8, 0.05  # polls while a block is due
MIN_REPORT_GAP = 0.2  # seconds between two reports of one chain: a flood is folded
BACKOFF_FIRST, BACKOFF_MAX = 1.0, 30.0  # seconds, doubled per failure in a row
TIMEOUT_SECONDS = 5.0  # per call, and to open a websocket
HEAD_MESSAGE_MAX_BYTES = 1024 * 1024  # a newHeads message is a block header: 1 KiB or so
SUBSCRIBE_ID, BLOCK_NUMBER_ID = 1, 2
MIN_STALL_SECONDS = 10.0  # a websocket quiet this long (or 3 block times) is asked for a sign


def _drop_unusable_connection() -> None:
    """Outside requests nobody else closes a broken or expired database connection; one
    with a transaction in hand (a test's) is left alone."""
    if not connection.in_atomic_block:
        close_old_connections()


class Stalled(Exception):
    """The websocket went silent: not even eth_blockNumber was answered."""


def block_time(w3) -> float:
    """Seconds between blocks: the median gap of the last LEARN_BLOCKS blocks' timestamps
    (whole seconds: when half the gaps are 0, the mean over the span), within the bounds."""
    head = quantity(rpc_result(w3.provider.make_request("eth_blockNumber", [])))
    numbers = range(max(0, head - LEARN_BLOCKS), head + 1)
    blocks = w3.provider.make_batch_request(
        [("eth_getBlockByNumber", [hex(n), False]) for n in numbers])
    if not isinstance(blocks, list) or len(blocks) != len(numbers):
        raise RpcError("invalid response")
    headers = [rpc_result(answer) for answer in blocks]
    stamps = [quantity(header.get("timestamp")) for header in headers if isinstance(header, dict)]
    gaps = [later - earlier for earlier, later in zip(stamps, stamps[1:])]
    if not gaps:
        return DEFAULT_BLOCK_TIME
    seconds = statistics.median(gaps) or (stamps[-1] - stamps[0]) / len(gaps)
    return min(MAX_BLOCK_TIME, max(MIN_BLOCK_TIME, seconds))


class HeadFollower:
    """Follows one chain's head (see the module's docstring); one thread per chain."""

    def __init__(self, chain_id: int, on_head):
        self.chain_id, self.on_head = chain_id, on_head
        self.block_time = DEFAULT_BLOCK_TIME
        self.learned_at = -RELEARN_SECONDS
        self.seen: tuple[int, str | None] | None = None  # the last head and its hash
        self.pending: int | None = None  # a head not reported yet (MIN_REPORT_GAP)
        self.reported_at = -MIN_REPORT_GAP
        self.failures = 0
        self.mode = "starting"  # "websocket" or "polling", for the follower's status
        self.stop = threading.Event()

    def status(self) -> dict:
        return {"mode": self.mode, "blockTime": self.block_time,
                "head": self.seen[0] if self.seen else None}

    # --- the loop -------------------------------------------------------------------------

    def run(self, stop: threading.Event | None = None) -> None:
        """Until `stop` (or self.stop) is set: the websocket while there is one, polling
        otherwise and during the back-off after each failure."""
        self.stop = stop or self.stop
        while not self.stop.is_set():
            _drop_unusable_connection()
            try:
                endpoints = self._endpoints(WEBSOCKET)
                if endpoints:
                    self._follow_websocket(endpoints)
                else:  # look for a new ws endpoint now and then
                    self._poll(until=time.monotonic() + RELEARN_SECONDS)
            except Exception as exc:
                self.failures += 1
                delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (self.failures - 1))
                logger.warning("Following chain %s: %s; again in %.0f s (polling meanwhile).",
                               self.chain_id, _describe(exc), delay)
                self._poll(until=time.monotonic() + delay)

    def _endpoints(self, schemes) -> list[RpcEndpoint]:
        chain = Chain.objects.get(pk=self.chain_id)
        return ordered_endpoints(chain, schemes=schemes)

    # --- websocket ------------------------------------------------------------------------

    def _follow_websocket(self, endpoints: list[RpcEndpoint]) -> None:
        endpoint = endpoints[0]  # the best; failures move it down through the probes
        parts = urlsplit(endpoint.url)
        port = parts.port or (443 if parts.scheme.lower() == "wss" else 80)
        sock = checked_socket(parts.hostname, port, TIMEOUT_SECONDS)
        with connect(endpoint.url, sock=sock, proxy=None, open_timeout=TIMEOUT_SECONDS,
                     close_timeout=1, max_size=HEAD_MESSAGE_MAX_BYTES, compression=None) as ws:
            ws.send(json.dumps({"jsonrpc": "2.0", "id": SUBSCRIBE_ID, "method": "eth_subscribe",
                                "params": ["newHeads"]}))
            subscription = self._answer(ws, SUBSCRIBE_ID)
            if not isinstance(subscription, str):
                raise RpcError("invalid response")
            logger.info("Following chain %s through newHeads at %s.", self.chain_id,
                        endpoint.masked_url)
            self.mode = "websocket"
            self._learn(chain_client(Chain.objects.get(pk=self.chain_id),
                                     timeout=TIMEOUT_SECONDS))
            self._read_heads(ws, subscription)

    def _answer(self, ws, request_id: int):
        """The result of our request `request_id`; notifications that come first are read
        as they come."""
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while True:
            message = parse_json(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if isinstance(message, dict) and message.get("id") == request_id:
                return rpc_result(message)

    def _read_heads(self, ws, subscription: str) -> None:
        silent_since = time.monotonic()
        asked = False
        while not self.stop.is_set():
            self._flush()
            try:
                raw = ws.recv(timeout=self._wake_in(1.0))
            except TimeoutError:
                silence = time.monotonic() - silent_since
                if silence > self._stall_seconds() and not asked:
                    # Quiet for long: is the node still there? (anvil without mining is.)
                    ws.send(json.dumps({"jsonrpc": "2.0", "id": BLOCK_NUMBER_ID,
                                        "method": "eth_blockNumber", "params": []}))
                    asked = True
                elif silence > self._stall_seconds() + TIMEOUT_SECONDS:
                    raise Stalled("no answer over the websocket") from None
                continue
            message = parse_json(raw)
            silent_since, asked = time.monotonic(), False
            if not isinstance(message, dict):
                raise RpcError("invalid response")
            if message.get("id") == BLOCK_NUMBER_ID:
                self._saw(quantity(rpc_result(message)), None)
            elif message.get("method") == "eth_subscription":
                params = message.get("params")
                if not isinstance(params, dict) or params.get("subscription") != subscription:
                    continue  # another subscription's: not ours to read
                header = params.get("result")
                if not isinstance(header, dict):
                    raise RpcError("invalid response")
                block_hash = header.get("hash")
                self._saw(quantity(header.get("number")),
                          block_hash if isinstance(block_hash, str) else None)
            self.failures = 0

    def _stall_seconds(self) -> float:
        return max(MIN_STALL_SECONDS, 3 * self.block_time)

    # --- polling --------------------------------------------------------------------------

    def _poll(self, until: float) -> None:
        """eth_blockNumber over the chain's http(s) endpoints until `until` (monotonic);
        nothing to poll: wait. Errors are logged and polled through with a back-off."""
        w3, last_new, errors = None, time.monotonic(), 0
        self.mode = "polling"
        while not self.stop.is_set() and time.monotonic() < until:
            self._flush()
            try:
                if w3 is None:
                    _drop_unusable_connection()
                    if not self._endpoints(HTTP):
                        self.stop.wait(self._wake_in(min(BACKOFF_MAX, until - time.monotonic())))
                        continue
                    w3 = chain_client(Chain.objects.get(pk=self.chain_id),
                                      timeout=TIMEOUT_SECONDS)
                self._learn(w3)
                if self._saw(quantity(rpc_result(w3.provider.make_request(
                        "eth_blockNumber", []))), None):
                    last_new = time.monotonic()
                errors = 0
            except Exception as exc:
                errors += 1
                w3 = None  # the endpoints may have changed: read them again
                delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (errors - 1))
                logger.warning("Polling the head of chain %s: %s; again in %.0f s.",
                               self.chain_id, _describe(exc), delay)
                self.stop.wait(self._wake_in(min(delay, max(0.0, until - time.monotonic()))))
                continue
            self.stop.wait(self._wake_in(self._next_poll_in(time.monotonic() - last_new)))

    def _next_poll_in(self, since_new: float) -> float:
        """One block time after the last new head (less a quick poll's worth), then quick
        polls while the block is due; a chain quiet for 3 block times is polled once a
        block time (anvil mining on demand, a halted chain)."""
        quick = max(MIN_QUICK_POLL, QUICK_POLL_SHARE * self.block_time)
        if since_new < self.block_time - quick:
            return self.block_time - quick - since_new
        return quick if since_new < 3 * self.block_time else self.block_time

    def _learn(self, w3) -> None:
        """The block time, every RELEARN_SECONDS; what cannot be learned keeps the last."""
        if time.monotonic() - self.learned_at < RELEARN_SECONDS:
            return
        self.learned_at = time.monotonic()
        try:
            self.block_time = block_time(w3)
        except Exception as exc:
            logger.info("Chain %s: block time not learned (%s); %.2f s assumed.",
                        self.chain_id, _describe(exc), self.block_time)
            return
        logger.info("Chain %s: a block every %.2f s.", self.chain_id, self.block_time)

    # --- reports --------------------------------------------------------------------------

    def _saw(self, number: int, block_hash: str | None) -> bool:
        """Note a head; True when it is news (to report)."""
        previous = self.seen
        if previous is not None and previous[0] == number and (
                block_hash is None or previous[1] in (None, block_hash)):
            if previous[1] is None and block_hash is not None:
                self.seen = (number, block_hash)
            return False
        self.seen = (number, block_hash)
        if previous is not None and number < previous[0]:
            logger.info("Chain %s: the head went back from %s to %s (reorganisation).",
                        self.chain_id, previous[0], number)
        self.pending = number
        self._flush()
        return True

    def _flush(self) -> None:
        if self.pending is None or time.monotonic() - self.reported_at < MIN_REPORT_GAP:
            return
        number, self.pending = self.pending, None
        self.reported_at = time.monotonic()
        try:
            self.on_head(number)
        except Exception:  # queueing failed (a broker down): the next head tries again
            logger.warning("Chain %s: head %s could not be handed on.", self.chain_id, number,
                           exc_info=True)

    def _wake_in(self, seconds: float) -> float:
        """`seconds`, or less when a folded report is due sooner."""
        if self.pending is None:
            return max(0.0, seconds)
        due = MIN_REPORT_GAP - (time.monotonic() - self.reported_at)
        return max(0.0, min(seconds, due))


def _describe(exc: Exception) -> str:
    """Our words for a failure: a server's own text (an error message, a close reason)
    could carry markup or keys, so only our exceptions' messages are shown."""
    if isinstance(exc, RpcError):
        return exc.category
    if isinstance(exc, (RpcRefusal, NoEndpointAvailable)):  # URLs masked in the latter
        return str(exc)
    if isinstance(exc, websockets.InvalidStatus):
        return f"HTTP {exc.response.status_code}"
    if isinstance(exc, Stalled):
        return "the websocket went silent"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return f"failed ({type(exc).__name__})"

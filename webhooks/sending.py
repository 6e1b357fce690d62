"""One attempt at a delivery: the signed POST, within a hard deadline.

Signing is Standard Webhooks' (the `standardwebhooks` package): `webhook-id` (the
delivery's id, the same at every attempt), `webhook-timestamp` (the attempt's), and
`webhook-signature`, one `v1,...` per secret in force (two during a rotation's overlap).

The whole attempt (name lookup, connection, TLS, the request, the answer's headers and
body) ends WEBHOOKS_TIMEOUT_SECONDS after it starts, however slowly the receiver dribbles:
an asyncio timeout around aiohttp cancels it wherever it is, not a timeout per read. Its
outcome is always one of ours (the receiver's status, or a failure in our words), so that
the caller records every attempt. The addresses follow the RPC endpoints' rules under
WEBHOOKS_ALLOW_PRIVATE (registry/rpc_transport.py: the resolver refuses a name with a
refused address, literal ones are checked here), redirects are not followed, no environment
proxy is used. The answer is read up to 64 KiB; its first characters are kept, but not when
the receiver is at a private address (only reachable with WEBHOOKS_ALLOW_PRIVATE): a
subscriber must not read an internal service's answers through the API.
"""

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

import aiohttp
from django.conf import settings
from django.utils import timezone
from standardwebhooks import Webhook

from registry.rpc_transport import CheckedResolver, RpcRefusal, check_literal_host, is_public
from webhooks.models import Delivery, Subscription
from webhooks.secrets import unseal

logger = logging.getLogger(__name__)
PRIVATE_SETTING = "WEBHOOKS_ALLOW_PRIVATE"
EXCERPT_CHARS = 1000
MAX_ANSWER_BYTES = 64 * 1024  # read no more of a receiver's answer
USER_AGENT = "chain-registry-webhooks/1"
NOT_KEPT = "(not kept: the receiver is at a private address)"


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status_code: int | None = None
    latency_ms: int = 0
    error: str = ""
    excerpt: str = ""


def scheme_refusal(url: str) -> str | None:
    """Why a subscription's URL is refused by its scheme, or None."""
    scheme = urlsplit(url).scheme.lower()
    if scheme == "https" or (scheme == "http" and settings.WEBHOOKS_ALLOW_PRIVATE):
        return None
    return "Only https URLs are allowed (http too when WEBHOOKS_ALLOW_PRIVATE is true)."


def signing_secrets(subscription: Subscription, now) -> list[str]:
    """The secrets in force, clear (cryptography's InvalidToken when they cannot be
    decrypted: the key they were sealed under is gone)."""
    found = [unseal(subscription.secret_encrypted)]
    expires = subscription.previous_secret_expires_at
    if subscription.previous_secret_encrypted and expires is not None and expires > now:
        found.append(unseal(subscription.previous_secret_encrypted))
    return found


def signed_request(delivery: Delivery, now: datetime) -> tuple[bytes, dict]:
    """The body and headers of one attempt."""
    body = json.dumps(delivery.event.payload(), separators=(",", ":"), ensure_ascii=False)
    at = now.astimezone(UTC)
    signatures = " ".join(Webhook(secret).sign(delivery.webhook_id, at, body)
                          for secret in signing_secrets(delivery.subscription, now))
    return body.encode(), {
        "content-type": "application/json", "user-agent": USER_AGENT,
        "accept-encoding": "identity",  # the excerpt is of the bytes sent: nothing to inflate
        "webhook-id": delivery.webhook_id, "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signatures,
    }


def send(delivery: Delivery, *, sender: "Sender | None" = None) -> Outcome:
    """POST the delivery once (network only; nothing is written), with `sender` (a run's)
    or a sender of its own."""
    url = delivery.subscription.url
    if scheme_refusal(url) is not None:
        return Outcome(False, error="scheme refused")
    body, headers = signed_request(delivery, timezone.now())
    if sender is None:
        with Sender() as own:
            return own.post(url, body, headers)
    return sender.post(url, body, headers)


class Sender:
    """A delivery run's HTTP client: an event loop and an aiohttp session of its own, kept
    across the run's attempts (one connection to the receiver while it keeps it alive)."""

    def __enter__(self) -> "Sender":
        self._runner = asyncio.Runner()
        self._session = self._runner.run(self._open())
        return self

    def __exit__(self, *exc) -> None:
        try:
            self._runner.run(self._session.close())
        finally:
            self._runner.close()

    @staticmethod
    async def _open() -> aiohttp.ClientSession:
        resolver = CheckedResolver(private_setting=PRIVATE_SETTING)
        return aiohttp.ClientSession(connector=aiohttp.TCPConnector(resolver=resolver),
                                     trust_env=False, auto_decompress=False)

    def post(self, url: str, body: bytes, headers: dict) -> Outcome:
        seconds = settings.WEBHOOKS_TIMEOUT_SECONDS
        started = time.monotonic()
        try:
            status, answer, private = self._runner.run(
                asyncio.wait_for(self._post(url, body, headers), seconds))
        except TimeoutError:
            return Outcome(False, latency_ms=_ms(started), error=f"timed out after {seconds} s")
        except RpcRefusal as exc:
            return Outcome(False, latency_ms=_ms(started), error=str(exc)[:200])
        except (aiohttp.ClientError, OSError):
            return Outcome(False, latency_ms=_ms(started), error="connection failed")
        except Exception as exc:  # whatever it was, the attempt is recorded
            logger.warning("Webhook POST to %s failed unexpectedly.", urlsplit(url).hostname,
                           exc_info=True)
            return Outcome(False, latency_ms=_ms(started),
                           error=f"delivery failed: {type(exc).__name__}")
        excerpt = NOT_KEPT if private else (
            answer[:EXCERPT_CHARS * 4].decode("utf-8", "replace")[:EXCERPT_CHARS])
        error = ("redirect refused" if 300 <= status < 400
                 else "" if 200 <= status < 300 else f"HTTP {status}")
        return Outcome(200 <= status < 300, status, _ms(started), error, excerpt)

    async def _post(self, url: str, body: bytes, headers: dict) -> tuple[int, bytes, bool]:
        """(status, the answer's first bytes, whether the receiver's address is private)."""
        check_literal_host(urlsplit(url).hostname, PRIVATE_SETTING)  # names: the resolver
        async with self._session.post(url, data=body, headers=headers,
                                      allow_redirects=False) as response:
            transport = response.connection and response.connection.transport
            peer = transport and transport.get_extra_info("peername")
            answer = bytearray()
            async for chunk in response.content.iter_any():
                answer += chunk
                if len(answer) >= MAX_ANSWER_BYTES:
                    break
        return response.status, bytes(answer[:MAX_ANSWER_BYTES]), not peer or not is_public(peer[0])


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)

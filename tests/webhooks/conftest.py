"""A real HTTP receiver on 127.0.0.1 (http.server in a thread) that records what it gets and
can be taken down and brought back on the same port."""

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from rest_framework.test import APIClient
from standardwebhooks import Webhook

# The bindings tests' chain (31337, "anvil"), document schema and executor.
from tests.bindings.conftest import (  # noqa: F401
    chain,
    document_schema,
    executor_client,
    my_executor,
)

# The real worker's fixtures (its own queue on the test Redis, started and stopped by pid).
from tests.executors.test_celery_worker import (  # noqa: F401
    broker_url,
    forget_results,
    queue,
    start_worker,
)
from webhooks.delivery import subscription_deliver
from webhooks.models import Subscription
from webhooks.outbox import fan_out


@dataclass
class Received:
    headers: dict
    body: bytes

    @property
    def webhook_id(self) -> str:
        return self.headers["webhook-id"]

    def verified(self, secret: str) -> dict:
        """The payload, checked with Standard Webhooks' own verification."""
        return Webhook(secret).verify(self.body, self.headers)


class Receiver:
    def __init__(self):
        self.received: list[Received] = []
        self.status = 200
        # Set `hold` to keep each answer back until it is set: `arrived` says a request came.
        self.hold: threading.Event | None = None
        self.arrived = threading.Event()
        self.port = 0
        self._server = None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.received.append(
                    Received({k.lower(): v for k, v in self.headers.items()}, body))
                receiver.arrived.set()
                if receiver.hold is not None:
                    receiver.hold.wait(30)
                self.send_response(receiver.status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"thanks" if receiver.status < 300 else b"not now")

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        """Down: the port refuses connections."""
        self._server.shutdown()
        self._server.server_close()

    def payloads(self) -> list[dict]:
        return [json.loads(r.body) for r in self.received]

    def types(self) -> list[str]:
        return [p["type"] for p in self.payloads()]


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _private_allowed(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.WEBHOOKS_MEMO_SECONDS = 0


def client_for(key: str, *, bearer: bool = False) -> APIClient:
    client = APIClient()
    if bearer:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    else:
        client.credentials(HTTP_X_API_KEY=key)
    return client


def subscribe(client: APIClient, url: str, event_types: list[str], **filters) -> tuple[str, str]:
    """Subscribe through the API: (subscription id, secret)."""
    response = client.post("/v1/webhooks", {"url": url, "eventTypes": event_types, **filters},
                           format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"], response.json()["secret"]


def deliver(subscription_id) -> int:
    """The fan-out, then one run of the subscription."""
    fan_out()
    return subscription_deliver(subscription_id)


def deliver_all() -> int:
    """What the webhooks worker would do after the commits: the fan-out, then a run per
    subscription."""
    fan_out()
    return sum(subscription_deliver(pk) for pk in Subscription.objects.values_list("pk", flat=True))

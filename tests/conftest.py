import os
import time
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace
from typing import TYPE_CHECKING, NoReturn

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient
from web3 import HTTPProvider, Web3

from registry.models import ApiKey, KeyScope
from tests import redis_db

if TYPE_CHECKING:
    from attestations.eas import EasDeployment
    from tests.anvil import Anvil


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache (API keys are cached there for a minute:
    registry/key_cache.py), nothing remembered by the process (subscriptions, issuers, the
    indexer's chain clients), and every
    breaker closed (a test's hung or closed server must not leave the next test without its
    cache or database)."""
    from django.core.cache import cache

    from attestations.indexer import forget_clients
    from core import cache as cache_module
    from core import throttling
    from core.postgresql import base as postgresql
    from issuers import directory
    from webhooks import routing

    def start_over():
        cache_module.breaker.close()
        for breaker in postgresql._breakers.values():
            breaker.close()
        cache.clear()
        throttling._here.clear()
        routing.forget()  # subscriptions of an earlier test were rolled back
        directory.forget()  # and its issuers
        forget_clients()  # chain clients over the endpoints of an earlier test

    start_over()
    yield
    start_over()


@pytest.fixture(autouse=True)
def _one_rate_window(monkeypatch):
    """Rate limits count in fixed windows (core/throttling.py). A test's few requests could
    straddle a window's boundary and find the count started again: seen once in CI, with
    the first of four requests at 10:40:59.988 and the other three in the next minute, so
    the fourth was not refused. The throttle's clock in this process stands still at the
    test's start instead, so all of a test's requests fall in one window."""
    started = time.time()
    monkeypatch.setattr("core.throttling.time", SimpleNamespace(time=lambda: started))


# anvil's development accounts (its default mnemonic): the executors of the chain tests.
ANVIL_ACCOUNTS = [address.lower() for address in (
    "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65", "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    "0x976EA74026E726554dB657fA54763abd0C3a0aa9", "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
    "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f", "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720")]


def make_key(scope: str, *, allowed_addresses=None, **kwargs) -> str:
    """Create a stored key of `scope`; returns the raw key. An executor key's standing
    allow-list names anvil's development accounts unless `allowed_addresses` says otherwise:
    the chain tests' executors are trusted at registration, as an administrator would have
    set it up (tests/executors/test_trust*.py test approval itself)."""
    key, raw_key = ApiKey.issue(name=f"test-{scope}", scope=scope, **kwargs)
    if allowed_addresses is None:
        allowed_addresses = ANVIL_ACCOUNTS if scope == KeyScope.EXECUTOR else []
    if allowed_addresses:
        ApiKey.objects.filter(pk=key.pk).update(allowed_addresses=list(allowed_addresses))
    return raw_key


@pytest.fixture
def admin_key(db) -> str:
    return make_key(KeyScope.ADMIN)


@pytest.fixture
def api_key(db) -> str:
    return make_key(KeyScope.API)


@pytest.fixture
def executor_key(db) -> str:
    return make_key(KeyScope.EXECUTOR)


@pytest.fixture
def expired_key(db) -> str:
    return make_key(KeyScope.ADMIN, expires_at=timezone.now() - timedelta(seconds=1))


@pytest.fixture
def anon() -> APIClient:
    """A client without credentials."""
    return APIClient()


@pytest.fixture
def admin(admin_key) -> APIClient:
    """A client with an admin key in `Authorization: Bearer`."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {admin_key}")
    return client


@pytest.fixture
def api(api_key) -> APIClient:
    """A client with an api key in `X-API-Key`."""
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=api_key)
    return client


def missing(what: str, how: str) -> NoReturn:
    """A service or tool the test needs is absent: a failure in CI, where every one is
    mandatory, and a skip elsewhere, saying `how` to get it."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what}, and CI requires it.")
    pytest.skip(f"{what} ({how}).")


def redis_test_url() -> str:
    """The real Redis of the machine (TEST_REDIS_URL); mandatory in CI, skipped elsewhere
    when absent. Under pytest-xdist each worker takes a database of its own, counting down
    from the URL's (gw0 the URL's own, gw1 the one below), since the tests flush theirs; a
    database another client uses (another checkout's run) is refused (tests/redis_db.py)."""
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        missing("Redis is not available", "set TEST_REDIS_URL")
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    try:
        return redis_db.claim(redis_db.worker_url(url, worker))
    except redis_db.RedisDatabaseTaken as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def redis_url() -> str:
    return redis_test_url()


@pytest.fixture
def anvil_factory():
    """Start real anvil nodes (`anvil_factory(chain_id=...)`); all are stopped afterwards.
    Mandatory in CI; skipped elsewhere when the binary is absent (scripts/chain_tools.sh)."""
    from tests.anvil import Anvil

    require_anvil()
    nodes = []

    def start(chain_id: int = 31337, port: int | None = None, args: tuple = ()) -> Anvil:
        node = Anvil(chain_id, port, args).start()
        nodes.append(node)
        return node

    yield start
    for node in nodes:
        node.stop()


@pytest.fixture
def site(db) -> Client:
    """A browser session of a logged-in superuser, for the Django admin."""
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(user)
    return client


def shown_messages(response) -> list[str]:
    """The Django admin's messages shown by `response`."""
    return [str(message) for message in get_messages(response.wsgi_request)]


def assert_problem(response, status: int, code: str | None = None) -> dict:
    """The response is an RFC 9457 problem document with this status (and code)."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json"), response["Content-Type"]
    body = response.json()
    assert body["status"] == status
    assert body["type"].startswith("urn:problem-type:")
    assert body["title"] and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body


def require_anvil() -> None:
    """Skip the test when anvil is absent; in CI, fail it instead (scripts/chain_tools.sh)."""
    from tests.anvil import ANVIL

    if not ANVIL.exists():
        missing(f"anvil is not installed at {ANVIL}", "run scripts/chain_tools.sh")


@dataclass
class EasNode:
    anvil: "Anvil"
    w3: Web3
    deployment: "EasDeployment"
    sender: str  # an unlocked anvil account, lowercase

    def register_schema(self, schema: str = "bytes32 documentHash", **kwargs) -> str:
        """Register `schema` in the node's SchemaRegistry; its uid."""
        from attestations.eas import register_schema

        return register_schema(self.w3, self.deployment.schema_registry, schema,
                               sender=self.sender, **kwargs)

    def eas_contract(self):
        """The whole EAS contract (its artifact's ABI), beyond what the service calls."""
        from attestations.eas import artifact

        return self.w3.eth.contract(address=Web3.to_checksum_address(self.deployment.eas),
                                    abi=artifact("EAS")["abi"])


def deploy_eas_on(anvil: "Anvil") -> EasNode:
    """The EAS contracts deployed on `anvil` by its first (unlocked) account."""
    from attestations.eas import deploy_eas

    w3 = Web3(HTTPProvider(anvil.url))
    sender = w3.eth.accounts[0].lower()
    return EasNode(anvil, w3, deploy_eas(w3, sender=sender), sender)


@pytest.fixture(scope="session")
def eas_node():
    """One anvil (chain 31337) for the session with the EAS contracts deployed once:
    deploying them per test would cost far more than the tests themselves."""
    from tests.anvil import Anvil

    require_anvil()
    node = Anvil(chain_id=31337).start()
    try:
        yield deploy_eas_on(node)
    finally:
        node.stop()


@pytest.fixture
def eas(eas_node):
    """The session's EAS node, reverted after the test to the state it had before it."""
    snapshot = eas_node.anvil.rpc("evm_snapshot")
    yield eas_node
    eas_node.anvil.rpc("evm_revert", [snapshot])


@dataclass
class EasChain:
    """The session's EAS node registered as chain 31337 ("anvil"), with an RPC endpoint and
    the SchemaRegistry and EAS deployments the indexer follows."""

    node: EasNode
    chain: object  # registry.models.Chain
    registry: object  # registry.models.Deployment (schema_registry)
    eas: object  # registry.models.Deployment (eas)


@pytest.fixture
def eas_chain(eas, db) -> EasChain:
    from tests.factories import ChainFactory, DeploymentFactory, RpcEndpointFactory

    chain = ChainFactory(chain_id=31337, name="Anvil", short_name="anvil", confirmations=2)
    RpcEndpointFactory(chain=chain, url=eas.anvil.url)
    registry = DeploymentFactory(chain=chain, kind="schema_registry",
                                 address=eas.deployment.schema_registry,
                                 start_block=eas.deployment.schema_registry_block)
    eas_deployment = DeploymentFactory(chain=chain, kind="eas", address=eas.deployment.eas,
                                       start_block=eas.deployment.eas_block)
    return EasChain(eas, chain, registry, eas_deployment)


def pytest_collection_modifyitems(config, items):
    """The tests that need a streaming replica (`pg_replica`) run in a pass of their own, on
    a private primary (tests/private_primary.py), never on the machine's cluster: skipped in
    any other pass, and the only ones run in theirs. scripts/test.sh runs both passes."""
    from tests.private_primary import ENVIRONMENT

    replica_pass = bool(os.environ.get(ENVIRONMENT))
    skip = pytest.mark.skip(reason=(
        "needs a streaming replica of a private primary: run it with `.venv/bin/python -m "
        "tests.private_primary .venv/bin/python -m pytest ...` (scripts/test.sh does)"))
    needing = [item for item in items if "pg_replica" in item.fixturenames]
    if replica_pass:
        config.hook.pytest_deselected(items=[item for item in items if item not in needing])
        items[:] = needing
    else:
        for item in needing:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def pg_replica(django_db_setup):
    """A real streaming replica (tests/replica.py) of the private primary the test database
    is on, started once that database exists (the base backup then holds it), stopped at the
    end. Used only in the pass on a private primary, which started: failing to start the
    replica there fails the tests."""
    from django.db import connection

    from tests.pg_server import ServerUnavailable
    from tests.replica import Replica

    primary = connection.settings_dict
    replica = Replica(primary["HOST"], primary["PORT"], primary["USER"])
    try:
        replica.start()
    except ServerUnavailable as exc:
        pytest.fail(f"a streaming replica could not be started: {exc}")
    yield replica
    replica.stop()

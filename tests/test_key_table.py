"""docs/security.md's table of what each key can do, walked row by row: each route asked, with
a request it would serve, by no key and by a key of each scope; the answer must be what the
table says (`yes`: served, 2xx; else that status)."""

import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from registry.models import KeyScope
from tests.bindings.conftest import document_schema  # noqa: F401  (a fixture)
from tests.conftest import make_key
from tests.executors.conftest import key_prefix
from tests.factories import ChainFactory, ExecutorFactory
from tests.proofs import checksummed, register

pytestmark = pytest.mark.django_db

SECURITY = Path(__file__).resolve().parents[1] / "docs" / "security.md"
HOLDERS = ["none", "api", "executor", "admin"]


def table_rows() -> list[tuple[str, str, dict]]:
    """(method, path, {holder: expected}) for each row between the key-table markers."""
    text = SECURITY.read_text()
    block = text.split("<!-- key-table: start -->")[1].split("<!-- key-table: end -->")[0]
    rows = []
    for line in block.strip().splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        method, path = re.fullmatch(r"`(\w+) (\S+)`", cells[1]).groups()
        rows.append((method, path, dict(zip(HOLDERS, cells[2:], strict=True))))
    return rows


ROWS = table_rows()
CASES = [pytest.param(method, path, holder, expected, id=f"{method} {path} as {holder}")
         for method, path, expected_by in ROWS for holder, expected in expected_by.items()]


@pytest.fixture
def chain(db):
    return ChainFactory(chain_id=31337, short_name="anvil", confirmations=1)


def client_of(holder: str, raw_key: str | None, path: str) -> APIClient:
    client = APIClient()
    if raw_key is not None:
        if path.startswith("/v1/admin/"):
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
        else:
            client.credentials(HTTP_X_API_KEY=raw_key)
    return client


def test_the_table_covers_the_trust_routes():
    paths = {path for _, path, _ in ROWS}
    assert {"/v1/chain-registry/{chain}/register", "/v1/admin/executors/{executor}/approve",
            "/v1/admin/api-keys/{key}"} <= paths
    assert len(ROWS) >= 15


@pytest.mark.parametrize(("method", "path", "holder", "expected"), CASES)
def test_each_key_can_do_what_the_table_says(chain, document_schema, method, path, holder,  # noqa: F811
                                             expected):
    raw_key = None if holder == "none" else make_key(holder)
    # What the route acts on: an executor of this key (of an executor key, when the holder
    # has none), and another executor key (for a move, an allow-list, a revocation).
    owner = raw_key if holder == KeyScope.EXECUTOR else make_key(KeyScope.EXECUTOR)
    executor = ExecutorFactory(chain=chain, registered_by=key_prefix(owner))
    other_key = make_key(KeyScope.EXECUTOR)
    url = path.format(chain=31337, executor=executor.pk, key=key_prefix(other_key))
    client = client_of(holder, raw_key, path)
    bodies = {
        "/v1/verify": {"documentHash": "0x" + "d0" * 32},
        "/workflows": {"documentHash": "0x" + "d1" * 32, "chainId": 31337},
        "/v1/webhooks": {"url": "https://hooks.example.com/in",
                         "eventTypes": ["workflow.state_changed"]},
        "/v1/chain-registry/31337/challenge": {"address": checksummed(7)},
        "/v1/chain-registry/31337/heartbeat": {"executorId": str(executor.pk), "status": "ok"},
        "/v1/chain-registry/31337/jobs/claim": {"executorId": str(executor.pk)},
        f"/v1/admin/executors/{executor.pk}/transfer": {"key": key_prefix(other_key)},
        "/v1/admin/trusted-attesters": {"chainId": 31337, "address": checksummed(8)},
        f"/v1/admin/api-keys/{key_prefix(other_key)}": {"allowedAddresses": [checksummed(9)]},
        "/v1/admin/chains/31337": {"executorTrust": "approval"},
    }

    if path.endswith("/register"):
        response = register(client, 31337, {"address": checksummed(6)})
    else:
        response = getattr(client, method.lower())(url, bodies.get(url), format="json")

    if expected == "yes":
        assert 200 <= response.status_code < 300, response.content
    else:
        assert response.status_code == int(expected), response.content

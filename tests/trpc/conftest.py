import json
from urllib.parse import quote

import pytest
from rest_framework.test import APIClient

from tests.factories import ChainFactory

SCHEMA = "bytes32 documentHash,string name"
DOCUMENT_HASH = "0x" + "ab" * 32


@pytest.fixture
def chains(db):
    """Two active chains, one of them a testnet."""
    return [
        ChainFactory(chain_id=31337, name="Anvil", short_name="anvil", is_testnet=True),
        ChainFactory(chain_id=1, name="Ethereum", short_name="eth", is_testnet=False),
    ]


def crash(*args):
    raise RuntimeError("secret detail")


@pytest.fixture
def crashing_client(api_key, monkeypatch) -> APIClient:
    """A client whose every procedure call crashes inside the server (its answer must not
    show the exception)."""
    from trpc import dispatch

    monkeypatch.setattr(dispatch, "call", crash)
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_X_API_KEY=api_key)
    return client


def query_url(paths: str, data=None, *, batch: bool = False) -> str:
    """The URL @trpc/client builds for a query (or a batch of them)."""
    url = f"/trpc/{paths}"
    params = ["batch=1"] if batch else []
    if data is not None:
        params.append("input=" + quote(json.dumps(data)))
    return url + ("?" + "&".join(params) if params else "")


def assert_error(envelope: dict, name: str, status: int, path: str | None = None) -> dict:
    """A tRPC error envelope with this code name, HTTP status (and path); its shape."""
    from trpc.errors import CODES_BY_STATUS, PARSE_ERROR

    assert set(envelope) == {"error"}, envelope
    shape = envelope["error"]
    numbers = dict([*CODES_BY_STATUS.values(), PARSE_ERROR])
    assert shape["code"] == numbers[name], shape
    assert shape["data"]["code"] == name and shape["data"]["httpStatus"] == status, shape
    assert shape["message"]
    if path is not None:
        assert shape["data"]["path"] == path
    assert shape["data"]["problem"]["status"] == status
    return shape

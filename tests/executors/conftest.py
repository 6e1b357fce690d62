import pytest
from rest_framework.test import APIClient

from tests.factories import ChainFactory


def key_prefix(raw_key: str) -> str:
    """What an executor's `registered_by` holds for the key that registered it."""
    return raw_key.partition(".")[0]


def with_api_key(raw_key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=raw_key)
    return client


@pytest.fixture
def executor(executor_key) -> APIClient:
    """A client with an executor key in `X-API-Key`."""
    return with_api_key(executor_key)


@pytest.fixture
def chain(db):
    return ChainFactory(chain_id=31337, short_name="anvil")

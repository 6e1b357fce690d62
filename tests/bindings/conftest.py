import pytest

from registry.models import Deployment
from tests.executors.conftest import key_prefix, with_api_key
from tests.factories import (
    ChainFactory,
    DeploymentFactory,
    ExecutorFactory,
    SchemaFactory,
)

DOCUMENT = "0x" + "d0" * 32


@pytest.fixture
def chain(db):
    return ChainFactory(chain_id=31337, short_name="anvil", confirmations=1)


@pytest.fixture
def document_schema(chain):
    """The chain's document schema, as the indexer would have read it."""
    registry = DeploymentFactory(chain=chain, kind=Deployment.Kind.SCHEMA_REGISTRY)
    DeploymentFactory(chain=chain, kind=Deployment.Kind.EAS, address="0x" + "ea" * 20)
    return SchemaFactory(deployment=registry, chain=chain)


@pytest.fixture
def executor_client(executor_key):
    return with_api_key(executor_key)


@pytest.fixture
def my_executor(chain, executor_key):
    return ExecutorFactory(chain=chain, registered_by=key_prefix(executor_key))


def bind(client, document=DOCUMENT, chain_id=31337, **extra):
    return client.post("/workflows", {"documentHash": document, "chainId": chain_id, **extra},
                       format="json")

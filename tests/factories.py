from datetime import timedelta

import factory
from django.conf import settings
from django.utils import timezone

from registry.models import (
    Category,
    Chain,
    ContractName,
    ContractVersion,
    Deployment,
    ProviderHealth,
    RpcEndpoint,
)

ERC20_ABI = [
    {
        "type": "function",
        "name": "transfer",
        "stateMutability": "nonpayable",
        "inputs": [{"name": "to", "type": "address"}, {"name": "amount", "type": "uint256"}],
        "outputs": [{"name": "", "type": "bool"}],
    },
    {
        "type": "event",
        "name": "Transfer",
        "anonymous": False,
        "inputs": [
            {"name": "from", "type": "address", "indexed": True},
            {"name": "to", "type": "address", "indexed": True},
            {"name": "value", "type": "uint256", "indexed": False},
        ],
    },
]


class ChainFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Chain

    chain_id = factory.Sequence(lambda n: 100_000 + n)
    name = factory.Sequence(lambda n: f"Test Chain {n}")
    short_name = factory.Sequence(lambda n: f"test-{n}")
    is_testnet = True


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Category

    slug = factory.Sequence(lambda n: f"category-{n}")
    name = factory.Sequence(lambda n: f"Category {n}")


class ContractNameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ContractName

    name = factory.Sequence(lambda n: f"contract-{n}")
    display_name = factory.Sequence(lambda n: f"Contract {n}")
    category = factory.SubFactory(CategoryFactory)


class ContractVersionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ContractVersion

    contract_name = factory.SubFactory(ContractNameFactory)
    version = factory.Sequence(lambda n: f"1.{n}.0")
    abi = factory.LazyFunction(lambda: [dict(entry) for entry in ERC20_ABI])


class DeploymentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Deployment

    chain = factory.SubFactory(ChainFactory)
    contract_version = factory.SubFactory(ContractVersionFactory)
    address = factory.Sequence(lambda n: "0x" + f"{n + 1:040x}")
    kind = Deployment.Kind.OTHER


class RpcEndpointFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RpcEndpoint

    chain = factory.SubFactory(ChainFactory)
    url = factory.Sequence(lambda n: f"http://127.0.0.1:{20000 + n}")
    provider = "local"


class ProviderHealthFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProviderHealth

    provider = "local"
    status = "down"
    reason = "test"


class ExecutorFactory(factory.django.DjangoModelFactory):
    """A healthy executor with a fresh lease, registered by key `registered_by`."""

    class Meta:
        model = "executors.Executor"

    chain = factory.SubFactory(ChainFactory)
    address = factory.Sequence(lambda n: "0x" + f"{0xE0000 + n:040x}")
    name = factory.Sequence(lambda n: f"executor-{n}")
    registered_by = "crk_000000000000"
    status = "healthy"
    last_heartbeat_at = factory.LazyFunction(timezone.now)
    lease_expires_at = factory.LazyAttribute(
        lambda o: (o.last_heartbeat_at or timezone.now())
        + timedelta(seconds=settings.EXECUTOR_LEASE_SECONDS)
    )


class TrustedAttesterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "executors.TrustedAttester"

    chain = factory.SubFactory(ChainFactory)
    address = factory.Sequence(lambda n: "0x" + f"{0xA0000 + n:040x}")
    note = "trusted for tests"

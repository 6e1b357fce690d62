from datetime import timedelta

import factory
from django.conf import settings
from django.utils import timezone

from registry.models.chains import Chain
from registry.models.contracts import Category, ContractName, ContractVersion, Deployment
from registry.models.rpc import ProviderHealth, RpcEndpoint

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

    class Params:
        # As import_chains creates a chain (by default a chain is registered by hand).
        imported = factory.Trait(source="import", edited_fields=[])


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
    """A healthy, approved executor with a fresh lease, registered by key `registered_by`."""

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
    trusted_at = factory.LazyFunction(timezone.now)
    trust_basis = "approval"


class TrustedAttesterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "executors.TrustedAttester"

    chain = factory.SubFactory(ChainFactory)
    address = factory.Sequence(lambda n: "0x" + f"{0xA0000 + n:040x}")
    note = "trusted for tests"


# What the indexer writes (attestations app). Hex values as the indexer stores them.


def _hex32(n: int) -> str:
    return "0x" + f"{n:064x}"


class EasDeploymentFactory(DeploymentFactory):
    kind = Deployment.Kind.EAS


class IndexCursorFactory(factory.django.DjangoModelFactory):
    """A cursor whose indexed head is `head_block`: confirmations count from it."""

    class Meta:
        model = "attestations.IndexCursor"

    deployment = factory.SubFactory(EasDeploymentFactory)
    chain = factory.SelfAttribute("deployment.chain")
    next_block = factory.LazyAttribute(lambda o: (o.head_block or 0) + 1)
    head_block = 1000


def read_by_a_cursor(record, create, extracted, **kwargs):
    """As the indexer writes them, a record's deployment has a cursor, whose head its
    confirmations count from: on a chain that is indexed (an IndexCursorFactory on it), a
    record's deployment without one gets one at the chain's highest head."""
    from attestations.models import IndexCursor

    if not create:
        return
    heads = dict(IndexCursor.objects.filter(chain_id=record.chain_id)
                 .values_list("deployment_id", "head_block"))
    if not heads or record.deployment_id in heads:
        return
    head = max((h for h in heads.values() if h is not None), default=None)
    IndexCursorFactory(deployment=record.deployment, chain=record.chain, head_block=head)


class SchemaFactory(factory.django.DjangoModelFactory):
    """A document schema (`bytes32 documentHash`)."""

    class Meta:
        model = "attestations.Schema"
        skip_postgeneration_save = True  # read_by_a_cursor does not change the record

    deployment = factory.SubFactory(DeploymentFactory, kind=Deployment.Kind.SCHEMA_REGISTRY)
    chain = factory.SelfAttribute("deployment.chain")
    uid = factory.Sequence(lambda n: _hex32(0x5C000 + n))
    schema = "bytes32 documentHash"
    fields = factory.LazyFunction(lambda: [{"name": "documentHash", "type": "bytes32"}])
    resolver = "0x" + "00" * 20
    revocable = True
    registerer = "0x" + "ab" * 20
    document_hash_field = "documentHash"
    tx_hash = factory.Sequence(lambda n: _hex32(0x7000000 + n))
    block_number = 1
    block_hash = factory.LazyAttribute(lambda o: _hex32(0xB0000 + o.block_number))
    log_index = 0
    indexed = factory.PostGeneration(read_by_a_cursor)


class AttestationFactory(factory.django.DjangoModelFactory):
    """An attestation of `document_hash` under a document schema, in block `block_number`.

    Give `chain` (and, for confirmations, an IndexCursorFactory on it) to place it."""

    class Meta:
        model = "attestations.Attestation"
        skip_postgeneration_save = True

    schema = factory.SubFactory(SchemaFactory)
    chain = factory.SelfAttribute("schema.chain")
    deployment = factory.SubFactory(EasDeploymentFactory, chain=factory.SelfAttribute("..chain"))
    uid = factory.Sequence(lambda n: _hex32(0xA77E5700000 + n))
    schema_uid = factory.SelfAttribute("schema.uid")
    attester = "0x" + "e0" * 20
    recipient = "0x" + "00" * 20
    ref_uid = "0x" + "00" * 32
    time = factory.LazyFunction(lambda: timezone.now().replace(microsecond=0))
    expiration_time = None
    revocation_time = None
    revocable = True
    document_hash = factory.Sequence(lambda n: _hex32(0xD0C00000 + n))
    data = factory.LazyAttribute(lambda o: bytes.fromhex(o.document_hash[2:]))
    decoded = factory.LazyAttribute(lambda o: {"documentHash": o.document_hash})
    tx_hash = factory.Sequence(lambda n: _hex32(0x7A00000 + n))
    block_number = 10
    block_hash = factory.LazyAttribute(lambda o: _hex32(0xB0000 + o.block_number))
    log_index = factory.Sequence(lambda n: n)
    indexed = factory.PostGeneration(read_by_a_cursor)


class TimestampFactory(factory.django.DjangoModelFactory):
    """A `Timestamped` event of `data` on `chain`."""

    class Meta:
        model = "attestations.Timestamp"
        skip_postgeneration_save = True

    chain = factory.SubFactory(ChainFactory)
    deployment = factory.SubFactory(EasDeploymentFactory, chain=factory.SelfAttribute("..chain"))
    data = factory.Sequence(lambda n: _hex32(0x7153000 + n))
    timestamp = factory.LazyFunction(lambda: timezone.now().replace(microsecond=0))
    tx_hash = factory.Sequence(lambda n: _hex32(0x7B00000 + n))
    block_number = 10
    block_hash = factory.LazyAttribute(lambda o: _hex32(0xB0000 + o.block_number))
    log_index = factory.Sequence(lambda n: n)
    indexed = factory.PostGeneration(read_by_a_cursor)


class OffchainRevocationFactory(TimestampFactory):
    """A `RevokedOffchain` event: `revoker` revoked the offchain attestation `data`."""

    class Meta:
        model = "attestations.OffchainRevocation"
        skip_postgeneration_save = True

    revoker = "0x" + "e0" * 20

"""Every 201 carries `Location`: the absolute path of the created resource, which reads it.

The routes are those the OpenAPI schema documents with a 201, so that a create endpoint
added later fails here until it is listed (and answers its Location)."""

import pytest
from rest_framework.test import APIClient

from registry.models import Deployment
from tests.factories import (
    ChainFactory,
    ContractNameFactory,
    ContractVersionFactory,
    DeploymentFactory,
    RpcEndpointFactory,
    SchemaFactory,
)
from tests.proofs import address_of, register

pytestmark = pytest.mark.django_db


def _chain(_):
    return {"chainId": 424242, "name": "Located", "shortName": "located"}


def _category(_):
    return {"slug": "located", "name": "Located"}


def _contract_name(_):
    return {"name": "located", "displayName": "Located"}


def _contract_version(_):
    return {"contractName": ContractNameFactory().name, "version": "9.9.9", "abi": []}


def _deployment(_):
    return {"chainId": ChainFactory().chain_id, "contractVersion": ContractVersionFactory().pk,
            "address": "0x" + "ab" * 20}


def _rpc(_):
    return {"chainId": ChainFactory().chain_id, "url": "http://127.0.0.1:18545"}


def _provider_health(_):
    return {"rpcId": RpcEndpointFactory().pk, "status": "down"}


def _trusted_attester(_):
    return {"chainId": ChainFactory().chain_id, "address": "0x" + "cd" * 20}


def _issuer(chain):
    return {"name": "Example University", "domain": "example.edu",
            "addresses": [{"chainId": chain.chain_id, "address": "0x" + "ef" * 20}]}


def _executor(chain):
    return {"address": address_of(3)}  # a test account: tests/proofs.py signs for it


def _workflow(chain):
    registry = DeploymentFactory(chain=chain, kind=Deployment.Kind.SCHEMA_REGISTRY)
    SchemaFactory(deployment=registry, chain=chain)
    return {"documentHash": "0x" + "d0" * 32, "chainId": chain.chain_id}


def _workflows(chain):
    return {"workflows": [_workflow(chain)]}


def _offchain(chain):
    """An offchain attestation package as the EAS SDK makes it (version 2), signed here with
    eth_account (tests/attestations/test_offchain.py signs with the SDK itself)."""
    from django.core.cache import cache
    from eth_account import Account

    from attestations.offchain import DOMAIN_NAME, VERSION_TYPES, offchain_uid

    eas = DeploymentFactory(chain=chain, kind=Deployment.Kind.EAS)
    schema = SchemaFactory(deployment__chain=chain)
    cache.set(f"eas-version:{chain.chain_id}:{eas.address}", "1.4.0")  # no chain to ask
    account = Account.from_key("0x" + "42" * 32)
    primary, types = VERSION_TYPES[2][0]
    message = {"version": 2, "schema": schema.uid, "recipient": "0x" + "00" * 20,
               "time": 1_790_000_000, "expirationTime": 0, "revocable": True,
               "refUID": "0x" + "00" * 32, "data": "0x" + "d0" * 32, "salt": "0x" + "5a" * 32}
    domain = {"name": DOMAIN_NAME, "version": "1.4.0", "chainId": chain.chain_id,
              "verifyingContract": eas.address}
    signed = account.sign_typed_data(domain, types, message)
    sig = {"version": 2, "uid": offchain_uid(2, message), "domain": domain,
           "primaryType": primary, "types": types, "message": message,
           "signature": {"v": signed.v, "r": hex(signed.r), "s": hex(signed.s)}}
    return {"sig": sig, "signer": account.address}


def _webhook(_):
    return {"url": "https://hooks.example/receive", "eventTypes": ["workflow.confirmed"]}


def _watch(_):
    return {"documentHash": "0x" + "d0" * 32}


# (path as the schema writes it, the key that creates, the body, the key that reads it)
CREATES = {
    "/v1/admin/chains": ("admin", _chain, "admin"),
    "/v1/admin/categories": ("admin", _category, "admin"),
    "/v1/admin/contract-names": ("admin", _contract_name, "admin"),
    "/v1/admin/contract-versions": ("admin", _contract_version, "admin"),
    "/v1/admin/deployments": ("admin", _deployment, "admin"),
    "/v1/admin/rpc": ("admin", _rpc, "admin"),
    "/v1/admin/rpc/health": ("admin", _provider_health, "admin"),
    "/v1/admin/trusted-attesters": ("admin", _trusted_attester, "admin"),
    "/v1/admin/issuers": ("admin", _issuer, "admin"),
    # An executor key has no read of executors: its record is the admin API's.
    "/v1/chain-registry/{chain}/register": ("executor", _executor, "admin"),
    "/workflows": ("api", _workflow, "api"),
    # A batch's Location is its first created workflow's.
    "/workflows/batch": ("api", _workflows, "api"),
    "/attestations/offchain": ("api", _offchain, "api"),
    "/v1/webhooks": ("api", _webhook, "api"),
    "/v1/watches": ("api", _watch, "api"),
}


def test_every_route_the_schema_documents_with_a_201_is_walked_here():
    client = APIClient()
    paths = client.get("/v1/openapi.json").json()["paths"]
    documented = {path for path, operations in paths.items()
                  for operation in operations.values()
                  if isinstance(operation, dict) and "201" in operation.get("responses", {})}
    assert documented == set(CREATES)


@pytest.mark.parametrize("template", sorted(CREATES))
def test_a_create_answers_201_with_the_location_of_what_it_created(
    template, admin_key, api_key, executor_key
):
    keys = {"admin": ("HTTP_AUTHORIZATION", f"Bearer {admin_key}"),
            "api": ("HTTP_X_API_KEY", api_key), "executor": ("HTTP_X_API_KEY", executor_key)}
    creator, body, reader = CREATES[template]
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    path = template.replace("{chain}", "anvil")

    client = APIClient(**dict([keys[creator]]))
    if path.endswith("/register"):  # with the address's proof (tests/proofs.py)
        created = register(client, "anvil", body(chain))
    else:
        created = client.post(path, body(chain), format="json")

    assert created.status_code == 201, created.content
    location = created["Location"]
    assert location.startswith("/") and "://" not in location  # an absolute path
    read = APIClient(**dict([keys[reader]])).get(location)
    assert read.status_code == 200, read.content
    made = created.json().get("workflows", [created.json()])[0]
    identity = {k: made[k] for k in ("id", "chainId", "slug", "name", "executorId",
                                     "workflowId") if k in made}
    assert identity and {k: read.json()[k] for k in identity} == identity


def test_a_repeated_create_that_finds_its_first_answer_is_a_200_without_location(
    executor_key, admin_key
):
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    client = APIClient(HTTP_X_API_KEY=executor_key)
    first = register(client, "anvil", _executor(chain))
    again = register(client, "anvil", _executor(chain))

    assert (first.status_code, again.status_code) == (201, 200)
    assert "Location" in first and "Location" not in again

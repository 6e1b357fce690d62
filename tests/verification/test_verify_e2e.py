"""POST /v1/verify end to end: real anvil nodes with the real EAS contracts, read by the
project's indexer, executors registered through the API, administrators acting through
/v1/admin. Nothing here is written to the database by hand."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from unittest.mock import ANY

import pytest
from django.utils import timezone

from attestations import eas as eas_contracts
from attestations.indexer import index_chain
from attestations.schema import encode, parse
from executors.sweep import executor_leases_expire
from registry.models import Chain
from tests.conftest import EasNode, assert_problem, deploy_eas_on
from tests.factories import ChainFactory, DeploymentFactory, RpcEndpointFactory
from tests.proofs import register
from tests.verification.conftest import get_attestation_call, not_verified
from verification.services import verify_document

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

DOCUMENT_SCHEMA = "bytes32 documentHash"
HASH = "0x" + "d0c5" * 16


@dataclass
class Bound:
    """An attestation made on a node: its uid, receipt and block time."""

    uid: str
    tx_hash: str
    block_number: int
    time: datetime
    block_hash: str
    log_index: int  # of its Attested log, the one log the EAS contract emits for it


@dataclass
class Site:
    """A chain as the service knows it, with its node."""

    node: EasNode
    chain: Chain
    schema_uid: str

    def attest(self, sender=None, document_hash=HASH, **kwargs) -> Bound:
        w3 = self.node.w3
        data = encode(parse(DOCUMENT_SCHEMA), (bytes.fromhex(document_hash[2:]),))
        uid, receipt = eas_contracts.attest(w3, self.node.deployment.eas,
                                            schema_uid=self.schema_uid, data=data,
                                            sender=sender or self.node.sender, **kwargs)
        block = w3.eth.get_block(receipt["blockNumber"])
        (log_index,) = [log["logIndex"] for log in receipt["logs"]
                        if log["address"].lower() == self.node.deployment.eas.lower()]
        return Bound(uid, "0x" + receipt["transactionHash"].hex(), receipt["blockNumber"],
                     datetime.fromtimestamp(block["timestamp"], UTC),
                     "0x" + receipt["blockHash"].hex(), log_index)

    def revoke(self, bound: Bound, sender=None):
        eas_contracts.revoke(self.node.w3, self.node.deployment.eas, schema_uid=self.schema_uid,
                             uid=bound.uid, sender=sender or self.node.sender)

    def mine(self, blocks: int = 1):
        self.node.anvil.mine(blocks)

    def index(self):
        report = index_chain(self.chain)
        assert report.ok, report.as_dict()
        return report

    def settle(self):
        """Mine the chain's confirmations on top, then index."""
        self.mine(self.chain.confirmations)
        self.index()


def make_site(node: EasNode, chain: Chain, executor_client) -> Site:
    """Register the document schema and the node's first account as an executor of `chain`
    (through the API, as an executor would)."""
    schema_uid = node.register_schema(DOCUMENT_SCHEMA)
    registered = register(executor_client, chain.chain_id,
                          {"address": node.sender, "name": "executor-1"})
    assert registered.status_code == 201, registered.content
    return Site(node, chain, schema_uid)


@pytest.fixture
def executor_client(executor_key):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    return client


@pytest.fixture
def site(eas_chain, executor_client) -> Site:
    """Chain 31337 (the session's node, 2 confirmations) with an executor."""
    return make_site(eas_chain.node, eas_chain.chain, executor_client)


@pytest.fixture
def second_site(anvil_factory, executor_client) -> Site:
    """Chain 31338 on a node of its own, with the EAS contracts, its RPC endpoint, its
    deployments and the same executor address."""
    node = deploy_eas_on(anvil_factory(chain_id=31338))
    deployment = node.deployment
    chain = ChainFactory(chain_id=31338, name="Anvil 2", short_name="anvil-2", confirmations=2)
    RpcEndpointFactory(chain=chain, url=node.anvil.url)
    DeploymentFactory(chain=chain, kind="schema_registry", address=deployment.schema_registry,
                      start_block=deployment.schema_registry_block)
    DeploymentFactory(chain=chain, kind="eas", address=deployment.eas,
                      start_block=deployment.eas_block)
    return make_site(node, chain, executor_client)


def verify(api, **body):
    response = api.post("/v1/verify", {"documentHash": HASH, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def other_account(site: Site) -> str:
    return site.node.w3.eth.accounts[1].lower()


# --- One chain -------------------------------------------------------------------------------


def test_an_attestation_by_a_registered_executor_verifies_with_its_uid_time_and_chain(api, site):
    bound = site.attest()
    site.settle()
    head = site.node.anvil.block_number()
    assert verify(api) == {
        "verified": True, "attestationId": bound.uid,
        "timestamp": bound.time.strftime("%Y-%m-%dT%H:%M:%SZ"), "chainId": 31337,
        "attester": site.node.sender, "schemaId": site.schema_uid, "txHash": bound.tx_hash,
        "blockNumber": bound.block_number, "confirmations": head - bound.block_number + 1,
        "blockHash": bound.block_hash, "logIndex": bound.log_index,
        "easAddress": site.node.deployment.eas.lower(),
        "getAttestationCall": get_attestation_call(site.node.deployment.eas.lower(), bound.uid),
        "offchain": False, "timestampProven": True, "merkleRoot": None, "proof": None,
        "issuer": None, "reason": None, "chainStalled": False,
        # 2 confirmations (the site's chain): the block below the head is the newest final.
        "finality": {"rule": "confirmations", "finalizedBlock": head - 1},
    }


def test_an_untrusted_attester_does_not_verify_until_an_admin_trusts_it(api, admin, site):
    stranger = other_account(site)
    bound = site.attest(sender=stranger)
    site.settle()
    assert verify(api) == not_verified("untrusted_attester", finality=ANY)
    added = admin.post("/v1/admin/trusted-attesters",
                       {"chainId": 31337, "address": stranger}, format="json")
    assert added.status_code == 201, added.content
    assert verify(api)["attestationId"] == bound.uid


def test_a_revoked_attestation_stops_verifying(api, site):
    bound = site.attest()
    site.settle()
    assert verify(api)["attestationId"] == bound.uid
    site.revoke(bound)
    site.index()
    assert verify(api) == not_verified("revoked", finality=ANY)


def test_an_expired_attestation_does_not_verify(api, site):
    chain_now = site.node.w3.eth.get_block("latest")["timestamp"]
    expires = datetime.fromtimestamp(chain_now + 100, UTC)
    bound = site.attest(expiration_time=int(expires.timestamp()))
    site.settle()
    assert verify_document(HASH, now=expires - timedelta(seconds=1)).attestation_id == bound.uid
    assert not verify_document(HASH, now=expires).verified
    assert not verify_document(HASH, now=expires + timedelta(days=1)).verified


def test_fewer_confirmations_than_required_then_enough(api, site):
    Chain.objects.filter(pk=31337).update(confirmations=3)
    bound = site.attest()
    site.index()  # the attestation's block is the head: 1 confirmation
    assert verify(api) == not_verified("not_final", finality=ANY)
    site.mine(1)
    site.index()
    assert verify(api) == not_verified("not_final", finality=ANY)  # 2
    site.mine(1)
    site.index()
    answer = verify(api)
    assert answer["attestationId"] == bound.uid and answer["confirmations"] == 3


def test_an_attestation_reorganised_away_stops_verifying(api, site):
    fork = site.node.anvil.rpc("evm_snapshot")
    bound = site.attest()
    site.settle()
    assert verify(api)["attestationId"] == bound.uid

    site.node.anvil.rpc("evm_revert", [fork])
    site.mine(5)  # the other branch, longer
    report = site.index()
    assert any(d.reorg for d in report.deployments)
    assert verify(api) == not_verified("not_found")


def test_an_executor_gone_offline_still_verifies_what_it_attested(api, site):
    bound = site.attest()
    site.settle()
    later = timezone.now() + timedelta(hours=1)
    executor_leases_expire(later)  # stale
    executor_leases_expire(later + timedelta(hours=1))  # offline
    assert site.chain.executors.get().status == "offline"
    assert verify(api)["attestationId"] == bound.uid


def test_an_executor_whose_trust_is_revoked_stops_verifying(api, admin, site):
    bound = site.attest()
    site.settle()
    executor = site.chain.executors.get()
    path = f"/v1/admin/executors/{executor.pk}"
    assert admin.patch(path, {"trusted": False}, format="json").status_code == 200
    assert verify(api) == not_verified("untrusted_attester", finality=ANY)
    assert admin.patch(path, {"trusted": True}, format="json").status_code == 200
    assert verify(api)["attestationId"] == bound.uid


# --- Two chains ------------------------------------------------------------------------------


def test_the_same_hash_on_two_chains_the_earliest_answers_and_chain_id_narrows(
        api, site, second_site):
    first = site.attest()
    # The second node's clock a minute ahead: its attestation is the later one for sure.
    second_site.node.anvil.rpc("evm_increaseTime", [60])
    second = second_site.attest()
    assert second.time > first.time
    site.settle()
    second_site.settle()

    earliest = verify(api)
    assert (earliest["attestationId"], earliest["chainId"]) == (first.uid, 31337)
    narrowed = verify(api, chainId=31338)
    assert (narrowed["attestationId"], narrowed["chainId"]) == (second.uid, 31338)
    assert verify(api, chainId=31337)["attestationId"] == first.uid

    site.revoke(first)  # the earliest no longer valid: the next one answers
    site.index()
    assert verify(api)["attestationId"] == second.uid


# --- Live ------------------------------------------------------------------------------------


def test_live_answers_from_the_chain_and_is_503_when_the_node_is_down(api, second_site):
    bound = second_site.attest()
    second_site.settle()
    live = verify(api, live=True)
    assert live == verify(api)  # the same answer, read from the chain
    assert live["attestationId"] == bound.uid

    second_site.revoke(bound)  # not indexed yet: the index still says verified
    assert verify(api)["verified"]
    assert verify(api, live=True) == not_verified("revoked")

    second_site.node.anvil.stop()
    api.raise_request_exception = False  # a 5xx signals got_request_exception, as it should
    body = assert_problem(
        api.post("/v1/verify", {"documentHash": HASH, "live": True}, format="json"),
        503, "chain_unavailable")
    assert "31338" in body["detail"]
    assert verify(api)["verified"]  # without live, no chain call: the index answers


def test_live_says_not_final_until_the_chain_has_the_confirmations(api, second_site):
    second_site.attest()
    second_site.index()  # the attestation's block is the head: 1 of 2 confirmations
    assert verify(api) == not_verified("not_final", finality=ANY)
    assert verify(api, live=True) == not_verified("not_final")
    second_site.mine(1)  # the chain has them; the index has not seen the block yet
    assert verify(api, live=True)["verified"] is True
    assert verify(api) == not_verified("not_final", finality=ANY)


def test_live_sees_a_reorganisation_the_indexer_has_not_read_yet(api, second_site):
    fork = second_site.node.anvil.rpc("evm_snapshot")
    bound = second_site.attest()
    second_site.settle()
    assert verify(api, live=True)["attestationId"] == bound.uid
    second_site.node.anvil.rpc("evm_revert", [fork])
    second_site.mine(5)
    assert verify(api)["attestationId"] == bound.uid  # the index has not seen it
    assert verify(api, live=True) == not_verified("not_found")

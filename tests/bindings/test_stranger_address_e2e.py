"""Issue 36's attack, on a real anvil with the real EAS contracts: an executor key registering
a stranger's address without the stranger's signature is refused; with it, the executor is
untrusted, and what it binds verifies only once an administrator approves it."""

import pytest
from eth_account import Account
from rest_framework.test import APIClient

from executors.models import Executor
from tests.bindings.conftest import bind
from tests.bindings.test_binding_e2e import (  # noqa: F401  (bound_chain: a fixture)
    DOCUMENT,
    KEY_A,
    KEY_B,
    bound_chain,
    executor,
    settle,
    verified,
)
from tests.conftest import assert_problem, make_key
from tests.proofs import challenge, sign

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

STRANGER = Account.from_key(KEY_B).address


def test_a_stranger_s_address_is_refused_without_its_signature_and_verifies_only_once_approved(
        bound_chain, live_server, api, admin):  # noqa: F811
    key = make_key("executor", allowed_addresses=[])  # no standing trust
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=key)

    # 1. The attack: the stranger's address, signed with the attacker's own key.
    message = challenge(client, "anvil", STRANGER)["message"]
    refused = client.post("/v1/chain-registry/anvil/register", {
        "address": STRANGER, "proof": {"message": message, "signature": sign(message, KEY_A)}},
        format="json")
    problem = assert_problem(refused, 400, "validation_error")
    assert problem["errors"][0]["code"] == "proof_wrong_signer"
    assert not Executor.objects.exists()

    # 2. The stranger's own executor (it signs its challenge itself) registers: untrusted.
    # This chain lets untrusted executors take jobs, so that it binds something.
    bound_chain.chain.untrusted_executor_jobs = True
    bound_chain.chain.save()
    bind(api, document=DOCUMENT)
    lines = []
    ref = executor(live_server, bound_chain, KEY_B, api_key=key)
    ref.out = lines.append
    [sent] = ref.run(once=True)
    assert sent.tx_hash
    settle(bound_chain)
    stored = Executor.objects.get()
    assert (stored.address, stored.trust) == (STRANGER.lower(), "pending")
    assert any("waiting for an administrator's approval" in line for line in lines)
    answer = verified(api)
    assert answer["verified"] is False
    assert answer["reason"] == "untrusted_attester"

    # 3. An administrator approves it: what it bound verifies.
    approved = admin.post(f"/v1/admin/executors/{stored.pk}/approve")
    assert approved.status_code == 200, approved.content
    answer = verified(api)
    assert answer["verified"] is True
    assert answer["attester"] == STRANGER.lower()


def test_an_untrusted_executor_takes_no_job_by_default(bound_chain, live_server, api):  # noqa: F811
    key = make_key("executor", allowed_addresses=[])
    bind(api, document=DOCUMENT)
    ref = executor(live_server, bound_chain, KEY_B, api_key=key)

    assert ref.run(once=True) == []
    assert Executor.objects.get().trust == "pending"

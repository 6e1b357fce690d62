"""Proof of possession: registering an address needs a signature by its key over a challenge
of this service (an EIP-4361 message, executors/proofs.py); each wrong proof is a 400 that
names what is wrong, and writes nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core import siwe
from executors.models import AddressChallenge, Executor, TrustedAttester
from tests.conftest import assert_problem
from tests.executors.conftest import with_api_key
from tests.factories import ChainFactory
from tests.proofs import address_of, challenge, checksummed, key_of, proof_for, register, sign

pytestmark = pytest.mark.django_db

ME = checksummed(1)
STRANGER = checksummed(2)


def post(client, body, chain_ref=31337):
    return client.post(f"/v1/chain-registry/{chain_ref}/register", body, format="json")


def refused(response, code: str) -> dict:
    """A 400 whose error names the proof, and what is wrong with it by its code."""
    problem = assert_problem(response, 400, "validation_error")
    assert [(e["attr"], e["code"]) for e in problem["errors"]] == [("proof", code)], problem
    assert problem["detail"].startswith("proof: ")
    assert not Executor.objects.exists()
    return problem


def test_a_challenge_is_an_eip4361_message_naming_origin_chain_address_key_and_expiry(
        executor, chain, executor_key):
    body = challenge(executor, 31337, ME)

    message = siwe.parse(body["message"])
    assert message.domain == "testserver"
    assert message.uri == "http://testserver/v1/chain-registry/31337/register"
    assert (message.chain_id, message.address, message.nonce) == (31337, ME.lower(), body["nonce"])
    assert body["message"].splitlines()[1] == ME  # EIP-55, as the EIP writes it
    assert executor_key.split(".")[0] in message.statement
    assert message.resources == (f"urn:api-key:{executor_key.split('.')[0]}",)
    assert message.expiration_time - message.issued_at == timedelta(minutes=5)
    assert (body["address"], body["chainId"]) == (ME.lower(), 31337)
    assert body["expiresAt"].endswith("Z")


def test_a_signed_challenge_registers_the_address_and_is_used_up(executor, chain):
    response = register(executor, 31337, {"address": ME})

    assert response.status_code == 201, response.content
    (used,) = AddressChallenge.objects.all()
    assert used.used_at is not None


def test_registering_without_a_proof_is_400_saying_how_to_get_one(executor, chain):
    problem = assert_problem(post(executor, {"address": ME}), 400, "validation_error")

    assert [e["attr"] for e in problem["errors"]] == ["proof"]
    assert "challenge" in problem["errors"][0]["detail"]
    assert not Executor.objects.exists()


def test_a_stranger_s_address_without_its_signature_is_refused(executor, chain):
    # The attack of issue 36: the caller signs with its own key for someone else's address.
    proof = proof_for(executor, 31337, STRANGER, private_key=key_of(ME))

    problem = refused(post(executor, {"address": STRANGER, "proof": proof}),
                      "proof_wrong_signer")
    assert ME.lower() in problem["detail"] and STRANGER.lower() in problem["detail"]


def test_a_replayed_proof_is_refused(executor, chain):
    proof = proof_for(executor, 31337, ME)
    assert post(executor, {"address": ME, "proof": proof}).status_code == 201
    Executor.objects.all().delete()

    refused(post(executor, {"address": ME, "proof": proof}), "proof_replayed")


def test_an_expired_challenge_is_refused(executor, chain, settings):
    proof = proof_for(executor, 31337, ME)
    AddressChallenge.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    refused(post(executor, {"address": ME, "proof": proof}), "proof_expired")


def test_a_proof_for_another_chain_is_refused(executor, chain):
    ChainFactory(chain_id=10, short_name="optimism")
    proof = proof_for(executor, 10, ME)

    problem = refused(post(executor, {"address": ME, "proof": proof}), "proof_wrong_chain")
    assert "10" in problem["detail"] and "31337" in problem["detail"]


def test_a_proof_for_another_origin_is_refused(executor, chain, settings):
    settings.SERVICE_ORIGIN = "https://phisher.example"
    proof = proof_for(executor, 31337, ME)
    settings.SERVICE_ORIGIN = "https://registry.example"

    problem = refused(post(executor, {"address": ME, "proof": proof}), "proof_wrong_origin")
    assert "https://registry.example" in problem["detail"]


def test_a_proof_for_another_address_is_refused(executor, chain):
    proof = proof_for(executor, 31337, ME)

    refused(post(executor, {"address": STRANGER, "proof": proof}), "proof_wrong_address")


def test_a_challenge_issued_to_another_key_is_refused(executor, chain, admin_key):
    proof = proof_for(with_api_key(admin_key), 31337, ME)

    refused(post(executor, {"address": ME, "proof": proof}), "proof_wrong_key")


def test_a_message_changed_after_it_was_issued_is_refused(executor, chain):
    message = challenge(executor, 31337, ME)["message"]
    changed = message.replace("I hold the key", "I really hold the key")
    proof = {"message": changed, "signature": sign(changed, key_of(ME))}

    refused(post(executor, {"address": ME, "proof": proof}), "proof_tampered")


def test_a_message_of_no_challenge_is_refused(executor, chain):
    message = challenge(executor, 31337, ME)["message"]
    AddressChallenge.objects.all().delete()
    proof = {"message": message, "signature": sign(message, key_of(ME))}

    refused(post(executor, {"address": ME, "proof": proof}), "proof_unknown")


@pytest.mark.parametrize("message", ["hello", "", "x wants you to sign in"])
def test_a_message_that_is_not_eip4361_is_refused(executor, chain, message):
    proof = {"message": message or " ", "signature": sign(message or " ", key_of(ME))}

    refused(post(executor, {"address": ME, "proof": proof}), "proof_malformed")


def test_a_signature_that_is_no_signature_is_refused(executor, chain):
    message = challenge(executor, 31337, ME)["message"]

    refused(post(executor, {"address": ME, "proof": {"message": message,
                                                     "signature": "0x" + "00" * 65}}),
            "proof_bad_signature")


def test_a_refused_registration_leaves_its_challenge_unused(executor, chain):
    proof = proof_for(executor, 31337, ME)
    chain.set_status("inactive")
    assert_problem(post(executor, {"address": ME, "proof": proof}), 409, "chain_inactive")
    chain.set_status("active")

    assert post(executor, {"address": ME, "proof": proof}).status_code == 201


def test_a_challenge_for_a_bad_address_or_unknown_chain_is_refused(executor, chain):
    bad = executor.post("/v1/chain-registry/31337/challenge", {"address": "0x12"}, format="json")
    assert_problem(bad, 400, "validation_error")
    unknown = executor.post("/v1/chain-registry/999/challenge", {"address": ME}, format="json")
    assert_problem(unknown, 404)
    assert not AddressChallenge.objects.exists()


def test_an_api_key_cannot_ask_for_a_challenge(api, chain):
    assert_problem(api.post("/v1/chain-registry/31337/challenge", {"address": ME},
                            format="json"), 403)


# --- trusted attesters added with a proof -----------------------------------------------


def attester_proof(admin, address: str, private_key=None, chain_id=31337) -> dict:
    response = admin.post("/v1/admin/trusted-attesters/challenge",
                          {"chainId": chain_id, "address": address}, format="json")
    assert response.status_code == 200, response.content
    message = response.json()["message"]
    assert "a trusted attester" in message
    return {"message": message, "signature": sign(message, private_key or key_of(address))}


def test_a_trusted_attester_added_with_a_proof_is_shown_proven(admin, chain):
    response = admin.post("/v1/admin/trusted-attesters", {
        "chainId": 31337, "address": STRANGER, "proof": attester_proof(admin, STRANGER)},
        format="json")

    assert response.status_code == 201, response.content
    assert response.json()["provenAt"] is not None
    assert "proof" not in response.json()
    assert TrustedAttester.objects.get().proven_at is not None


def test_a_trusted_attester_without_a_proof_is_added_unproven(admin, chain):
    response = admin.post("/v1/admin/trusted-attesters", {"chainId": 31337, "address": STRANGER},
                          format="json")

    assert response.status_code == 201, response.content
    assert response.json()["provenAt"] is None


def test_a_trusted_attester_with_a_wrong_proof_is_refused_and_not_added(admin, chain):
    proof = attester_proof(admin, STRANGER, private_key=key_of(ME))

    response = admin.post("/v1/admin/trusted-attesters",
                          {"chainId": 31337, "address": STRANGER, "proof": proof}, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert problem["errors"][0]["code"] == "proof_wrong_signer"
    assert not TrustedAttester.objects.exists()


def test_a_registration_challenge_does_not_prove_a_trusted_attester(admin, admin_key, chain):
    proof = proof_for(with_api_key(admin_key), 31337, STRANGER)

    response = admin.post("/v1/admin/trusted-attesters",
                          {"chainId": 31337, "address": STRANGER, "proof": proof}, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert problem["errors"][0]["code"] == "proof_wrong_purpose"
    assert not TrustedAttester.objects.exists()


def test_the_known_test_keys_sign_for_their_addresses():
    assert address_of(1) == ME.lower() and key_of(ME) is not None


def test_a_key_holds_at_most_a_hundred_open_challenges(executor, chain):
    for _ in range(100):
        challenge(executor, 31337, ME)

    response = executor.post("/v1/chain-registry/31337/challenge", {"address": ME},
                             format="json")

    assert_problem(response, 409, "too_many_challenges")
    AddressChallenge.objects.update(used_at=timezone.now())
    assert challenge(executor, 31337, ME)["nonce"]

"""Proof of possession in tests: known keys, and registering with a signed challenge
(executors/proofs.py), as an executor does."""

from eth_account import Account
from eth_account.messages import encode_defunct
from eth_utils import keccak

# Keys made for the tests (never used on a real chain): address (lowercase) -> key.
_KEYS = {}


def test_account(n: int):
    """The test's n-th account (n >= 1): the same key in every run."""
    account = Account.from_key(keccak(text=f"test account {n}"))
    _KEYS[account.address.lower()] = account.key
    return account


def checksummed(n: int) -> str:
    return test_account(n).address


def address_of(n: int) -> str:
    return checksummed(n).lower()


def key_of(address: str):
    return _KEYS.get(address.lower())


def sign(message: str, private_key) -> str:
    signed = Account.sign_message(encode_defunct(text=message), private_key=private_key)
    return "0x" + bytes(signed.signature).hex()


# A proof of the right shape that proves nothing: for requests that must fail on other fields.
DUMMY_PROOF = {"message": "no challenge", "signature": "0x" + "11" * 65}


def challenge(client, chain_ref, address: str) -> dict:
    response = client.post(f"/v1/chain-registry/{chain_ref}/challenge", {"address": address},
                           format="json")
    assert response.status_code == 201, response.content
    return response.json()


def proof_for(client, chain_ref, address: str, private_key=None) -> dict:
    """A fresh challenge for `address`, signed by `private_key` (the address's own key by
    default)."""
    message = challenge(client, chain_ref, address)["message"]
    return {"message": message, "signature": sign(message, private_key or key_of(address))}


def register(client, chain_ref, body: dict, format="json", **post):
    """POST .../register with a proof: the address's own, when the test knows its key and
    the body has none; else a dummy one (the request is to fail on something else)."""
    if "proof" not in body:
        address = body.get("address")
        proof = DUMMY_PROOF
        if isinstance(address, str) and key_of(address) is not None:
            issued = client.post(f"/v1/chain-registry/{chain_ref}/challenge",
                                 {"address": address}, format="json")
            if issued.status_code == 201:  # else the registration is refused for the same
                message = issued.json()["message"]
                proof = {"message": message, "signature": sign(message, key_of(address))}
        body = {**body, "proof": proof}
    return client.post(f"/v1/chain-registry/{chain_ref}/register", body, format=format, **post)


ORIGIN = "http://testserver"


def service_proof(chain, holder, address: str, now=None) -> dict:
    """A proof for calling executors.services.executor_register directly (origin ORIGIN)."""
    from executors.proofs import Purpose, challenge_issue

    issued = challenge_issue(purpose=Purpose.REGISTER, chain=chain, address=address,
                             key_prefix=holder.prefix, origin=ORIGIN, now=now)
    return {"message": issued.message, "signature": sign(issued.message, key_of(address))}

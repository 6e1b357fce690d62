"""Proof of possession in tests: known keys, and registering with a signed challenge
(executors/proofs.py), as an executor does."""

from eth_account import Account
from eth_account.messages import encode_defunct
from eth_utils import keccak

# Keys the tests sign with: address (lowercase) -> key. Made for the tests, and anvil's
# first development accounts (public keys of its default mnemonic: the chain tests' signers).
_KEYS = {Account.from_key(key).address.lower(): key for key in (
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a")}


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
    assert response.status_code == 200, response.content
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
            if issued.status_code == 200:  # else the registration is refused for the same
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

"""Proof of possession: the caller shows it holds an address's key by signing a challenge the
service issued (an EIP-4361 message, core/siwe.py) before the address becomes an executor
(or, when an administrator asks for it, a trusted attester) of a chain.

A challenge names the service's origin, the chain id, the address, the key it was issued to
and a nonce, and expires after ADDRESS_PROOF_SECONDS. It is used once: a conditional UPDATE
in the transaction of the registration, so that a failed registration leaves it unused and
two registrations with one proof cannot both pass. Each refusal is a 400 whose code names
what is wrong (PROBLEMS).
"""

import secrets
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core import siwe
from core.errors import Conflict, Invalid
from executors.models import AddressChallenge

Purpose = AddressChallenge.Purpose
# Open (unused, unexpired) challenges per key: a key cannot fill the table.
MAX_OPEN_CHALLENGES = 100

# code -> what it means (docs/api.md lists them).
PROBLEMS = {
    "proof_malformed": "The proof's message is not an EIP-4361 message this service issued.",
    "proof_wrong_origin": "The proof's message was written for another origin than this "
                          "service's ({origin}).",
    "proof_wrong_chain": "The proof's message is for chain {given}, not {expected}.",
    "proof_wrong_address": "The proof's message names {given}, not the address {expected}.",
    "proof_bad_signature": "The proof's signature is not a valid secp256k1 signature of the "
                           "message.",
    "proof_wrong_signer": "The proof was signed by {given}, not by {expected}: only the "
                          "holder of the address's key can prove it.",
    "proof_unknown": "The proof's nonce names no challenge of this service: ask for one.",
    "proof_tampered": "The proof's message differs from the challenge issued with its nonce.",
    "proof_wrong_key": "The challenge was issued to another API key.",
    "proof_wrong_purpose": "The challenge was issued for {given}, not for {expected}.",
    "proof_replayed": "The challenge has been used already: ask for a new one.",
    "proof_expired": "The challenge expired at {given}: ask for a new one.",
}


class ProofRefused(Invalid):
    def __init__(self, code: str, **words):
        detail = PROBLEMS[code].format(**words)
        super().__init__(detail, code, errors={"proof": [detail]})


def origin_of(request) -> str:
    """The service's origin, as challenges name it: SERVICE_ORIGIN, or the request's own
    (its host is one of ALLOWED_HOSTS)."""
    return settings.SERVICE_ORIGIN or f"{request.scheme}://{request.get_host()}"


def _uri(origin: str, purpose: str, chain_id: int) -> str:
    if purpose == Purpose.REGISTER:
        return f"{origin}/v1/chain-registry/{chain_id}/register"
    return f"{origin}/v1/admin/trusted-attesters"


def _statement(purpose: str, address: str, chain_id: int, key_prefix: str) -> str:
    what = "an executor" if purpose == Purpose.REGISTER else "a trusted attester"
    return (f"I hold the key of {address} and ask that it be registered as {what} of chain "
            f"{chain_id} by API key {key_prefix}.")


def challenge_issue(*, purpose: str, chain, address: str, key_prefix: str, origin: str,
                    now=None) -> AddressChallenge:
    """A new challenge for `key_prefix` to prove it holds `address`'s key on `chain`."""
    now = (now or timezone.now()).replace(microsecond=0)  # the message's times are to the second
    expires = now + timedelta(seconds=settings.ADDRESS_PROOF_SECONDS)
    nonce = secrets.token_hex(16)
    message = siwe.SiweMessage(
        domain=urlsplit(origin).netloc, address=address,
        statement=_statement(purpose, address, chain.chain_id, key_prefix),
        uri=_uri(origin, purpose, chain.chain_id), chain_id=chain.chain_id, nonce=nonce,
        issued_at=now, expiration_time=expires, resources=(f"urn:api-key:{key_prefix}",))
    with transaction.atomic():
        # Challenges long past their expiry are of no use, not even to name a replay.
        AddressChallenge.objects.filter(expires_at__lt=now - timedelta(days=1)).delete()
        open_ones = AddressChallenge.objects.filter(key_prefix=key_prefix, expires_at__gt=now,
                                                    used_at__isnull=True)
        if open_ones[:MAX_OPEN_CHALLENGES].count() >= MAX_OPEN_CHALLENGES:
            raise Conflict(f"This key has {MAX_OPEN_CHALLENGES} challenges open: use them, or "
                           "wait for them to expire.", code="too_many_challenges")
        return AddressChallenge.objects.create(
            nonce=nonce, purpose=purpose, chain=chain, address=address, key_prefix=key_prefix,
            message=message.text(), issued_at=now, expires_at=expires)


def proof_use(proof: dict, *, purpose: str, chain, address: str, key_prefix: str,
              origin: str, now=None) -> AddressChallenge:
    """Check `proof` ({"message", "signature"}) for `address` on `chain`, by `key_prefix`,
    and use up its challenge. Call inside the transaction of what it proves: a rollback
    leaves the challenge unused. ProofRefused (400) naming what is wrong."""
    now = now or timezone.now()
    text, signature = proof["message"], proof["signature"]
    try:
        message = siwe.parse(text)
    except siwe.MalformedMessage:
        raise ProofRefused("proof_malformed") from None
    if message.domain == urlsplit(origin).netloc:
        for other in Purpose:
            if other != purpose and message.uri == _uri(origin, other, message.chain_id):
                raise ProofRefused("proof_wrong_purpose", given=other.label,
                                   expected=Purpose(purpose).label)
    if (message.domain != urlsplit(origin).netloc
            or message.uri != _uri(origin, purpose, message.chain_id)):
        raise ProofRefused("proof_wrong_origin", origin=origin)
    if message.chain_id != chain.chain_id:
        raise ProofRefused("proof_wrong_chain", given=message.chain_id, expected=chain.chain_id)
    if message.address != address:
        raise ProofRefused("proof_wrong_address", given=message.address, expected=address)
    signer = siwe.signer_of(text, signature)
    if signer is None:
        raise ProofRefused("proof_bad_signature")
    if signer != address:
        raise ProofRefused("proof_wrong_signer", given=signer, expected=address)
    challenge = AddressChallenge.objects.filter(nonce=message.nonce).first()
    if challenge is None:
        if message.expiration_time is not None and message.expiration_time <= now:
            raise ProofRefused("proof_expired", given=siwe.iso(message.expiration_time))
        raise ProofRefused("proof_unknown")
    if challenge.message != text:
        raise ProofRefused("proof_tampered")
    if challenge.key_prefix != key_prefix:
        raise ProofRefused("proof_wrong_key")
    if challenge.purpose != purpose:
        raise ProofRefused("proof_wrong_purpose", given=challenge.get_purpose_display(),
                           expected=Purpose(purpose).label)
    if challenge.used_at is not None:
        raise ProofRefused("proof_replayed")
    if challenge.expires_at <= now:
        raise ProofRefused("proof_expired", given=siwe.iso(challenge.expires_at))
    # Single use: of two registrations racing with one proof, one changes the row.
    used = AddressChallenge.objects.filter(nonce=challenge.nonce, used_at__isnull=True,
                                           expires_at__gt=now).update(used_at=now)
    if used != 1:
        raise ProofRefused("proof_replayed")
    challenge.used_at = now
    return challenge

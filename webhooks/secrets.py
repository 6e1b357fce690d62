"""Subscription secrets: made here, shown once, stored encrypted (the service must sign with
them, so a hash would not do).

A secret is Standard Webhooks' `whsec_` + base64 of 32 random bytes. At rest it is a Fernet
token under a key derived (HKDF-SHA256) from WEBHOOKS_SECRET_KEY, else SECRET_KEY.
"""

import base64
import secrets as random
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

from webhooks.models import Subscription

PREFIX = "whsec_"


def new_secret() -> str:
    return PREFIX + base64.b64encode(random.token_bytes(32)).decode()


def _fernet() -> Fernet:
    return _fernet_of(settings.WEBHOOKS_SECRET_KEY or settings.SECRET_KEY)


@lru_cache(maxsize=4)
def _fernet_of(master: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
               info=b"chain-registry webhook secrets").derive(master.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def seal(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def unseal(token: str) -> str:
    return _fernet().decrypt(token.encode()).decode()


def unreadable_secrets() -> int:
    """How many of the oldest and the newest subscription's secrets cannot be decrypted (0,
    1 or 2): the key changed (SECRET_KEY rotated without WEBHOOKS_SECRET_KEY) makes those
    sealed before, or after, unreadable, and their deliveries stop (/readyz asks)."""
    subscriptions = Subscription.objects.order_by("created_at", "id")
    tokens = {subscriptions.values_list("secret_encrypted", flat=True).first(),
              subscriptions.reverse().values_list("secret_encrypted", flat=True).first()}
    unreadable = 0
    for token in tokens - {None}:
        try:
            unseal(token)
        except InvalidToken:
            unreadable += 1
    return unreadable

"""Subscription secrets: made here, shown once, stored encrypted (the service must sign with
them, so a hash would not do).

A secret is Standard Webhooks' `whsec_` + base64 of 32 random bytes. At rest it is a Fernet
token under a key derived (HKDF-SHA256) from WEBHOOKS_SECRET_KEY, else SECRET_KEY.
"""

import base64
import secrets as random

from cryptography.fernet import Fernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

PREFIX = "whsec_"


def new_secret() -> str:
    return PREFIX + base64.b64encode(random.token_bytes(32)).decode()


def _fernet() -> Fernet:
    master = (settings.WEBHOOKS_SECRET_KEY or settings.SECRET_KEY).encode()
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
               info=b"chain-registry webhook secrets").derive(master)
    return Fernet(base64.urlsafe_b64encode(key))


def seal(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def unseal(token: str) -> str:
    return _fernet().decrypt(token.encode()).decode()

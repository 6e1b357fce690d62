"""An issuer's did:web document: https://<domain>/.well-known/did.json.

Fetched through the guarded client the RPC endpoints and webhooks use
(registry/rpc_transport.py), the host's name resolved by IDENTITY_DNS_RESOLVERS when set
(else by the system): public addresses only unless IDENTITY_ALLOW_PRIVATE, no
redirect followed (wherever it points), no environment proxy, at most
IDENTITY_DID_WEB_MAX_BYTES read within IDENTITY_DID_WEB_TIMEOUT_SECONDS, the certificate
checked against IDENTITY_HTTPS_CA_BUNDLE when set (else the system's authorities).
"""

import json
import ssl
from dataclasses import dataclass

from django.conf import settings

from issuers.claims import Claim, caip10, clip
from issuers.dns_txt import addresses
from registry.rpc_transport import RpcRefusal, fetch_document

PRIVATE_SETTING = "IDENTITY_ALLOW_PRIVATE"


@dataclass(frozen=True)
class DidDocument:
    claims: list[Claim]
    seen: str  # the document's first characters, or what went wrong
    error: str = ""


def did_url(domain: str) -> str:
    port = settings.IDENTITY_HTTPS_PORT
    return f"https://{domain}{'' if port == 443 else f':{port}'}/.well-known/did.json"


def _ssl_context() -> ssl.SSLContext:
    return ssl.create_default_context(cafile=settings.IDENTITY_HTTPS_CA_BUNDLE or None)


def did_document(domain: str) -> DidDocument:
    url = did_url(domain)
    try:
        status, body = fetch_document(
            url, private_setting=PRIVATE_SETTING, max_bytes=settings.IDENTITY_DID_WEB_MAX_BYTES,
            seconds=settings.IDENTITY_DID_WEB_TIMEOUT_SECONDS, ssl_context=_ssl_context(),
            # The host's addresses from the resolvers the TXT records come from, when set.
            lookup=addresses if settings.IDENTITY_DNS_RESOLVERS else None)
    except RpcRefusal as exc:
        return DidDocument([], "", f"{url}: {exc}")
    seen = clip(body.decode("utf-8", "replace"), 2000)
    if status != 200:
        return DidDocument([], seen, f"{url} answered HTTP {status}")
    try:
        document = json.loads(body)
    except ValueError:
        return DidDocument([], seen, f"{url} is not JSON")
    expected = f"did:web:{domain}"
    if not isinstance(document, dict) or document.get("id") != expected:
        return DidDocument([], seen, f"{url} is not the DID document of {expected}")
    methods = document.get("verificationMethod")
    methods = methods if isinstance(methods, list) else []
    claims = [caip10(m.get("blockchainAccountId"), str(m.get("id") or "a verification method"))
              for m in methods if isinstance(m, dict)]
    return DidDocument([c for c in claims if c], seen)

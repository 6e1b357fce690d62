"""Masking of credentials in RPC URLs: every response and log shows them masked."""

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "***"
_SECRET_PARAM = re.compile(r"key|token|secret|pass|auth|sig|credential", re.IGNORECASE)
# Providers put keys in the path (Alchemy /v2/<key>, Infura /v3/<id>, QuickNode /<token>/):
# a long segment that mixes letters and digits is treated as a secret.
_SECRET_SEGMENT = re.compile(r"(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{16,}")


def mask_url(url: str) -> str:
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        host = f"[{host}]" if ":" in host else host
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return MASK
    netloc = f"{MASK}@{host}{port}" if (parts.username or parts.password) else parts.netloc
    path = "/".join(
        MASK if _SECRET_SEGMENT.fullmatch(segment) else segment for segment in parts.path.split("/")
    )
    query = urlencode(
        [(k, MASK if _SECRET_PARAM.search(k) else v) for k, v in parse_qsl(parts.query, True)],
        safe="*",
    )
    return urlunsplit((parts.scheme, netloc, path, query, ""))

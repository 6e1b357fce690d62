"""Masking of credentials in RPC URLs: every response and log shows them masked."""

import re
from urllib.parse import unquote_plus, urlsplit, urlunsplit

MASK = "***"
_SECRET_PARAM = re.compile(r"key|token|secret|pass|auth|sig|credential", re.IGNORECASE)
# Providers put keys in the path (Alchemy /v2/<key>, Infura /v3/<id>, QuickNode /<token>/):
# a long segment that has a digit or a capital letter is treated as a secret. Random keys
# without a digit are not rare enough to ignore (about 1 Alchemy key in 250), while
# slugs such as "ethereum-mainnet-archive" are lowercase words.
_SECRET_SEGMENT = re.compile(r"(?=[A-Za-z0-9_-]*[0-9A-Z])[A-Za-z0-9_-]{16,}")


def mask_url(url: str) -> str:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return MASK
    netloc = parts.netloc
    if "@" in netloc:
        # Everything before the last "@" is userinfo; the host keeps its spelling.
        netloc = f"{MASK}@{netloc.rpartition('@')[2]}"
    path = "/".join(
        MASK if _SECRET_SEGMENT.fullmatch(segment) else segment for segment in parts.path.split("/")
    )
    # Masked pair by pair, so that a URL without secrets comes back exactly as given.
    query = "&".join(
        f"{pair.partition('=')[0]}={MASK}"
        if _SECRET_PARAM.search(unquote_plus(pair.partition("=")[0])) else pair
        for pair in parts.query.split("&")
    ) if parts.query else ""
    # The fragment is never sent to the server; dropped, since it could hold anything.
    return urlunsplit((parts.scheme, netloc, path, query, ""))


_URL_IN_TEXT = re.compile(r"(?:https?|wss?)://[^\s'\"<>)]+", re.IGNORECASE)
_PATH_SEGMENT_IN_TEXT = re.compile(r"(?<=/)[A-Za-z0-9_-]{16,}")
_QUERY_PAIR_IN_TEXT = re.compile(r"(?<=[?&])([^=&#\s'\"<>()]+)(=[^&#\s'\"<>()]*)?")


def _mask_query_pair(match) -> str:
    name = match.group(1)
    return f"{name}={MASK}" if _SECRET_PARAM.search(unquote_plus(name)) else match.group(0)


def mask_text(text: str) -> str:
    """Mask the URLs in free text (an exception message, a log line), and what is left of a
    URL without its scheme and host: urllib3 says "Max retries exceeded with url:
    /v2/<key>?apikey=<key>", so key-like path segments and key-like query pairs too."""
    text = _URL_IN_TEXT.sub(lambda match: mask_url(match.group(0)), text)
    text = _QUERY_PAIR_IN_TEXT.sub(_mask_query_pair, text)
    return _PATH_SEGMENT_IN_TEXT.sub(
        lambda m: MASK if _SECRET_SEGMENT.fullmatch(m.group(0)) else m.group(0), text
    )

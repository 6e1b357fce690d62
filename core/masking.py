"""Masking of credentials in RPC URLs: every response and log shows them masked."""

import re
from urllib.parse import unquote_plus, urlsplit, urlunsplit

MASK = "***"
_SECRET_PARAM = re.compile(r"key|token|secret|pass|auth|sig|credential", re.IGNORECASE)
# Providers put keys in the path (Alchemy /v2/<key>, Infura /v3/<id>, QuickNode /<token>/):
# a long segment with a digit or a capital letter is taken for a secret, and so is a longer
# one of lowercase letters that does not read as a slug, lowercase words joined by "-" or
# "_" ("ethereum-mainnet-archive"): random keys without a digit are not rare enough to
# ignore (about 1 Alchemy key in 250), and a lowercase one is one long "word".
_MIXED_SEGMENT = re.compile(r"(?=[A-Za-z0-9_-]*[0-9A-Z])[A-Za-z0-9_-]{16,}")
_LOWERCASE_SEGMENT = re.compile(r"[a-z_-]{24,}")
_SLUG = re.compile(r"[a-z]{1,15}(?:[-_][a-z]{1,15})+")
# A JWT (header.payload[.signature], the header base64 of '{"'): a bearer credential.
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)?")


def _is_secret_segment(segment: str) -> bool:
    if _JWT.fullmatch(segment):
        return True
    if _MIXED_SEGMENT.fullmatch(segment):
        return True
    return bool(_LOWERCASE_SEGMENT.fullmatch(segment)) and not _SLUG.fullmatch(segment)


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
    path = "/".join(MASK if _is_secret_segment(segment) else segment
                    for segment in parts.path.split("/"))
    # Every value goes (any parameter name may carry a key); names stay, to tell URLs apart.
    query = "&".join(_mask_pair(pair) for pair in parts.query.split("&")) if parts.query else ""
    # The fragment is never sent to the server; dropped, since it could hold anything.
    return urlunsplit((parts.scheme, netloc, path, query, ""))


def _mask_pair(pair: str) -> str:
    name, equals, _ = pair.partition("=")
    if equals or _SECRET_PARAM.search(unquote_plus(name)):
        return f"{name}={MASK}"
    return pair  # a bare flag ("?debug"), unless its name says key


_URL_IN_TEXT = re.compile(r"(?:https?|wss?)://[^\s'\"<>)]+", re.IGNORECASE)
_PATH_SEGMENT_IN_TEXT = re.compile(r"(?<=/)[A-Za-z0-9_.-]{16,}")
_QUERY_PAIR_IN_TEXT = re.compile(r"(?<=[?&])[^=&#\s'\"<>()]+(?:=[^&#\s'\"<>()]*)?")
# `api_key=...`, `"token": "..."`, `password: ...` in free text: the value goes. Public key
# prefixes (crk_<12 hex>, env:admin) and what is masked already stay.
_SECRET_ASSIGNMENT = re.compile(
    r"(?P<name>\b[\w.-]*(?:key|token|secret|passw|auth|credential)[\w.-]*[\"']?\s*[=:]\s*[\"']?)"
    r"(?P<value>[^\s\"'&,;)}\]]+)", re.IGNORECASE)
_PUBLIC_VALUE = re.compile(
    r"crk_[0-9a-f]{12}|env:\w+|-|\*\*\*|None|null|true|false|\d{1,9}|Bearer|Basic",
    re.IGNORECASE)
_STORED_KEY_PREFIX = re.compile(r"crk_[0-9a-f]{12}\.")  # the public part of a stored key
_BEARER = re.compile(r"\b(Bearer|Basic)\s+(?!\*\*\*)[^\s'\",;]+", re.IGNORECASE)


def _mask_assignment(match) -> str:
    value = match["value"]
    if _PUBLIC_VALUE.fullmatch(value):
        return match.group(0)
    prefix = _STORED_KEY_PREFIX.match(value)
    return match["name"] + (prefix.group(0) if prefix else "") + MASK


# What each pattern of mask_text needs to find anything (a URL's "://", a query's "?" or
# "&", a long path segment, a JWT's "eyJ", Bearer/Basic, a key-like name): text without any
# of these is returned as it is, without running the six patterns (most log lines).
_MAYBE_SECRET = re.compile(
    r"://|[?&]|/[A-Za-z0-9_.-]{16}|eyJ|bearer|basic|key|token|secret|passw|auth|credential",
    re.IGNORECASE)


def mask_text(text: str) -> str:
    """Mask the URLs in free text (an exception message, a log line), and what is left of a
    URL without its scheme and host: urllib3 says "Max retries exceeded with url:
    /v2/<key>?apikey=<key>", so key-like path segments and query values too; then JWTs,
    `Bearer <token>`, and values assigned to key-like names (`apikey=<key>`)."""
    return _mask_every_pattern(text) if _MAYBE_SECRET.search(text) else text


def _mask_every_pattern(text: str) -> str:
    text = _URL_IN_TEXT.sub(lambda match: mask_url(match.group(0)), text)
    text = _QUERY_PAIR_IN_TEXT.sub(lambda match: _mask_pair(match.group(0)), text)
    text = _PATH_SEGMENT_IN_TEXT.sub(
        lambda m: MASK if _is_secret_segment(m.group(0)) else m.group(0), text
    )
    text = _JWT.sub(MASK, text)
    text = _BEARER.sub(lambda m: f"{m[1]} {MASK}", text)
    return _SECRET_ASSIGNMENT.sub(_mask_assignment, text)

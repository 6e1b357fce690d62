"""RFC 9457 problem documents: one builder for DRF errors and plain Django errors alike.

A document stays small whatever the request held (some 3,000 characters at most): its `detail` and each
error's words are cut short, and `errors` lists the first MAX_ERRORS (the `detail` of a
validation error says how many there were). Messages that name what a client sent name a
few of them (`named`)."""

from http import HTTPStatus
from itertools import islice

from django.http import JsonResponse

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:problem-type:chain-registry:"

# The `code` of an error that has nothing more specific to say, by status.
DEFAULT_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    412: "precondition_failed",
    411: "length_required",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "server_error",
    503: "service_unavailable",
}
DEFAULT_DETAILS = {
    404: "No resource at this path.",
    405: "This method is not allowed here.",
    500: "The server failed to handle this request; it has been logged.",
}


MAX_ERRORS = 10
MAX_DETAIL = 300  # characters of `detail`
MAX_ATTR = 80  # characters of an error's `attr` ...
MAX_ERROR_DETAIL = 120  # ... and of its `detail`
FIRST_NAMED = 5  # keys (fields, parameters) a message names at most


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, an ellipsis saying so."""
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def named(names) -> str:
    """The first FIRST_NAMED of `names`, quoted and each cut short: for a message."""
    return ", ".join(repr(clip(str(name), 40)) for name in islice(names, FIRST_NAMED))


def _clip_error(error: dict) -> dict:
    clipped = dict(error)
    for key, limit in (("attr", MAX_ATTR), ("detail", MAX_ERROR_DETAIL)):
        if isinstance(clipped.get(key), str):
            clipped[key] = clip(clipped[key], limit)
    return clipped


def problem(status: int, *, code=None, detail=None, title=None, errors=None, **extra) -> dict:
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    code = code or DEFAULT_CODES.get(status, "error")
    document = {
        "type": TYPE_PREFIX + code,
        "title": title or phrase,
        "status": status,
        "detail": clip(str(detail or DEFAULT_DETAILS.get(status, phrase + ".")), MAX_DETAIL),
        "code": code,
    }
    if errors is not None:
        document["errors"] = [_clip_error(error) for error in errors[:MAX_ERRORS]]
    document.update(extra)
    return document


def problem_response(status: int, **fields) -> JsonResponse:
    """A problem document as a plain Django response, for errors outside DRF."""
    return JsonResponse(problem(status, **fields), status=status, content_type=PROBLEM_CONTENT_TYPE)

"""RFC 9457 problem documents: one builder for DRF errors and plain Django errors alike."""

from http import HTTPStatus

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
        "detail": detail or DEFAULT_DETAILS.get(status, phrase + "."),
        "code": code,
    }
    if errors is not None:
        document["errors"] = errors
    document.update(extra)
    return document


def problem_response(status: int, **fields) -> JsonResponse:
    """A problem document as a plain Django response, for errors outside DRF."""
    return JsonResponse(problem(status, **fields), status=status, content_type=PROBLEM_CONTENT_TYPE)

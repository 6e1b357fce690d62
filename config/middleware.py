"""Request-wide concerns: the request id, the body size limit, problem documents for
errors that happen outside DRF (unknown paths, 405s of plain views, crashes), and the
headers of answers to a key (rate limit, caching)."""

import logging
import re
import uuid

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.http.multipartparser import MultiPartParserError

from core.problems import problem_response
from core.request_id import request_id_var

logger = logging.getLogger("config.errors")
_VALID_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# The Django admin and its login, the public verification page (verification/pages.py) and
# the issuer pages (issuance/pages.py; their JSON under /issue/api answers problem documents
# itself) keep their own HTML pages.
_HTML_PATHS = ("/admin/", "/verify", "/issue")
# What Django's own handler turns into a 4xx rather than a 500 (Http404 of a plain view,
# the admin's catch-all 404, a bad Host header, ...).
_CLIENT_ERRORS = (Http404, PermissionDenied, BadRequest, SuspiciousOperation, MultiPartParserError)


class RequestIdMiddleware:
    """Echo a client's X-Request-ID (when sane) or make one; on every response and log line."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get("X-Request-ID", "")
        request_id = given if _VALID_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        request.request_id = request_id
        token = request_id_var.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        response["X-Request-ID"] = request_id
        return response


def error_response(request, status: int, **fields):
    """A problem document; under /trpc, the tRPC or JSON-RPC envelope its clients read."""
    if request.path_info == "/trpc" or request.path_info.startswith("/trpc/"):
        from trpc.views import error_response as envelope  # the views import DRF

        return envelope(request, status, fields.get("detail"))
    return problem_response(status, **fields)


# What a keyed answer may be kept as by default: nowhere (it is the key holder's, and may
# change at any time).
KEYED_CACHE_CONTROL = "private, no-store"


class KeyedResponseMiddleware:
    """On answers to a request that carried a key: the key's rate-limit budget, as the
    throttle counted it (core/throttling.py; 429s included), and `Cache-Control: private,
    no-store` unless the view chose its own (an item read that can be revalidated, a list
    that may be kept a minute: core/conditional.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        window = getattr(request, "rate_limit", None)
        if window is not None:
            for name, value in window.headers().items():
                response[name] = value
        # DRF sets `auth` on the Django request too; a request without a key has none.
        if getattr(request, "auth", None) is not None and "Cache-Control" not in response:
            response["Cache-Control"] = KEYED_CACHE_CONTROL
        return response


class ProblemDetailsMiddleware:
    """Turn every error that is not already JSON into an RFC 9457 problem document."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code < 400 or request.path.startswith(_HTML_PATHS):
            return response
        content_type = response.get("Content-Type", "")
        if "json" in content_type:
            return response
        converted = error_response(request, response.status_code)
        for header in ("Allow", "WWW-Authenticate", "Retry-After"):
            if header in response:
                converted[header] = response[header]
        return converted

    def process_exception(self, request, exception):
        if isinstance(exception, _CLIENT_ERRORS):
            return None  # Django answers these with a 4xx, which __call__ then converts
        if isinstance(exception, (OperationalError, InterfaceError)):
            logger.warning("Database unavailable on %s %s: %s", request.method, request.path,
                           exception)
            response = problem_response(503, detail="The database is unavailable; try again shortly.")
            response["Retry-After"] = "5"
            return response
        # Views outside DRF that crash: log with the traceback, answer without one, and tell
        # error trackers as Django (and the DRF handler) would.
        logger.exception("Unhandled exception on %s %s", request.method, request.path)
        got_request_exception.send(sender=type(self), request=request)
        return error_response(request, 500)


class BodySizeLimitMiddleware:
    """413 for a declared body over MAX_REQUEST_BODY_BYTES, before anything reads it; 411
    for a chunked body (no Content-Length), which Django would read as empty."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "HTTP_TRANSFER_ENCODING" in request.META and not request.META.get("CONTENT_LENGTH"):
            # Django reads only Content-Length bytes: refused, rather than taken as empty.
            # (runserver's wsgiref sets CONTENT_LENGTH to "" when the header is absent.)
            return error_response(request, 411, detail="Send the body with a Content-Length "
                                  "header; chunked request bodies are not read.")
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return error_response(request, 400, detail="The Content-Length header is not a number.")
        limit = settings.MAX_REQUEST_BODY_BYTES
        if length > limit:
            return error_response(
                request, 413, detail=f"The request body is {length} bytes; the limit is {limit} bytes."
            )
        return self.get_response(request)

"""Errors as RFC 9457 problem documents (through drf-standardized-errors).

Services raise the domain exceptions below (or Django's); they name no HTTP machinery.
This module alone maps them, and DRF's and Django's own, to statuses and problem
documents, so that services and views stay free of error handling.
"""

from django.core.exceptions import RequestDataTooBig
from django.db import DataError, IntegrityError, InterfaceError, OperationalError
from django.db.models import ProtectedError, RestrictedError
from djangorestframework_camel_case.util import camelize_re, underscore_to_camel
from drf_standardized_errors.formatter import ExceptionFormatter, flatten_errors
from drf_standardized_errors.handler import ExceptionHandler
from rest_framework import exceptions, status

from core.problems import MAX_ERRORS, PROBLEM_CONTENT_TYPE, problem

# Domain exceptions ----------------------------------------------------------------------


class DomainError(Exception):
    """A request the service's rules refuse. `detail` says why (None: the status's usual
    words), `code` names the rule for clients; `errors` are field errors (field -> messages,
    nested as the request's fields are) when the refusal is about particular fields."""

    def __init__(self, detail=None, code: str | None = None, *, errors=None):
        super().__init__(detail)
        self.detail = detail
        self.code = code
        self.errors = errors


class Invalid(DomainError):
    """400: the request's content is wrong. `detail` may itself be the field errors
    ({"schema_id": ["No schema ..."]}), as DRF's ValidationError takes them."""


class PermissionDenied(DomainError):
    """403: this key may not do this."""


class NotFound(DomainError):
    """404: what the request names does not exist (for this key)."""


class Conflict(DomainError):
    """409: the request conflicts with the current state of the resource."""


class ServiceUnavailable(DomainError):
    """503: a service this request needs (a chain's RPC endpoints, ...) does not answer."""


# What the handler answers (DRF's exceptions) ---------------------------------------------


class HttpConflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the current state of the resource."
    default_code = "conflict"


class BadQueryParameters(exceptions.ValidationError):
    """400 naming query parameters as the client wrote them (attrs not camelCased:
    `is_testnet` must not come back as the valid `isTestnet`, nor `field.doc_hash` as
    `field.docHash`)."""

    attrs_as_given = True


class UnknownQueryParameters(BadQueryParameters):
    """400 naming query parameters a list does not take."""


class PreconditionFailed(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = ("The resource has changed since the ETag given in If-Match: read it "
                      "again, and send the new ETag with your change.")
    default_code = "precondition_failed"


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


class HttpServiceUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "A service this request needs is unavailable; try again later."
    default_code = "service_unavailable"


class DatabaseUnavailable(HttpServiceUnavailable):
    default_detail = "The database is unavailable; try again shortly."
    wait = 5  # Retry-After


_ANSWERS = {
    Invalid: exceptions.ValidationError,
    PermissionDenied: exceptions.PermissionDenied,
    NotFound: exceptions.NotFound,
    Conflict: HttpConflict,
    ServiceUnavailable: HttpServiceUnavailable,
    DomainError: exceptions.ValidationError,  # a refusal of no more particular kind: a 400
}


def as_api_exception(exc: DomainError) -> exceptions.APIException:
    """The DRF exception that answers a domain exception (its nearest listed ancestor's)."""
    answer = next(_ANSWERS[cls] for cls in type(exc).__mro__ if cls in _ANSWERS)
    converted = answer(exc.detail, exc.code)
    if exc.errors is not None:  # as DRF keeps them: messages with the code
        converted.field_errors = exceptions.ValidationError(exc.errors, exc.code).detail
    return converted


def camel_attr(attr: str | None) -> str | None:
    """`native_currency.decimals` -> `nativeCurrency.decimals`: attrs name wire fields."""
    if attr is None:
        return None
    return camelize_re.sub(underscore_to_camel, attr)


class ProblemExceptionHandler(ExceptionHandler):
    def convert_known_exceptions(self, exc):
        if isinstance(exc, DomainError):
            return as_api_exception(exc)
        if isinstance(exc, (ProtectedError, RestrictedError)):
            objects = getattr(exc, "protected_objects", None) or exc.restricted_objects
            blocking = sorted({str(obj._meta.verbose_name_plural) for obj in objects})
            return HttpConflict(f"Still referenced by {', '.join(blocking)}; remove those first.")
        if isinstance(exc, IntegrityError):
            # A race past the serializer's uniqueness check; the constraint held.
            return HttpConflict("A record with these unique values already exists.", code="duplicate")
        if isinstance(exc, (OperationalError, InterfaceError)):
            # The database went away (restart, failover): a 503 the client may retry, not a
            # crash. The next request reconnects (CONN_HEALTH_CHECKS).
            return DatabaseUnavailable()
        if isinstance(exc, DataError):
            # A value the database cannot hold (a number past bigint in a filter, ...): the
            # input's fault, and the statement changed nothing.
            return exceptions.ValidationError(
                "A value in the request is out of range for what it names.", code="out_of_range")
        if isinstance(exc, RequestDataTooBig):
            return PayloadTooLarge()
        if isinstance(exc, exceptions.ValidationError) and _only_unique_errors(exc.detail):
            conflict = HttpConflict("A record with these unique values already exists.", "duplicate")
            conflict.field_errors = exc.detail
            return conflict
        return super().convert_known_exceptions(exc)

    def get_response(self, exc, data):
        response = super().get_response(exc, data)
        response.content_type = PROBLEM_CONTENT_TYPE
        return response


class ProblemFormatter(ExceptionFormatter):
    def run(self):
        exc = self.exc
        detail = exc.detail
        if isinstance(exc, exceptions.ValidationError) or hasattr(exc, "field_errors"):
            name = (lambda attr: attr) if getattr(exc, "attrs_as_given", False) else camel_attr
            errors = [
                {"attr": name(e.attr), "code": e.code, "detail": e.detail}
                for e in flatten_errors(getattr(exc, "field_errors", detail))
            ]
            summary = _summary(errors)
            if isinstance(exc, exceptions.ValidationError):
                return problem(400, code="validation_error", detail=summary, errors=errors)
            return problem(exc.status_code, code=detail.code, detail=str(detail), errors=errors)
        if isinstance(detail, (list, dict)):  # an APIException raised with a structure
            errors = [{"attr": camel_attr(e.attr), "code": e.code, "detail": e.detail}
                      for e in flatten_errors(detail)]
            return problem(exc.status_code, detail=errors[0]["detail"], errors=errors)
        # A crash: logged with its traceback, never shown. Only the 500 that the handler made
        # of an unknown exception: Http404 or IntegrityError arrive here converted, as 404/409.
        if exc.status_code == 500 and not isinstance(self.original_exc, exceptions.APIException):
            return problem(500)
        code = getattr(detail, "code", None) or exc.default_code
        return problem(exc.status_code, code=code, detail=str(detail))


def _summary(errors: list[dict]) -> str:
    first = errors[0] if errors else {"attr": None, "detail": "Invalid input."}
    text = f"{first['attr']}: {first['detail']}" if first["attr"] else first["detail"]
    if len(errors) <= 1:
        return text
    where = "see errors" if len(errors) <= MAX_ERRORS else f"the first {MAX_ERRORS} in errors"
    return f"{text} (and {len(errors) - 1} more; {where})"


def _only_unique_errors(detail) -> bool:
    codes = [e.code for e in flatten_errors(detail)]
    return bool(codes) and all(code == "unique" for code in codes)

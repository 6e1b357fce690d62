"""Services raise the domain exceptions of core/errors.py; the one handler answers each with
the problem document its DRF counterpart gave before (status, type, code, detail, errors)."""

from pathlib import Path

import pytest
from drf_standardized_errors.handler import exception_handler
from rest_framework import exceptions

from core import errors

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ["registry/services.py", "executors/services.py", "executors/models.py",
            "verification/services.py", "bindings/workflows.py", "bindings/jobs.py",
            "bindings/tracking.py"]

FIELD_ERRORS = {"schema_id": ["No schema 0x01 is known on chain 1."]}


def _with_field_errors(exc, field_errors):
    exc.field_errors = field_errors
    return exc


CASES = {
    "not found": (errors.NotFound("No chain 'x' is registered."),
                  exceptions.NotFound("No chain 'x' is registered.")),
    "not found, default words": (errors.NotFound(), exceptions.NotFound()),
    "permission denied": (errors.PermissionDenied("Registered with another key."),
                          exceptions.PermissionDenied("Registered with another key.")),
    "conflict with a code": (errors.Conflict("Chain 1 is inactive.", code="chain_inactive"),
                             errors.HttpConflict("Chain 1 is inactive.", code="chain_inactive")),
    "conflict, default words": (errors.Conflict(), errors.HttpConflict()),
    "conflict naming fields": (
        errors.Conflict("Exists.", "duplicate", errors={"name": ["Taken."]}),
        _with_field_errors(errors.HttpConflict("Exists.", "duplicate"),
                           exceptions.ValidationError({"name": ["Taken."]}, "duplicate").detail),
    ),
    "invalid, a message": (errors.Invalid("Bad."), exceptions.ValidationError("Bad.")),
    "invalid, field errors": (errors.Invalid(FIELD_ERRORS, code="does_not_exist"),
                              exceptions.ValidationError(FIELD_ERRORS, code="does_not_exist")),
    "a refusal of no particular kind": (errors.DomainError("Refused."),
                                        exceptions.ValidationError("Refused.")),
    "service unavailable": (
        errors.ServiceUnavailable("No RPC endpoint answered.", code="chain_unavailable"),
        errors.HttpServiceUnavailable("No RPC endpoint answered.", code="chain_unavailable"),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_domain_exception_is_answered_as_its_drf_counterpart(name):
    domain, drf = CASES[name]
    context = {"view": None, "request": None}

    ours, theirs = exception_handler(domain, context), exception_handler(drf, context)

    assert ours.status_code == theirs.status_code
    assert ours.data == theirs.data
    assert ours.content_type == theirs.content_type == "application/problem+json"


def test_a_subclass_is_answered_as_its_nearest_domain_exception():
    class ChainInactive(errors.Conflict):
        pass

    response = exception_handler(ChainInactive("Inactive.", "chain_inactive"), {"request": None})

    assert response.status_code == 409 and response.data["code"] == "chain_inactive"


@pytest.mark.parametrize("path", SERVICES)
def test_services_raise_no_http_exceptions(path):
    assert "rest_framework.exceptions" not in (ROOT / path).read_text()

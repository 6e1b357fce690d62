"""Fuzzing every operation of our own OpenAPI schema with schemathesis (in-process WSGI),
with valid keys: no 5xx, and every response conforms to the schema (status code, content
type, headers, body). Bounded examples per operation, so it stays quick in CI."""

import json
from contextlib import contextmanager

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import assert_problem
from tests.factories import ChainFactory

EXAMPLES_PER_OPERATION = 4
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]


def _load_schema():
    """Our schema as /v1/openapi.json serves it, generated once at collection, called
    through the WSGI application in-process."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    from config.wsgi import application

    raw = json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(public=True)))
    loaded = schemathesis.openapi.from_dict(raw)
    loaded.app = application
    return loaded


@contextmanager
def _connections_kept():
    # Django closes the connection at the end of each request; the test's transaction must
    # survive the in-process calls (Django's test client does the same).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def fuzzing(db, settings):
    # Fuzzing measures the API, not its rate limits; the data to hit is a real chain.
    settings.API_RATE_LIMITS = {"admin": None, "api": None, "executor": None}
    ChainFactory(chain_id=1)
    with _connections_kept():
        yield


schema = _load_schema()


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck), database=None)
def test_every_operation_answers_within_its_schema(case, fuzzing, admin_key):
    # An admin key carries every scope: in X-API-Key for the API, as a Bearer for /v1/admin.
    headers = {"X-API-Key": admin_key, "Authorization": f"Bearer {admin_key}"}
    case.call_and_validate(headers=headers, checks=CHECKS)


# What the fuzzing found, kept as plain regression tests.


@pytest.mark.django_db
def test_an_offset_past_bigint_is_a_400_not_a_crash(admin):
    response = admin.get("/v1/admin/rpc/health?offset=18134525700832394330388329136128")
    assert_problem(response, 400, "validation_error")


def test_a_value_the_database_cannot_hold_is_a_validation_error():
    from django.db import DataError
    from rest_framework.exceptions import ValidationError

    from config.api.errors import ProblemExceptionHandler

    converted = ProblemExceptionHandler(DataError("bigint out of range"), {}).convert_known_exceptions(
        DataError("bigint out of range"))
    assert isinstance(converted, ValidationError)


@pytest.mark.django_db
def test_options_on_an_action_with_a_serializer_per_action_answers(executor_key):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    response = client.options("/v1/chain-registry/1/register")
    assert response.status_code == 200, response.content
    assert response.json()["parses"] == ["application/json"]

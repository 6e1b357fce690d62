"""Fuzzing every operation of our own OpenAPI schema with schemathesis (in-process WSGI),
with valid keys, over a database holding a record of every kind (with its nullable fields
both null and set, so that a response can show each one): no 5xx, and every response
conforms to the schema (status code, content type, headers, body, Allow), authentication is
not ignored, unsupported methods are refused. Bounded examples per operation, so it stays
quick in CI."""

import json
from contextlib import contextmanager
from datetime import timedelta

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    allow_header_conformance,
    content_type_conformance,
    ignored_auth,
    missing_required_header,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from tests.conftest import assert_problem
from tests.factories import (
    AttestationFactory,
    ChainFactory,
    ContractVersionFactory,
    DeploymentFactory,
    ExecutorFactory,
    ProviderHealthFactory,
    RpcEndpointFactory,
    SchemaFactory,
    TrustedAttesterFactory,
)

EXAMPLES_PER_OPERATION = 4
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance, allow_header_conformance,
          ignored_auth, missing_required_header, unsupported_method]


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


def _seed(admin_key: str) -> None:
    """A record of every kind the API shows, nullable fields null in one and set in another
    (ProviderHealth.rpcId was typed a plain integer, and null broke the schema)."""
    from bindings.models import Workflow
    from registry.authentication import authenticate_key
    from registry.models import Deployment

    now = timezone.now()
    chain = ChainFactory(chain_id=1)
    anvil = ChainFactory(chain_id=31337, short_name="anvil")
    endpoint = RpcEndpointFactory(chain=chain)
    RpcEndpointFactory(chain=anvil, status="healthy", latency_ms=12.5, head_block=100,
                       lag_blocks=0, observed_chain_id=31337, consecutive_successes=3,
                       last_checked_at=now)
    ProviderHealthFactory(rpc_endpoint=None, provider="local")
    ProviderHealthFactory(rpc_endpoint=endpoint, provider="", status="maintenance",
                          until=now + timedelta(hours=1))
    executor = ExecutorFactory(chain=chain, pending_jobs=3, head_block=99)
    ExecutorFactory(chain=anvil, trust_revoked_at=now, last_heartbeat_at=None, status="offline")
    TrustedAttesterFactory(chain=chain)
    ContractVersionFactory()
    registry = DeploymentFactory(chain=anvil, kind=Deployment.Kind.SCHEMA_REGISTRY)
    DeploymentFactory(chain=anvil, kind=Deployment.Kind.EAS, address="0x" + "ea" * 20)
    schema = SchemaFactory(deployment=registry, chain=anvil)
    AttestationFactory(schema=schema)
    AttestationFactory(schema=schema, revocation_time=now, expiration_time=now)
    created_by = authenticate_key(admin_key).prefix  # the admin key's: it sees them all
    tx = "0x" + "7a" * 32
    for state, fields in [
        ("queued", {}), ("dispatched", {"executor": executor, "dispatched_at": now}),
        ("confirmed", {"tx_hash": tx, "tx_hashes": [tx], "block_number": 5,
                       "attestation_uid": "0x" + "aa" * 32, "confirmed_at": now}),
        ("failed", {"last_error": "reverted"}),
    ]:
        workflow = Workflow.objects.create(chain=anvil, document_hash="0x" + "d0" * 32,
                                           schema_uid=schema.uid, state=state, deadline=now,
                                           created_by=created_by, **fields)
        workflow.transitions.create(from_state="", to_state=state, cause="seeded")


@pytest.fixture
def fuzzing(db, settings, admin_key):
    # Fuzzing measures the API, not its rate limits.
    settings.API_RATE_LIMITS = {"admin": None, "api": None, "executor": None}
    _seed(admin_key)
    with _connections_kept():
        yield


# The probes and /metrics (tag ops) are plain Django views, not the API: /readyz answers 503
# by design while this test's Celery beat is not running (tests/test_health.py tests them).
schema = _load_schema().exclude(tag="ops")


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

    from core.errors import ProblemExceptionHandler

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


def _openapi():
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(public=True)


def test_the_schema_says_what_the_server_refuses():
    """What fuzzing with schemathesis's positive and negative data found: the schema
    promised requests that the server answers 400 (or allowed fields it refuses)."""
    openapi = _openapi()
    components = openapi["components"]["schemas"]
    assert components["ProviderHealth"]["properties"]["rpcId"].get("nullable") is True
    assert components["VerifyRequest"]["additionalProperties"] is False  # strict bodies

    def query(path, name):
        parameters = openapi["paths"][path]["get"]["parameters"]
        return next(p["schema"] for p in parameters if p["name"] == name)

    assert query("/chains", "isTestnet")["type"] == "boolean"
    assert query("/chains", "limit")["minimum"] == 1
    assert query("/schemas", "chainId")["items"]["minimum"] == 1  # several: chainId=1,10
    assert query("/workflows", "limit")["maximum"] == 500


@pytest.mark.django_db
@pytest.mark.parametrize("limit", ["null", "0", "501", "-1"])
def test_a_bad_workflows_limit_is_a_400_not_the_default(api, limit):
    assert_problem(api.get(f"/workflows?limit={limit}"), 400, "validation_error")

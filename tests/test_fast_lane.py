"""The fast lane (core/fast_lane.py) answers as DRF's dispatch does: every request here
is sent twice, through the lane and with API_FAST_LANE off, and the answers compared."""

import json
from datetime import timedelta
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.views import APIView

from core.responses import _RENDERER, rendered
from executors.models import ExecutorStatus
from registry.models import KeyScope
from tests.conftest import make_key
from tests.factories import (
    AttestationFactory,
    ChainFactory,
    ExecutorFactory,
    IndexCursorFactory,
    SchemaFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)

HASH = "0x" + "d0" * 32
EXECUTOR = "0x" + "e1" * 20
VERIFY = "/v1/verify"
HEARTBEAT = "/v1/chain-registry/{}/heartbeat"
# Headers that differ between any two requests, whichever lane.
VARYING = {"X-Request-ID", "Date"}


@pytest.fixture
def chain():
    chain = ChainFactory(chain_id=31337, short_name="anvil", confirmations=12)
    IndexCursorFactory(deployment__chain=chain, head_block=1000)
    ExecutorFactory(chain=chain, address=EXECUTOR)
    schema = SchemaFactory(deployment__chain=chain)
    AttestationFactory(schema=schema, attester=EXECUTOR, document_hash=HASH, block_number=900)
    return chain


def send(settings, fast: bool, path: str, body, key: str | None, content_type="application/json"):
    settings.API_FAST_LANE = fast
    headers = {"HTTP_X_API_KEY": key} if key is not None else {}
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    # A 5xx signals got_request_exception, which the test client would raise.
    response = Client(raise_request_exception=False).post(path, data, content_type=content_type,
                                                           **headers)
    return (response.status_code, response.content,
            {k: v for k, v in response.headers.items() if k not in VARYING})


def both_lanes(settings, path, body, key, **kwargs):
    """The answer through the lane and through DRF's dispatch; they must be the same."""
    fast = send(settings, True, path, body, key, **kwargs)
    slow = send(settings, False, path, body, key, **kwargs)
    assert fast == slow
    return fast


def refuse_drf_dispatch():
    """Fails a request that goes through DRF's own dispatch."""
    return mock.patch.object(APIView, "initial", side_effect=AssertionError("DRF's dispatch"))


# --- Verification ----------------------------------------------------------------------------

VERIFY_BODIES = {
    "verified": {"documentHash": HASH},
    "verified, upper-case hex": {"documentHash": HASH.upper().replace("0X", "0x")},
    "narrowed to its chain": {"documentHash": HASH, "chainId": 31337},
    "narrowed to another chain": {"documentHash": HASH, "chainId": 1},
    "not attested": {"documentHash": "0x" + "00" * 32, "live": False},
}


@pytest.mark.parametrize("body", VERIFY_BODIES.values(), ids=VERIFY_BODIES.keys())
def test_an_ordinary_verification_takes_the_lane_and_answers_as_drf(settings, chain, body):
    key = make_key(KeyScope.API)
    status, content, _ = both_lanes(settings, VERIFY, body, key)
    assert status == 200
    with refuse_drf_dispatch():
        assert send(settings, True, VERIFY, body, key)[:2] == (200, content)


VERIFY_OTHERS = {  # body, key (or its scope), client arguments, the status DRF answers
    "no key": ({"documentHash": HASH}, None, {}, 401),
    "unknown key": ({"documentHash": HASH}, "crk_000000000000." + "a" * 43, {}, 401),
    "not a key": ({"documentHash": HASH}, "nonsense", {}, 401),
    "executor key": ({"documentHash": HASH}, KeyScope.EXECUTOR, {}, 403),
    "malformed hash": ({"documentHash": "0x12"}, KeyScope.API, {}, 400),
    "unknown field": ({"documentHash": HASH, "extra": 1}, KeyScope.API, {}, 400),
    "chain id as text": ({"documentHash": HASH, "chainId": "31337"}, KeyScope.API, {}, 400),
    "not an object": ([HASH], KeyScope.API, {}, 400),
    "not JSON": ("{documentHash", KeyScope.API, {}, 400),
    "empty body": ("", KeyScope.API, {}, 400),
    "NaN": ('{"documentHash": NaN}', KeyScope.API, {}, 400),
    "form encoded": ("documentHash=1", KeyScope.API,
                     {"content_type": "application/x-www-form-urlencoded"}, 415),
    "latin-1": ({"documentHash": HASH}, KeyScope.API,
                {"content_type": "application/json; charset=latin-1"}, 200),
    # Through the lane, the action raises: the view's exception handler answers.
    "live without an endpoint": ({"documentHash": HASH, "live": True}, KeyScope.API, {}, 503),
}


@pytest.mark.parametrize(("body", "key", "kwargs", "expected"), VERIFY_OTHERS.values(),
                         ids=VERIFY_OTHERS.keys())
def test_any_other_verification_answers_as_drf(settings, chain, body, key, kwargs, expected):
    if key in KeyScope.values:
        key = make_key(key)
    assert both_lanes(settings, VERIFY, body, key, **kwargs)[0] == expected


def test_a_throttled_verification_answers_as_drf(settings, chain):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, KeyScope.API: (1, 3600)}
    fast_key, slow_key = make_key(KeyScope.API), make_key(KeyScope.API)
    for expected in (200, 429):
        fast = send(settings, True, VERIFY, {"documentHash": HASH}, fast_key)
        slow = send(settings, False, VERIFY, {"documentHash": HASH}, slow_key)
        assert fast[0] == slow[0] == expected
        assert fast[1] == slow[1]


# --- Heartbeats ------------------------------------------------------------------------------


def executor_of(chain, key, **fields):
    return ExecutorFactory(chain=chain, registered_by=key.partition(".")[0],
                           lease_expires_at=timezone.now() + timedelta(seconds=30), **fields)


def beat(executor, status="ok", **extra):
    return {"executorId": str(executor.pk), "status": status, **extra}


def test_an_ordinary_heartbeat_takes_the_lane_and_answers_as_drf(settings, chain):
    key = make_key(KeyScope.EXECUTOR)
    mine = executor_of(chain, key)
    fast = send(settings, True, HEARTBEAT.format("anvil"), beat(mine, pendingJobs=2), key)
    slow = send(settings, False, HEARTBEAT.format("anvil"), beat(mine, pendingJobs=2), key)
    assert fast[0] == slow[0] == 200
    assert set(json.loads(fast[1])) == set(json.loads(slow[1]))  # the lease times differ
    assert fast[2] == slow[2]
    with refuse_drf_dispatch():
        assert send(settings, True, HEARTBEAT.format(31337), beat(mine), key)[0] == 200
    mine.refresh_from_db()
    assert mine.pending_jobs is None  # the last beat's report


HEARTBEAT_ERRORS = {
    # Raised by the action itself: answered by the view's exception handler in both lanes.
    "unknown executor": lambda chain, key: ({"executorId": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b",
                                             "status": "ok"}, "anvil"),
    "another key's executor": lambda chain, key: (
        beat(executor_of(chain, make_key(KeyScope.EXECUTOR))), "anvil"),
    "unknown chain": lambda chain, key: (beat(executor_of(chain, key)), "nowhere"),
    "deregistered": lambda chain, key: (
        beat(executor_of(chain, key, status=ExecutorStatus.DEREGISTERED)), "anvil"),
    # Refused before the action: DRF's dispatch answers.
    "bad status": lambda chain, key: (beat(executor_of(chain, key), status="healthy"), "anvil"),
}


@pytest.mark.parametrize("case", HEARTBEAT_ERRORS.values(), ids=HEARTBEAT_ERRORS.keys())
def test_a_refused_heartbeat_answers_as_drf(settings, chain, case):
    key = make_key(KeyScope.EXECUTOR)
    body, chain_ref = case(chain, key)
    status, _, _ = both_lanes(settings, HEARTBEAT.format(chain_ref), body, key)
    assert status in (400, 403, 404)


def test_a_heartbeat_that_changes_the_status_answers_as_drf(settings, chain):
    key = make_key(KeyScope.EXECUTOR)
    fast_one, slow_one = executor_of(chain, key), executor_of(chain, key)
    fast = send(settings, True, HEARTBEAT.format("anvil"), beat(fast_one, "draining"), key)
    slow = send(settings, False, HEARTBEAT.format("anvil"), beat(slow_one, "draining"), key)
    assert fast[0] == slow[0] == 200
    assert json.loads(fast[1])["status"] == json.loads(slow[1])["status"] == "draining"


# --- The renderer ----------------------------------------------------------------------------

ANSWERS = [
    {"verified": False, "attestation_id": None, "block_number": None},
    {"status": "healthy", "lease_expires_at": "2026-01-01T00:00:00Z",
     "heartbeat_interval_seconds": 10},
    {"text": "line\u2028separator \u2029 é ✓ \"quoted\"", "ratio": 0.5, "big": 2**70},
    {"nested_value": {"inner_key": [1, {"deep_key": True}]}, "metadata": {"keep_as_is": 1}},
]


@pytest.mark.parametrize("data", ANSWERS)
def test_rendered_writes_what_the_apis_renderer_writes(data):
    response = rendered(data)
    assert response.content == _RENDERER.render(data)
    assert response["Content-Type"] == "application/json"


def test_rendered_refuses_what_the_renderer_refuses():
    with pytest.raises(ValueError):
        rendered({"not_a_number": float("nan")})
    with pytest.raises(ValueError):
        _RENDERER.render({"not_a_number": float("nan")})

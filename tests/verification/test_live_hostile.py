"""POST /v1/verify with live: providers that answer errors or nonsense (real HTTP servers
on 127.0.0.1, tests/hostile_rpc.py) are failed over; when no provider answers usably the
answer is a 503 that names no endpoint, never a 500."""

from contextlib import ExitStack

import pytest

from registry.models import RpcEndpoint
from tests.conftest import assert_problem
from tests.factories import RpcEndpointFactory
from tests.hostile_rpc import SECRET_TEXT, HostileRpc
from tests.verification.test_verify_e2e import (  # noqa: F401 - fixtures
    HASH,
    executor_client,
    second_site,
    verify,
)

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

HOSTILE = ["rpc-error", "block-over-bigint", "garbage", "html", "not-json-rpc",
           "huge-streamed", "redirect", "http-500"]


def live_problem(api, status: int):
    api.raise_request_exception = False  # a 5xx signals got_request_exception, as it should
    response = api.post("/v1/verify", {"documentHash": HASH, "live": True}, format="json")
    return assert_problem(response, status, "chain_unavailable")


def test_live_fails_over_past_providers_that_answer_errors_or_garbage(api, second_site):  # noqa: F811
    bound = second_site.attest()
    second_site.settle()
    good = RpcEndpoint.objects.get(chain=second_site.chain)
    good.priority, good.status = 9, "healthy"
    good.save()
    with ExitStack() as stack:
        for kind in HOSTILE:  # tried first: better status order, lower priority
            server = stack.enter_context(HostileRpc(kind, location=good.url))
            RpcEndpointFactory(chain=second_site.chain, url=server.url, status="healthy",
                               priority=0)

        assert verify(api, live=True)["attestationId"] == bound.uid

    hostile = RpcEndpoint.objects.filter(chain=second_site.chain, priority=0)
    assert {e.consecutive_failures for e in hostile} == {1}
    assert not hostile.filter(last_error__contains="leaked").exists()


@pytest.mark.parametrize("kind", HOSTILE)
def test_live_is_a_503_naming_no_endpoint_when_every_provider_answers_badly(
        api, second_site, kind):  # noqa: F811
    second_site.attest()
    second_site.settle()
    with HostileRpc(kind, location="http://127.0.0.1:1/") as server:
        RpcEndpoint.objects.filter(chain=second_site.chain).update(url=server.url)

        body = live_problem(api, 503)

    assert "31338" in body["detail"]
    text = str(body)
    assert "127.0.0.1" not in text and "http" not in body["detail"]
    assert SECRET_TEXT not in text and "leaked" not in text
    assert verify(api)["verified"]  # without live, the index answers

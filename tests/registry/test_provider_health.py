"""Provider health reports (/v1/admin/rpc/health) and how they override probe results."""

from datetime import timedelta

import pytest
from django.utils import timezone

from registry.models import ProviderHealth
from tests.conftest import assert_problem
from tests.factories import ProviderHealthFactory, RpcEndpointFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def alchemy_pair():
    """Two healthy alchemy endpoints (of different chains)."""
    return (RpcEndpointFactory(provider="alchemy", status="healthy"),
            RpcEndpointFactory(provider="alchemy", status="healthy"))


@pytest.fixture
def infura():
    return RpcEndpointFactory(provider="infura", status="healthy")


def report(admin, **body):
    return admin.post("/v1/admin/rpc/health", body, format="json")


def endpoint(admin, rpc) -> dict:
    response = admin.get(f"/v1/admin/rpc/{rpc.pk}")
    assert response.status_code == 200, response.content
    return response.json()


def iso(moment) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# --- Recording ----------------------------------------------------------------------------


def test_a_report_on_a_provider_is_recorded_and_returned(admin, admin_key, alchemy_pair, infura):
    until = (timezone.now() + timedelta(hours=2)).replace(microsecond=0)

    response = report(admin, provider="alchemy", status="down", reason="Outage", until=iso(until))

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["provider"] == "alchemy"
    assert body["rpcId"] is None
    assert (body["status"], body["reason"], body["until"]) == ("down", "Outage", iso(until))
    assert body["reportedBy"] == admin_key.split(".")[0]
    assert body["createdAt"].endswith("Z")
    assert sorted(body["affectedEndpoints"]) == sorted(e.pk for e in alchemy_pair)
    stored = ProviderHealth.objects.get()
    assert (stored.provider, stored.rpc_endpoint, stored.status, stored.until) == (
        "alchemy", None, "down", until
    )


def test_a_report_on_one_endpoint_is_recorded_and_returned(admin, infura):
    response = report(admin, rpcId=infura.pk, status="maintenance", reason="Upgrade")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["provider"], body["rpcId"], body["affectedEndpoints"]) == ("", infura.pk, [infura.pk])
    assert body["until"] is None
    stored = ProviderHealth.objects.get()
    assert (stored.provider, stored.rpc_endpoint_id, stored.status) == ("", infura.pk, "maintenance")


def test_the_provider_name_is_matched_case_insensitively(admin, alchemy_pair):
    response = report(admin, provider="Alchemy", status="degraded")

    assert response.status_code == 201, response.content
    assert ProviderHealth.objects.get().provider == "alchemy"


def test_the_reason_is_optional(admin, infura):
    response = report(admin, provider="infura", status="degraded")

    assert response.status_code == 201, response.content
    assert ProviderHealth.objects.get().reason == ""


# --- Overriding ---------------------------------------------------------------------------


def test_a_provider_report_overrides_every_endpoint_of_that_provider_and_no_other(
    admin, alchemy_pair, infura
):
    report(admin, provider="alchemy", status="down", reason="Outage")

    for rpc in alchemy_pair:
        body = endpoint(admin, rpc)
        assert body["status"] == "down"
        assert body["probeStatus"] == "healthy"
        assert body["override"]["status"] == "down"
        assert body["override"]["reason"] == "Outage"
        assert body["override"]["until"] is None
        assert body["override"]["reportedAt"].endswith("Z")
    other = endpoint(admin, infura)
    assert (other["status"], other["override"]) == ("healthy", None)


def test_an_endpoint_report_overrides_only_that_endpoint(admin, alchemy_pair):
    target, sibling = alchemy_pair

    report(admin, rpcId=target.pk, status="maintenance", reason="Upgrade")

    assert endpoint(admin, target)["status"] == "maintenance"
    assert endpoint(admin, target)["override"]["reason"] == "Upgrade"
    assert endpoint(admin, sibling)["status"] == "healthy"
    assert endpoint(admin, sibling)["override"] is None


def test_the_list_of_endpoints_shows_the_overrides_too(admin, alchemy_pair, infura):
    report(admin, provider="alchemy", status="degraded")

    results = {e["id"]: e for e in admin.get("/v1/admin/rpc").json()["results"]}

    assert [results[rpc.pk]["status"] for rpc in alchemy_pair] == ["degraded", "degraded"]
    assert results[infura.pk]["status"] == "healthy"


def test_an_override_does_not_touch_what_the_probes_stored(admin, alchemy_pair):
    report(admin, provider="alchemy", status="down")

    for rpc in alchemy_pair:
        rpc.refresh_from_db()
        assert rpc.status == "healthy"


def test_an_override_also_applies_to_an_endpoint_added_later(admin, alchemy_pair):
    report(admin, provider="alchemy", status="down")

    later = RpcEndpointFactory(provider="alchemy", status="healthy")

    assert endpoint(admin, later)["status"] == "down"


def test_a_null_status_clears_the_override_and_is_kept_as_history(admin, alchemy_pair):
    report(admin, provider="alchemy", status="down")

    response = report(admin, provider="alchemy", status=None, reason="Resolved")

    assert response.status_code == 201, response.content
    assert response.json()["status"] is None
    for rpc in alchemy_pair:
        body = endpoint(admin, rpc)
        assert (body["status"], body["override"]) == ("healthy", None)
    assert list(ProviderHealth.objects.values_list("status", flat=True)) == [None, "down"]


def test_clearing_one_endpoint_leaves_its_provider_override_for_the_others(admin, alchemy_pair):
    target, sibling = alchemy_pair
    report(admin, provider="alchemy", status="down")

    report(admin, rpcId=target.pk, status=None)

    assert endpoint(admin, target)["status"] == "healthy"
    assert endpoint(admin, sibling)["status"] == "down"


def test_the_newest_report_naming_the_endpoint_or_its_provider_decides(admin, alchemy_pair):
    target, sibling = alchemy_pair
    report(admin, provider="alchemy", status="down")
    report(admin, rpcId=target.pk, status="healthy", reason="Our own node is fine")

    assert endpoint(admin, target)["status"] == "healthy"
    assert endpoint(admin, sibling)["status"] == "down"

    report(admin, provider="alchemy", status="maintenance")

    assert endpoint(admin, target)["status"] == "maintenance"
    assert endpoint(admin, sibling)["status"] == "maintenance"


def test_an_override_with_a_future_until_is_in_force(admin, infura):
    until = timezone.now() + timedelta(minutes=5)

    report(admin, provider="infura", status="down", until=until.isoformat())

    body = endpoint(admin, infura)
    assert body["status"] == "down"
    assert body["override"]["until"] == iso(until)


def test_an_override_whose_until_has_passed_no_longer_applies(admin, infura):
    report(admin, provider="infura", status="down", until=(timezone.now() + timedelta(hours=1)).isoformat())
    ProviderHealth.objects.update(until=timezone.now() - timedelta(seconds=1))

    body = endpoint(admin, infura)

    assert (body["status"], body["override"]) == ("healthy", None)


def test_an_earlier_report_still_in_force_applies_again_when_a_newer_one_expires(admin, alchemy_pair):
    target, sibling = alchemy_pair
    report(admin, provider="alchemy", status="degraded", reason="Provider incident")
    report(admin, rpcId=target.pk, status="maintenance",
           until=(timezone.now() + timedelta(hours=1)).isoformat())
    assert endpoint(admin, target)["status"] == "maintenance"

    ProviderHealth.objects.filter(rpc_endpoint=target).update(until=timezone.now() - timedelta(seconds=1))

    body = endpoint(admin, target)
    assert body["status"] == "degraded"
    assert body["override"]["reason"] == "Provider incident"


# --- Refusals: 400 and nothing written ----------------------------------------------------


@pytest.mark.parametrize(
    ("body", "attr"),
    [
        ({"provider": "nobody", "status": "down"}, "provider"),
        ({"rpcId": 999_999, "status": "down"}, "rpcId"),
        ({"status": "down"}, "nonFieldErrors"),
        ({"provider": "", "status": "down"}, "nonFieldErrors"),
        ({"provider": "alchemy", "status": "asleep"}, "status"),
        ({"provider": "alchemy", "status": "unknown"}, "status"),
        ({"provider": "alchemy"}, "status"),
        ({"provider": "alchemy", "status": "down", "until": "2000-01-01T00:00:00Z"}, "until"),
        ({"provider": "alchemy", "status": "down", "until": "tomorrow"}, "until"),
        ({"provider": "alchemy", "status": "down", "severity": 3}, "severity"),
        ({"provider": 7, "status": "down"}, "provider"),
        ({"rpcId": "1", "status": "down"}, "rpcId"),
    ],
)
def test_an_invalid_report_is_refused_and_not_recorded(admin, alchemy_pair, body, attr):
    problem = assert_problem(report(admin, **body), 400, "validation_error")

    assert attr in {error["attr"] for error in problem["errors"]}
    assert not ProviderHealth.objects.exists()
    assert endpoint(admin, alchemy_pair[0])["status"] == "healthy"


def test_naming_both_a_provider_and_an_endpoint_is_refused(admin, alchemy_pair):
    problem = assert_problem(report(admin, provider="alchemy", rpcId=alchemy_pair[0].pk, status="down"),
                             400, "validation_error")

    assert "not both" in problem["detail"]
    assert not ProviderHealth.objects.exists()


def test_an_until_just_past_is_refused(admin, alchemy_pair):
    just_past = timezone.now() - timedelta(seconds=2)

    assert_problem(report(admin, provider="alchemy", status="down", until=just_past.isoformat()),
                   400, "validation_error")
    assert not ProviderHealth.objects.exists()


# --- History ------------------------------------------------------------------------------


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [r["id"] for r in response.json()["results"]]


def test_the_history_lists_reports_newest_first(admin, alchemy_pair):
    first = report(admin, provider="alchemy", status="down").json()["id"]
    second = report(admin, provider="alchemy", status=None).json()["id"]

    assert ids(admin.get("/v1/admin/rpc/health")) == [second, first]


def test_the_history_filters_by_provider_endpoint_and_status(admin, alchemy_pair, infura):
    rpc = alchemy_pair[0]
    by_provider = ProviderHealthFactory(provider="alchemy", status="down").pk
    by_endpoint = ProviderHealthFactory(provider="", rpc_endpoint=rpc, status="maintenance").pk
    other = ProviderHealthFactory(provider="infura", status="degraded").pk

    assert ids(admin.get("/v1/admin/rpc/health?provider=alchemy")) == [by_provider]
    assert ids(admin.get(f"/v1/admin/rpc/health?rpcId={rpc.pk}")) == [by_endpoint]
    assert ids(admin.get("/v1/admin/rpc/health?status=degraded")) == [other]


def test_the_history_provider_filter_ignores_case(admin, alchemy_pair):
    pk = ProviderHealthFactory(provider="alchemy").pk

    assert ids(admin.get("/v1/admin/rpc/health?provider=ALCHEMY")) == [pk]


def test_one_report_can_be_read_by_its_id(admin, infura):
    created = report(admin, rpcId=infura.pk, status="down", reason="x").json()

    response = admin.get(f"/v1/admin/rpc/health/{created['id']}")

    assert response.status_code == 200
    assert response.json() == created


def test_reports_are_history_and_cannot_be_changed_or_deleted(admin, infura):
    pk = report(admin, provider="infura", status="down").json()["id"]

    assert_problem(admin.patch(f"/v1/admin/rpc/health/{pk}", {"status": "healthy"}, format="json"), 405)
    assert_problem(admin.delete(f"/v1/admin/rpc/health/{pk}"), 405)
    assert ProviderHealth.objects.get(pk=pk).status == "down"

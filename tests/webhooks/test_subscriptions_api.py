"""/v1/webhooks and /v1/watches: a key's own records (an admin's: all), the secret shown
once, URLs refused by scheme and address."""

import pytest

from registry.models import KeyScope
from tests.conftest import assert_problem, make_key
from tests.webhooks.conftest import client_for, deliver_all, subscribe
from webhooks.models import Subscription
from webhooks.secrets import unseal

pytestmark = pytest.mark.django_db
HASH = "0x" + "d0" * 32


def test_the_secret_is_shown_once_and_stored_encrypted(api, receiver):
    subscription_id, secret = subscribe(api, receiver.url, ["chain.status_changed"])
    stored = Subscription.objects.get(pk=subscription_id)
    assert secret.startswith("whsec_") and secret not in stored.secret_encrypted
    assert unseal(stored.secret_encrypted) == secret
    shown = api.get(f"/v1/webhooks/{subscription_id}").json()
    assert "secret" not in shown and secret not in str(shown)
    assert shown["eventTypes"] == ["chain.status_changed"] and shown["enabled"] is True
    assert shown["owner"].startswith("crk_")


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9/hook", "https://10.1.2.3/hook", "https://[::1]/hook",
    "https://localhost/hook", "ftp://example.org/hook",
    "https://[64:ff9b::7f00:1]/hook", "https://[2002:a01:203::1]/hook", "https://[::10.1.2.3]/hook",
])
def test_a_private_or_plain_http_url_is_refused_unless_allowed(api, settings, url):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    response = api.post("/v1/webhooks", {"url": url, "eventTypes": ["chain.status_changed"]},
                        format="json")
    assert_problem(response, 400, "validation_error")
    assert response.json()["errors"][0]["attr"] == "url"


def test_link_local_and_metadata_addresses_are_refused_even_when_private_ones_are_allowed(api):
    for url in ("http://169.254.169.254/latest", "https://metadata.google.internal/x",
                "http://[64:ff9b::a9fe:a9fe]/latest", "http://[2002:a9fe:a9fe::]/latest",
                "http://[::169.254.169.254]/latest"):
        response = api.post("/v1/webhooks", {"url": url, "eventTypes": ["chain.status_changed"]},
                            format="json")
        assert response.status_code == 400, url


@pytest.mark.parametrize("url", ["https://127.0.0.1:9/hook", "https://localhost:9/hook"])
def test_every_connection_checks_the_address_it_reaches(api, settings, chain, admin, url):
    # Saved while private addresses were allowed, delivered after they no longer are: the
    # address is checked where the connection is made (a name may resolve anywhere later).
    subscription_id, _ = subscribe(api, url, ["chain.status_changed"])
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    admin.patch("/v1/admin/chains/31337/status", {"status": "inactive"}, format="json")
    deliver_all()
    listed = api.get(f"/v1/webhooks/{subscription_id}/deliveries").json()["results"]
    assert listed[0]["state"] == "pending"
    assert "WEBHOOKS_ALLOW_PRIVATE is false" in listed[0]["lastError"]


def test_a_key_sees_its_own_subscriptions_and_an_admin_sees_all(api, admin_key, receiver):
    mine, _ = subscribe(api, receiver.url, ["chain.status_changed"])
    other = client_for(make_key(KeyScope.API))
    theirs, _ = subscribe(other, receiver.url, ["chain.status_changed"])

    assert [s["id"] for s in api.get("/v1/webhooks").json()["results"]] == [mine]
    assert api.get(f"/v1/webhooks/{theirs}").status_code == 404
    assert api.get(f"/v1/webhooks/{theirs}/deliveries").status_code == 404
    assert api.delete(f"/v1/webhooks/{theirs}").status_code == 404
    every = client_for(admin_key).get("/v1/webhooks").json()["results"]
    assert {s["id"] for s in every} == {mine, theirs}


def test_a_subscription_is_edited_with_patch_and_deleted(api, receiver):
    subscription_id, _ = subscribe(api, receiver.url, ["chain.status_changed"])
    patched = api.patch(f"/v1/webhooks/{subscription_id}",
                        {"eventTypes": ["chain.status_changed", "workflow.failed"],
                         "description": "ops", "chainId": 31337}, format="json")
    assert patched.status_code == 200, patched.content
    assert patched.json()["chainId"] == 31337 and patched.json()["description"] == "ops"
    assert api.put(f"/v1/webhooks/{subscription_id}", {}, format="json").status_code == 405
    assert api.delete(f"/v1/webhooks/{subscription_id}").status_code == 204
    assert not Subscription.objects.exists()


def test_bad_bodies_are_refused_naming_the_field(api, receiver):
    for body, attr in [
        ({"url": receiver.url, "eventTypes": ["no.such"]}, "eventTypes.0"),
        ({"url": receiver.url, "eventTypes": []}, "eventTypes"),
        ({"url": receiver.url, "eventTypes": ["chain.status_changed"], "secret": "x"}, "secret"),
        ({"url": receiver.url, "eventTypes": ["chain.status_changed"], "documentHash": "0x1"},
         "documentHash"),
    ]:
        response = api.post("/v1/webhooks", body, format="json")
        assert response.status_code == 400, body
        assert response.json()["errors"][0]["attr"] == attr, response.json()


def test_watches_are_a_key_s_own_and_unique(api, admin_key):
    created = api.post("/v1/watches", {"documentHash": HASH.upper().replace("0X", "0x")},
                       format="json")
    assert created.status_code == 201, created.content
    assert created.json()["documentHash"] == HASH
    again = api.post("/v1/watches", {"documentHash": HASH}, format="json")
    assert_problem(again, 409, "duplicate")
    other = client_for(make_key(KeyScope.API))
    assert other.post("/v1/watches", {"documentHash": HASH}, format="json").status_code == 201
    assert len(api.get("/v1/watches").json()["results"]) == 1
    assert len(client_for(admin_key).get("/v1/watches").json()["results"]) == 2
    assert api.get(f"/v1/watches?documentHash={HASH}").json()["results"][0]["documentHash"] == HASH
    assert api.delete(f"/v1/watches/{created.json()['id']}").status_code == 204


def test_webhooks_need_a_key_of_scope_api(anon, executor_key):
    assert anon.get("/v1/webhooks").status_code == 401
    assert client_for(executor_key).get("/v1/webhooks").status_code == 403
    assert client_for(executor_key).get("/v1/watches").status_code == 403


def test_a_document_hash_filter_is_cleared_with_null(api, receiver):
    subscription_id, _ = subscribe(api, receiver.url, ["document.revoked"], documentHash=HASH)
    assert api.get(f"/v1/webhooks/{subscription_id}").json()["documentHash"] == HASH
    cleared = api.patch(f"/v1/webhooks/{subscription_id}", {"documentHash": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["documentHash"] is None
    assert Subscription.objects.get().document_hash == ""


def test_a_key_has_at_most_the_cap_of_subscriptions_then_a_409(api, receiver, settings):
    settings.WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY = 3
    ids = [subscribe(api, receiver.url, ["chain.status_changed"])[0] for _ in range(3)]

    refused = api.post("/v1/webhooks", {"url": receiver.url,
                                        "eventTypes": ["chain.status_changed"]}, format="json")
    body = assert_problem(refused, 409, "subscription_limit")
    assert "3 subscriptions" in body["detail"] and len(refused.content) < 1000
    assert Subscription.objects.count() == 3
    # The cap is per key: another key subscribes; one deleted makes room again.
    subscribe(client_for(make_key(KeyScope.API)), receiver.url, ["chain.status_changed"])
    assert api.delete(f"/v1/webhooks/{ids[0]}").status_code == 204
    subscribe(api, receiver.url, ["chain.status_changed"])

"""A revoked key ends what it held, in the revoke's transaction (registry/holdings.py): its
webhook subscriptions are disabled, saying why (the next event is not delivered to them), its
executors lose their trust unless an administrator moved them to another key, its allow-list
goes."""

import pytest

from executors.models import Executor
from registry import holdings
from registry.models import ApiKey, KeyScope
from tests.bindings.conftest import bind
from tests.conftest import assert_problem, make_key
from tests.executors.conftest import key_prefix
from tests.factories import ExecutorFactory
from tests.webhooks.conftest import client_for, deliver_all, subscribe
from webhooks.models import Subscription

pytestmark = pytest.mark.django_db
WORKFLOW_EVENTS = ["workflow.state_changed"]


def revoke(admin, raw_key: str):
    response = admin.post(f"/v1/admin/api-keys/{key_prefix(raw_key)}/revoke")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_revoked_admin_key_s_subscription_gets_no_further_event(admin, admin_key, api,
                                                                   receiver, document_schema):
    other_admin = make_key(KeyScope.ADMIN)
    subscription_id, _ = subscribe(client_for(other_admin), receiver.url, WORKFLOW_EVENTS)
    bind(api, document="0x" + "a1" * 32)
    assert deliver_all() == 2  # received, queued: an admin's subscription sees every tenant's
    receiver.received.clear()

    body = revoke(admin, other_admin)
    bind(api, document="0x" + "a2" * 32)

    assert body["revokedAt"] is not None
    assert deliver_all() == 0
    assert receiver.received == []
    shown = client_for(admin_key).get(f"/v1/webhooks/{subscription_id}").json()
    assert shown["enabled"] is False
    assert key_prefix(other_admin) in shown["disabledReason"]
    assert "revoked" in shown["disabledReason"]


def test_a_revoked_key_s_subscription_cannot_be_enabled_again(admin, admin_key, receiver,
                                                              document_schema):
    other_admin = make_key(KeyScope.ADMIN)
    subscription_id, _ = subscribe(client_for(other_admin), receiver.url, WORKFLOW_EVENTS)
    revoke(admin, other_admin)

    response = client_for(admin_key).patch(f"/v1/webhooks/{subscription_id}", {"enabled": True},
                                           format="json")

    assert_problem(response, 409, "owner_key_revoked")
    assert Subscription.objects.get().enabled is False


def test_a_revoked_executor_key_s_executors_lose_trust_unless_moved(admin, chain):
    key = make_key(KeyScope.EXECUTOR)
    kept_key = make_key(KeyScope.EXECUTOR)
    losing = ExecutorFactory(chain=chain, registered_by=key_prefix(key))
    moved = ExecutorFactory(chain=chain, registered_by=key_prefix(key))
    admin.post(f"/v1/admin/executors/{moved.pk}/transfer", {"key": key_prefix(kept_key)},
               format="json")

    body = revoke(admin, key)

    losing.refresh_from_db()
    moved.refresh_from_db()
    assert (losing.trust, losing.trust_changed_by) == ("revoked", "service")
    assert losing.trust_reason == f"its key {key_prefix(key)} was revoked"
    assert moved.trust == "trusted"
    assert body["allowedAddresses"] == []
    assert ApiKey.objects.get(prefix=key_prefix(key)[4:]).allowed_addresses == []


def test_the_revocation_is_one_transaction(admin, chain, receiver, monkeypatch):
    key = make_key(KeyScope.ADMIN)
    subscribe(client_for(key), receiver.url, WORKFLOW_EVENTS)
    executor_key = make_key(KeyScope.EXECUTOR)
    executor = ExecutorFactory(chain=chain, registered_by=key_prefix(executor_key))

    def failing(**kwargs):
        raise RuntimeError("an ender failed")

    monkeypatch.setattr(holdings, "_enders", [*holdings._enders, failing])
    with pytest.raises(RuntimeError):
        ApiKey.objects.filter(prefix__in=[key_prefix(key)[4:],
                                          key_prefix(executor_key)[4:]]).revoke()

    assert not ApiKey.objects.filter(revoked_at__isnull=False).exists()
    assert Subscription.objects.get().enabled is True
    assert Executor.objects.get(pk=executor.pk).trust == "trusted"


def test_revoking_through_the_django_admin_ends_the_same(site, chain):
    key = make_key(KeyScope.EXECUTOR)
    executor = ExecutorFactory(chain=chain, registered_by=key_prefix(key))
    pk = ApiKey.objects.get(prefix=key_prefix(key)[4:]).pk

    site.post("/admin/registry/apikey/", {"action": "revoke", "_selected_action": [pk]})

    executor.refresh_from_db()
    assert executor.trust == "revoked"


def test_revoking_a_revoked_key_changes_nothing(admin, chain):
    key = make_key(KeyScope.EXECUTOR)
    first = revoke(admin, key)

    assert revoke(admin, key)["revokedAt"] == first["revokedAt"]

"""The audit trail: every change through the admin API or the Django admin is recorded with
who made it (user, or API key prefix and name), what changed, and when."""

import pytest
from auditlog.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.test import Client

from registry.models import Category, Chain, RpcEndpoint
from tests.factories import ChainFactory, ExecutorFactory

pytestmark = pytest.mark.django_db

SECRET = "AbCdEf0123456789AbCdEf0123456789"


def entries(model, pk=None):
    found = LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(model))
    if pk is not None:
        found = found.filter(object_pk=str(pk))
    return list(found.order_by("timestamp", "pk"))


def test_admin_api_changes_are_recorded_with_the_key_and_request_id(admin, admin_key):
    prefix = admin_key.split(".")[0]
    response = admin.post("/v1/admin/categories", {"slug": "tokens", "name": "Tokens"},
                          format="json", HTTP_X_REQUEST_ID="audit-create-1")
    assert response.status_code == 201, response.content
    pk = Category.objects.get(slug="tokens").pk
    assert admin.patch("/v1/admin/categories/tokens", {"name": "Token contracts"},
                       format="json").status_code == 200
    assert admin.delete("/v1/admin/categories/tokens").status_code == 204

    created, changed, deleted = entries(Category, pk)
    assert [e.action for e in (created, changed, deleted)] == [
        LogEntry.Action.CREATE, LogEntry.Action.UPDATE, LogEntry.Action.DELETE]
    assert created.cid == "audit-create-1"
    assert changed.changes_dict["name"] == ["Tokens", "Token contracts"]
    for entry in (created, changed, deleted):
        assert entry.actor is None
        assert entry.additional_data == {"apiKey": prefix, "apiKeyName": "test-admin",
                                         "scope": "admin"}
        assert entry.timestamp is not None


def test_a_failed_request_records_nothing(admin):
    before = LogEntry.objects.count()
    response = admin.post("/v1/admin/chains", {"chainId": "not a number"}, format="json")
    assert response.status_code == 400
    assert LogEntry.objects.count() == before


def test_rpc_urls_are_masked_in_the_trail(admin):
    chain = ChainFactory()
    response = admin.post("/v1/admin/rpc", {"chainId": chain.chain_id,
                                            "url": f"https://eth.example.com/v2/{SECRET}"},
                          format="json")
    assert response.status_code == 201, response.content
    (entry,) = entries(RpcEndpoint)
    text = str(entry.changes) + entry.object_repr
    assert SECRET not in text
    assert "eth.example.com" in text


def test_django_admin_changes_are_recorded_with_the_user(django_user_model):
    user = django_user_model.objects.create_superuser("auditor", password="x")
    client = Client()
    client.force_login(user)
    response = client.post("/admin/registry/category/add/",
                           {"slug": "bridges", "name": "Bridges", "description": ""})
    assert response.status_code == 302, response.content[:2000]
    (entry,) = entries(Category)
    assert entry.actor == user
    assert entry.additional_data is None

    page = client.get("/admin/auditlog/logentry/")
    assert page.status_code == 200
    assert b"bridges" in page.content.lower()


def test_the_trail_names_the_key_in_the_django_admin(admin, admin_key, django_user_model):
    admin.post("/v1/admin/categories", {"slug": "oracles", "name": "Oracles"}, format="json")
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("viewer", password="x"))
    page = client.get("/admin/auditlog/logentry/")
    assert admin_key.split(".")[0].encode() in page.content


def test_heartbeats_and_lease_bookkeeping_are_not_in_the_trail(executor_key):
    executor = ExecutorFactory()
    before = len(entries(type(executor), executor.pk))
    executor.last_heartbeat_at = executor.lease_expires_at
    executor.save()
    assert len(entries(type(executor), executor.pk)) == before


def test_chains_are_audited(admin):
    ChainFactory(chain_id=77001)
    response = admin.patch("/v1/admin/chains/77001", {"name": "Renamed"}, format="json")
    assert response.status_code == 200, response.content
    assert entries(Chain, 77001)[-1].changes_dict["name"][1] == "Renamed"

"""Every model of the project's apps in the Django admin is reachable: listed on its app's
index, its changelist loads with a record in it and its change page loads. What each app's
admin does beyond that is tested beside the app (tests/<app>/test_admin_site.py)."""

from datetime import timedelta

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bindings.models import Workflow
from executors.models import SelfPreservation
from registry.models import ApiKey
from tests.admin_site import admin_url
from tests.factories import (
    AttestationFactory,
    CategoryFactory,
    ChainFactory,
    ContractNameFactory,
    ContractVersionFactory,
    DeploymentFactory,
    ExecutorFactory,
    IndexCursorFactory,
    ProviderHealthFactory,
    RpcEndpointFactory,
    SchemaFactory,
    TrustedAttesterFactory,
)

pytestmark = pytest.mark.django_db


def hold() -> SelfPreservation:
    return SelfPreservation.objects.create(chain=ChainFactory(), would_go_offline=4, executors=5)


def workflow() -> Workflow:
    return Workflow.objects.create(chain=ChainFactory(), document_hash="0x" + "11" * 32,
                                   schema_uid="0x" + "22" * 32, created_by="crk_000000000000",
                                   deadline=timezone.now() + timedelta(hours=1))


def chain_head():
    from attestations.models import ChainHead

    return ChainHead.objects.create(chain=ChainFactory(), head_block=100, head_at=timezone.now())


def api_key() -> ApiKey:
    return ApiKey.issue(name="ops", scope="api")[0]


# A way to make one record of each model in the admin.
MAKERS = [
    ChainFactory, CategoryFactory, ContractNameFactory, ContractVersionFactory, DeploymentFactory,
    RpcEndpointFactory, ProviderHealthFactory, api_key,
    ExecutorFactory, TrustedAttesterFactory, hold,
    SchemaFactory, AttestationFactory, IndexCursorFactory, chain_head,
    workflow,
]
PROJECT_APPS = ["config", "registry", "executors", "attestations", "verification", "ops",
                "bindings"]


def name(make) -> str:
    return make.__name__


def registered(app: str) -> set[str]:
    """The models of `app` in the admin."""
    return {model._meta.model_name for model in admin.site._registry
            if model._meta.app_label == app}


def test_every_model_the_project_registers_in_the_admin_has_a_maker_here():
    made = {(record._meta.app_label, record._meta.model_name)
            for record in [make() for make in MAKERS]}

    assert made == {(app, model) for app in PROJECT_APPS for model in registered(app)}


@pytest.mark.parametrize("app", ["registry", "executors", "attestations", "bindings"])
def test_the_admin_index_of_an_app_lists_every_model_of_it(site, app):
    response = site.get(reverse("admin:app_list", args=[app]))

    assert response.status_code == 200
    assert registered(app)
    for model in registered(app):
        assert admin_url(app, model, "changelist") in response.content.decode()


@pytest.mark.parametrize("make", MAKERS, ids=name)
def test_the_changelist_loads_with_a_record_in_it(site, make):
    meta = make()._meta

    response = site.get(admin_url(meta.app_label, meta.model_name, "changelist"))

    assert response.status_code == 200
    assert response.context["cl"].result_count == 1


@pytest.mark.parametrize("make", MAKERS, ids=name)
def test_the_change_page_loads(site, make):
    record = make()

    response = site.get(admin_url(record._meta.app_label, record._meta.model_name, "change",
                                  record.pk))

    assert response.status_code == 200
    assert response.context["original"].pk == record.pk


def test_the_admin_needs_a_staff_login():
    response = Client().get(admin_url("registry", "chain", "changelist"))

    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def english_plural(noun: str) -> str:
    if noun[-1] == "y" and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def test_every_model_in_the_admin_is_named_in_the_plural_as_english_does():
    # Django's default adds an "s": "Deliverys" in the admin (and `listDeliverys` in the
    # schema's operationIds) until the model says otherwise (issue 37 item 7).
    shown = [m for m in admin.site._registry if m._meta.app_label in [*PROJECT_APPS, "webhooks"]]
    wrong = [(str(m._meta.verbose_name), str(m._meta.verbose_name_plural)) for m in shown
             if m._meta.verbose_name_plural != english_plural(str(m._meta.verbose_name))]
    assert len(shown) >= 15 and wrong == []


def test_the_webhooks_admin_says_deliveries(site):
    response = site.get(reverse("admin:app_list", args=["webhooks"]))
    assert "Deliveries" in response.content.decode()
    assert "Deliverys" not in response.content.decode()


@pytest.mark.parametrize("make", [AttestationFactory, SchemaFactory, IndexCursorFactory,
                                  DeploymentFactory, RpcEndpointFactory, ExecutorFactory,
                                  TrustedAttesterFactory], ids=name)
def test_a_by_chain_filter_lists_the_chains_of_the_records_not_every_chain(site, make):
    # An import of chainlist.org registers 1,940 chains; the index cursors' "By chain" listed
    # them all (issue 37 item 7). The indexer's records: the chains it reads.
    records = [make(), make()]
    if make in (AttestationFactory, SchemaFactory):
        for record in records:
            IndexCursorFactory(deployment__chain=record.chain)
    bystanders = {chain.chain_id for chain in ChainFactory.create_batch(5)}
    meta = records[0]._meta
    changelist = admin_url(meta.app_label, meta.model_name, "changelist")

    response = site.get(changelist)

    (by_chain,) = [spec for spec in response.context["cl"].filter_specs
                   if str(spec.title) == "chain"]
    offered = {int(value) for value, _ in by_chain.lookup_choices}
    assert offered == {record.chain_id for record in records}
    assert not offered & bystanders
    parameter = getattr(by_chain, "parameter_name", None) or by_chain.lookup_kwarg
    narrowed = site.get(changelist, {parameter: records[0].chain_id})
    assert list(narrowed.context["cl"].result_list) == [records[0]]


def test_index_cursors_are_found_by_their_chains_name_or_id(site):
    cursor = IndexCursorFactory(chain=ChainFactory(chain_id=424242, name="Far Chain",
                                                   short_name="far"))
    IndexCursorFactory()
    for words in ("Far Chain", "far", "424242"):
        found = site.get(admin_url("attestations", "indexcursor", "changelist"), {"q": words})
        assert list(found.context["cl"].result_list) == [cursor], words

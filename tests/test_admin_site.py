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


# (app, model) -> a way to make one record of it.
INSTANCES = {
    ("registry", "chain"): ChainFactory,
    ("registry", "category"): CategoryFactory,
    ("registry", "contractname"): ContractNameFactory,
    ("registry", "contractversion"): ContractVersionFactory,
    ("registry", "deployment"): DeploymentFactory,
    ("registry", "rpcendpoint"): RpcEndpointFactory,
    ("registry", "providerhealth"): ProviderHealthFactory,
    ("registry", "apikey"): lambda: ApiKey.issue(name="ops", scope="api")[0],
    ("executors", "executor"): ExecutorFactory,
    ("executors", "trustedattester"): TrustedAttesterFactory,
    ("executors", "selfpreservation"): hold,
    ("attestations", "schema"): SchemaFactory,
    ("attestations", "attestation"): AttestationFactory,
    ("attestations", "indexcursor"): IndexCursorFactory,
    ("bindings", "workflow"): workflow,
}
APPS = sorted({app for app, _ in INSTANCES})
MODELS = list(INSTANCES)


def ids(key) -> str:
    return "-".join(key)


PROJECT_APPS = {"config", "registry", "executors", "attestations", "verification", "ops", "bindings"}


def test_every_model_the_project_registers_in_the_admin_is_tested_here():
    registered = {(model._meta.app_label, model._meta.model_name) for model in admin.site._registry}

    assert {key for key in registered if key[0] in PROJECT_APPS} == set(INSTANCES)


@pytest.mark.parametrize("app", APPS)
def test_the_admin_index_of_an_app_lists_every_model_of_it(site, app):
    response = site.get(reverse("admin:app_list", args=[app]))

    assert response.status_code == 200
    for model in [model for model_app, model in INSTANCES if model_app == app]:
        assert admin_url(app, model, "changelist") in response.content.decode()


@pytest.mark.parametrize("key", MODELS, ids=ids)
def test_the_changelist_loads_with_a_record_in_it(site, key):
    INSTANCES[key]()

    response = site.get(admin_url(*key, "changelist"))

    assert response.status_code == 200
    assert response.context["cl"].result_count == 1


@pytest.mark.parametrize("key", MODELS, ids=ids)
def test_the_change_page_loads(site, key):
    record = INSTANCES[key]()

    response = site.get(admin_url(*key, "change", record.pk))

    assert response.status_code == 200
    assert response.context["original"].pk == record.pk


def test_the_admin_needs_a_staff_login():
    response = Client().get(admin_url("registry", "chain", "changelist"))

    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]

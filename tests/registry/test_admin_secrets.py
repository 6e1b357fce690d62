"""RPC URLs in the Django admin: a view-only staff user (and a superuser) sees them masked
and cannot learn them through lookups, filters, search or ordering (issue 17)."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from tests.factories import ChainFactory, ProviderHealthFactory, RpcEndpointFactory

pytestmark = pytest.mark.django_db

PASSWORD = "hunter2Secret"
URL = f"https://node:{PASSWORD}@eth-mainnet.g.alchemy.com/v2/k3yAbCdEfGhIjKlMnOpQrStUvWxYz012"
CHANGELIST = reverse("admin:registry_rpcendpoint_changelist")


@pytest.fixture
def viewer(django_user_model) -> Client:
    user = django_user_model.objects.create_user("viewer", password="pw", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(
        codename__in=["view_rpcendpoint", "view_providerhealth", "view_chain"]))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def superuser(django_user_model) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", password="pw"))
    return client


@pytest.fixture
def endpoint():
    return RpcEndpointFactory(chain=ChainFactory(), url=URL)


def test_a_view_only_user_opens_the_change_page_and_sees_the_url_masked(viewer, endpoint):
    response = viewer.get(reverse("admin:registry_rpcendpoint_change", args=[endpoint.pk]))

    assert response.status_code == 200
    page = response.content.decode()
    assert "https://***@eth-mainnet.g.alchemy.com/v2/***" in page
    assert PASSWORD not in page and "k3yAbC" not in page


def test_a_view_only_user_cannot_change_it(viewer, endpoint):
    response = viewer.post(reverse("admin:registry_rpcendpoint_change", args=[endpoint.pk]),
                           {"url": "https://evil.example/", "chain": endpoint.chain_id})

    assert response.status_code == 403
    endpoint.refresh_from_db()
    assert endpoint.url == URL


@pytest.mark.parametrize("user", ["viewer", "superuser"])
@pytest.mark.parametrize("query", [
    {"url__startswith": "https://node:h"},
    {"url": URL},
    {"url__contains": PASSWORD},
    {"url__regex": "^https://node:h"},
    {"url__in": URL},
    {"url__gt": "https://node:h"},
    {"url__isnull": "False"},
])
def test_lookups_on_the_url_are_refused(request, endpoint, user, query):
    client = request.getfixturevalue(user)

    response = client.get(CHANGELIST, query)

    assert response.status_code == 400  # DisallowedModelAdminLookup: no list, filtered or not


def test_an_oracle_by_prefix_learns_nothing(viewer, endpoint):
    """A right and a wrong guess of the password's first letter get the same answer."""
    right = viewer.get(CHANGELIST, {"url__startswith": "https://node:h"})
    wrong = viewer.get(CHANGELIST, {"url__startswith": "https://node:x"})

    assert (right.status_code, right.get("Location")) == (wrong.status_code, wrong.get("Location"))


@pytest.mark.parametrize("user", ["viewer", "superuser"])
def test_search_does_not_look_at_the_url(request, endpoint, user):
    client = request.getfixturevalue(user)

    found = client.get(CHANGELIST, {"q": PASSWORD})

    assert found.status_code == 200
    assert found.context["cl"].result_count == 0
    assert client.get(CHANGELIST, {"q": "alchemy"}).context["cl"].result_count == 1  # the host


def test_a_lookup_through_a_health_report_is_refused(viewer, endpoint):
    ProviderHealthFactory(provider="", rpc_endpoint=endpoint, status="down")

    response = viewer.get(reverse("admin:registry_providerhealth_changelist"),
                          {"rpc_endpoint__url__startswith": "https://node:h"})

    assert response.status_code == 400


def test_allowed_filters_still_work(viewer, endpoint):
    RpcEndpointFactory(chain=endpoint.chain, url="http://127.0.0.1:8545", status="down")

    response = viewer.get(CHANGELIST, {"status__exact": "down"})

    assert response.status_code == 200
    assert response.context["cl"].result_count == 1


def test_a_lookup_through_a_chain_is_refused(superuser, endpoint):
    response = superuser.get(reverse("admin:registry_chain_changelist"),
                             {"rpc_endpoints__url__startswith": "https://node:h"})

    assert response.status_code == 400

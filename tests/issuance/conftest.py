import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from issuance.models import Membership
from registry.models import ApiKey, KeyScope
from tests.bindings.conftest import chain, document_schema  # noqa: F401

PASSWORD = "correct horse battery staple"


def a_hash(n: int) -> str:
    return "0x" + f"{0xF11E0000 + n:064x}"


def issuer_user(username: str, key: ApiKey | None, *, may_bind: bool = True):
    """A Django user (not staff) with the permission to bind, for `key`'s tenant."""
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    if may_bind:
        user.user_permissions.add(Permission.objects.get(
            codename="add_workflow", content_type__app_label="bindings"))
    if key is not None:
        Membership.objects.create(user=user, api_key=key)
    return user


def logged_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


@pytest.fixture
def tenant_key(db) -> ApiKey:
    return ApiKey.issue(name="Registrar of Example University", scope=KeyScope.API)[0]


@pytest.fixture
def registrar(tenant_key):
    return issuer_user("registrar", tenant_key)


@pytest.fixture
def browser_session(registrar) -> Client:
    return logged_in(registrar)


def create_run(client, chain_id: int = 31337, **extra) -> dict:
    response = client.post("/issue/api/runs", {"chainId": chain_id, **extra},
                           content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()


def send(client, run: dict, documents: list[dict], **extra):
    return client.post(f"/issue/api/runs/{run['runId']}/documents",
                       {"documents": documents, **extra}, content_type="application/json")


def files(count: int, start: int = 0) -> list[dict]:
    return [{"name": f"diplomas/{n:05d}.pdf", "documentHash": a_hash(n)}
            for n in range(start, start + count)]

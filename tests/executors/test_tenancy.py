"""Tenancy (issue 17, item 8): trusted attesters are added by admin keys only. (An
executor's address, id and jobs: tests/bindings/test_tenancy.py.)"""

import pytest
from rest_framework.test import APIClient

from executors.models import TrustedAttester
from registry.models import KeyScope
from tests.conftest import make_key

pytestmark = pytest.mark.django_db

ADDRESS = "0x" + "5a" * 20


@pytest.mark.parametrize("scope", [KeyScope.EXECUTOR, KeyScope.API])
def test_only_an_admin_key_adds_a_trusted_attester(chain, scope):
    raw_key = make_key(scope)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key}", HTTP_X_API_KEY=raw_key)
    body = {"chainId": 31337, "address": ADDRESS}
    for path in ("/v1/admin/trusted-attesters", "/v1/chain-registry/anvil/trusted-attesters"):
        assert client.post(path, body, format="json").status_code in (403, 404)
    assert not TrustedAttester.objects.exists()

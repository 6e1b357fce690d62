"""The error paths of the admin actions on trust (issue 36): an unknown executor, key or
issuer is a 404 problem whatever the body, and a refused body is a 400 problem that
changes nothing."""

import pytest

from executors.models import Executor
from registry.models import ApiKey, KeyScope
from tests.conftest import assert_problem, make_key
from tests.executors.conftest import key_prefix, with_api_key
from tests.proofs import checksummed, register

pytestmark = pytest.mark.django_db

# A fixed id: xdist workers must collect the same test names.
UNKNOWN_EXECUTOR = "/v1/admin/executors/00000000-0000-4000-8000-000000000000"
UNKNOWN_KEY = "/v1/admin/api-keys/crk_000000000000"


@pytest.mark.parametrize(("method", "path", "body"), [
    ("post", f"{UNKNOWN_EXECUTOR}/approve", {}),
    ("post", f"{UNKNOWN_EXECUTOR}/revoke-trust", {"reason": "gone"}),
    ("post", f"{UNKNOWN_EXECUTOR}/transfer", {"key": "crk_000000000000"}),
    ("patch", UNKNOWN_EXECUTOR, {"trusted": True}),
    ("patch", UNKNOWN_KEY, {"allowedAddresses": []}),
    ("post", f"{UNKNOWN_KEY}/revoke", None),
    ("patch", "/v1/admin/api-keys/not-a-prefix", {"allowedAddresses": []}),
    ("post", "/v1/admin/issuers/999999/check", None),
    ("get", "/v1/admin/issuers/999999/checks", None),
])
def test_an_unknown_one_is_a_404_problem(admin, method, path, body):
    assert_problem(getattr(admin, method)(path, body, format="json"), 404)


@pytest.fixture
def executor_id(chain) -> str:
    response = register(with_api_key(make_key(KeyScope.EXECUTOR, allowed_addresses=[])), 31337,
                        {"address": checksummed(1)})
    assert response.status_code in (200, 201), response.content
    return response.json()["executorId"]


@pytest.mark.parametrize(("action", "body"), [
    ("approve", {"reason": "x" * 201}),
    ("approve", {"reason": "ok", "trusted": True}),  # a field it does not take
    ("revoke-trust", {"reason": ["a list"]}),
    ("transfer", {}),
    ("transfer", {"key": "crk_zz"}),
])
def test_a_refused_trust_decision_changes_nothing(admin, executor_id, action, body):
    before = Executor.objects.values().get(pk=executor_id)

    response = admin.post(f"/v1/admin/executors/{executor_id}/{action}", body, format="json")

    assert_problem(response, 400, "validation_error")
    assert Executor.objects.values().get(pk=executor_id) == before


def test_a_transfer_to_a_key_that_is_not_an_executor_key_changes_nothing(admin, executor_id,
                                                                          api_key):
    before = Executor.objects.values().get(pk=executor_id)

    response = admin.post(f"/v1/admin/executors/{executor_id}/transfer",
                          {"key": key_prefix(api_key)}, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert problem["errors"][0]["attr"] == "key"
    assert Executor.objects.values().get(pk=executor_id) == before


@pytest.mark.parametrize("addresses", [["0x1234"], ["not an address"], "0x" + "ab" * 20,
                                       [checksummed(1).lower().replace("0x", "")]])
def test_an_allow_list_of_what_is_not_addresses_changes_nothing(admin, addresses):
    raw = make_key(KeyScope.EXECUTOR, allowed_addresses=[checksummed(2)])
    prefix = key_prefix(raw)
    before = ApiKey.objects.get(prefix=prefix[4:]).allowed_addresses

    response = admin.patch(f"/v1/admin/api-keys/{prefix}", {"allowedAddresses": addresses},
                           format="json")

    assert_problem(response, 400, "validation_error")
    assert ApiKey.objects.get(prefix=prefix[4:]).allowed_addresses == before

"""Tenancy (issue 17, item 8): an executor's address, id and jobs stay with the key that
registered it, deregistered or not. (Trusted attesters: tests/executors/test_tenancy.py.)"""

import pytest

from bindings.models import Workflow
from registry.models import KeyScope
from tests.bindings.conftest import bind
from tests.conftest import assert_problem, make_key
from tests.executors.conftest import with_api_key
from tests.proofs import address_of
from tests.proofs import register as register_with_proof

pytestmark = pytest.mark.django_db

ADDRESS = address_of(5)  # a test account: its challenges are signed by its key


def register(client):
    return register_with_proof(client, "anvil", {"address": ADDRESS})


@pytest.fixture
def owner(db):
    """An executor key whose allow-list names ADDRESS: its executor is trusted, takes jobs."""
    return with_api_key(make_key(KeyScope.EXECUTOR, allowed_addresses=[ADDRESS]))


@pytest.fixture
def intruder():
    return with_api_key(make_key(KeyScope.EXECUTOR))


@pytest.fixture
def held_job(api, admin, owner, document_schema):
    """A job the owner's executor claimed, then an administrator deregistered it."""
    bind(api)
    executor_id = register(owner).json()["executorId"]
    job = owner.post("/v1/chain-registry/anvil/jobs/claim", {"executorId": executor_id},
                     format="json").json()
    assert admin.post(f"/v1/admin/executors/{executor_id}/deregister").status_code == 200
    return executor_id, job["workflowId"]


def test_another_key_cannot_take_over_a_deregistered_executor_nor_its_job(held_job, intruder):
    executor_id, workflow_id = held_job

    assert_problem(register(intruder), 403)
    result = intruder.post(f"/v1/chain-registry/anvil/jobs/{workflow_id}/result",
                           {"executorId": executor_id, "txHash": "0x" + "7a" * 32}, format="json")
    assert result.status_code in (403, 404), result.content
    workflow = Workflow.objects.get(pk=workflow_id)
    assert (workflow.state, str(workflow.executor_id)) == ("dispatched", executor_id)


def test_the_owner_key_registers_its_deregistered_executor_back_with_its_job(held_job, owner):
    executor_id, workflow_id = held_job

    response = register(owner)

    assert response.status_code == 200, response.content
    assert response.json()["executorId"] == executor_id
    result = owner.post(f"/v1/chain-registry/anvil/jobs/{workflow_id}/result",
                        {"executorId": executor_id, "txHash": "0x" + "7a" * 32}, format="json")
    assert result.status_code == 200, result.content

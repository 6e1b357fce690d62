"""Batched executor jobs: POST .../jobs/claim with `limit`, and POST .../jobs/results."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from bindings import jobs
from bindings.models import Workflow
from registry.authentication import KeyHolder
from tests.bindings.conftest import bind
from tests.conftest import assert_problem
from tests.executors.conftest import key_prefix
from tests.factories import ExecutorFactory

pytestmark = pytest.mark.django_db

CLAIM = "/v1/chain-registry/anvil/jobs/claim"
RESULTS = "/v1/chain-registry/anvil/jobs/results"
TX = "0x" + "7a" * 32


def document(n: int) -> str:
    return "0x" + f"{n + 1:064x}"


@pytest.fixture
def queued(api, document_schema):
    """Five queued workflows, oldest first."""
    return [bind(api, document=document(n)).json()["workflowId"] for n in range(5)]


def claim(client, executor, **body):
    return client.post(CLAIM, {"executorId": str(executor.pk), **body}, format="json")


def report(client, executor, results):
    return client.post(RESULTS, {"executorId": str(executor.pk), "results": results},
                       format="json")


def test_a_batched_claim_hands_out_the_oldest_queued_workflows(executor_client, my_executor,
                                                              queued, chain):
    response = claim(executor_client, my_executor, limit=3)

    assert response.status_code == 200, response.content
    handed = response.json()["jobs"]
    assert [job["workflowId"] for job in handed] == queued[:3]
    assert {job["bindingMode"] for job in handed} == {"single"}
    assert all(job["attempt"] == 1 and job["easAddress"] == "0x" + "ea" * 20 for job in handed)
    stored = Workflow.objects.in_bulk([uuid.UUID(i) for i in queued])
    assert [stored[uuid.UUID(i)].state for i in queued] == ["dispatched"] * 3 + ["queued"] * 2
    first = stored[uuid.UUID(queued[0])]
    assert first.executor == my_executor and first.attempts == 1
    assert [(t.from_state, t.to_state) for t in first.transitions.all()][-1] == (
        "queued", "dispatched")
    assert first.transitions.last().cause == f"claimed by {my_executor.address}"


def test_a_claim_beyond_the_queue_takes_what_there_is_then_an_empty_list(
        executor_client, my_executor, queued):
    assert len(claim(executor_client, my_executor, limit=500).json()["jobs"]) == 5
    again = claim(executor_client, my_executor, limit=10)
    assert again.status_code == 200 and again.json() == {"jobs": []}


def test_a_job_carries_its_chains_binding_mode(executor_client, my_executor, queued, chain):
    chain.binding_mode = "multi"
    chain.save()
    assert {j["bindingMode"] for j in claim(executor_client, my_executor, limit=5).json()["jobs"]} == {
        "multi"}


def test_without_a_limit_a_claim_answers_one_job_as_before(executor_client, my_executor, queued):
    response = claim(executor_client, my_executor)
    assert response.status_code == 200 and response.json()["workflowId"] == queued[0]
    assert response.json()["bindingMode"] == "single"
    Workflow.objects.filter(state="queued").update(available_at=timezone.now() + timedelta(hours=1))
    assert claim(executor_client, my_executor).status_code == 204


@pytest.mark.parametrize("limit", [0, 501, "5", 2.5, None])
def test_a_limit_outside_1_to_500_is_a_400(executor_client, my_executor, queued, limit):
    assert_problem(claim(executor_client, my_executor, limit=limit), 400)
    assert not Workflow.objects.filter(state="dispatched").exists()


def test_a_batched_claim_skips_workflows_in_back_off_or_past_their_deadline(
        executor_client, my_executor, queued):
    Workflow.objects.filter(pk=queued[0]).update(available_at=timezone.now() + timedelta(hours=1))
    Workflow.objects.filter(pk=queued[1]).update(deadline=timezone.now() - timedelta(seconds=1))
    handed = claim(executor_client, my_executor, limit=5).json()["jobs"]
    assert [job["workflowId"] for job in handed] == queued[2:]


# --- results --------------------------------------------------------------------------------


def test_batched_results_submit_and_retry_each_workflow(executor_client, my_executor, queued):
    claim(executor_client, my_executor, limit=3)
    results = [{"workflowId": queued[0], "txHash": TX}, {"workflowId": queued[1], "txHash": TX},
               {"workflowId": queued[2], "error": "out of gas"}]

    response = report(executor_client, my_executor, results)

    assert response.status_code == 200, response.content
    assert response.json()["results"] == [
        {"workflowId": queued[0], "state": "submitted", "txHash": TX, "attempts": 1},
        {"workflowId": queued[1], "state": "submitted", "txHash": TX, "attempts": 1},
        {"workflowId": queued[2], "state": "queued", "txHash": "", "attempts": 1}]
    stored = Workflow.objects.in_bulk([uuid.UUID(i) for i in queued[:3]])
    assert stored[uuid.UUID(queued[0])].tx_hashes == [TX]
    assert stored[uuid.UUID(queued[2])].last_error == "out of gas"
    assert stored[uuid.UUID(queued[2])].available_at > timezone.now()
    # The same again is a repeat, for the submitted ones.
    again = report(executor_client, my_executor, results[:2])
    assert again.status_code == 200 and Workflow.objects.get(pk=queued[0]).transitions.count() == 4


def _refused(response, status: int, attr: str):
    body = assert_problem(response, status)
    assert [e["attr"] for e in body["errors"]] == [attr], body
    return body


def test_results_are_all_or_nothing(executor_client, my_executor, queued, chain, executor_key):
    claim(executor_client, my_executor, limit=3)
    assert report(executor_client, my_executor, [{"workflowId": queued[2], "txHash": TX}]).status_code == 200
    good = [{"workflowId": queued[0], "txHash": TX}, {"workflowId": queued[1], "error": "x"}]

    # An error for a submitted job: a 409 naming the item; nothing written.
    body = _refused(report(executor_client, my_executor,
                           [*good, {"workflowId": queued[2], "error": "late"}]), 409, "results.2")
    assert body["code"] == "illegal_state" and body["detail"].startswith("results.2: ")
    # Not claimed (still queued): held by no executor.
    _refused(report(executor_client, my_executor, [*good, {"workflowId": queued[4], "txHash": TX}]),
             403, "results.2")
    # Unknown.
    _refused(report(executor_client, my_executor, [*good, {"workflowId": str(uuid.uuid4()),
                                                           "txHash": TX}]), 404, "results.2")
    # Another executor's job.
    colleague = ExecutorFactory(chain=chain, registered_by=key_prefix(executor_key))
    claim(executor_client, colleague, limit=1)
    _refused(report(executor_client, my_executor, [*good, {"workflowId": queued[3],
                                                           "txHash": TX}]), 403, "results.2")
    # Malformed, and the same workflow twice.
    _refused(report(executor_client, my_executor, [*good, {"workflowId": queued[2],
                                                           "txHash": "0x12"}]),
             400, "results.2.txHash")
    _refused(report(executor_client, my_executor, [*good, good[0]]), 400, "results.2")

    assert set(Workflow.objects.filter(pk__in=queued[:2]).values_list("state", flat=True)) == {
        "dispatched"}
    assert all(Workflow.objects.get(pk=i).transitions.count() == 3 for i in queued[:2])


@pytest.mark.parametrize("results", [[], [{"workflowId": str(uuid.uuid4())}] * 501])
def test_results_take_1_to_500_items(executor_client, my_executor, queued, results):
    assert_problem(report(executor_client, my_executor, results), 400)


# --- concurrency ----------------------------------------------------------------------------


def _queue(count: int) -> None:
    api_holder = KeyHolder("api", "test", "crk_api")
    from bindings.workflows import workflows_create_many

    workflows_create_many(holder=api_holder, keys=None, items=[
        {"chain_id": 31337, "document_hash": document(n)} for n in range(count)])


@pytest.mark.django_db(transaction=True)
def test_concurrent_batched_claims_hand_out_every_job_exactly_once(document_schema, chain,
                                                                   executor_key):
    """8 claimers with their own database connections, limit 50, over 1,000 queued."""
    holder = KeyHolder("executor", "test", key_prefix(executor_key))
    executors = [ExecutorFactory(chain=chain, registered_by=holder.prefix) for _ in range(8)]
    _queue(1000)
    claimed: dict = {e.pk: [] for e in executors}
    failures: list = []
    sizes: list[int] = []
    barrier = threading.Barrier(len(executors))

    def run(executor):
        barrier.wait()
        try:
            while handed := jobs.job_claim(chain_ref="anvil", holder=holder,
                                           executor_id=executor.pk, limit=50):
                sizes.append(len(handed))
                claimed[executor.pk].extend(job["workflow"].pk for job in handed)
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run, args=(e,)) for e in executors]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert not failures and max(sizes) <= 50
    everything = [pk for pks in claimed.values() for pk in pks]
    assert len(everything) == 1000 and len(set(everything)) == 1000
    stored = dict(Workflow.objects.values_list("pk", "executor_id"))
    assert all(stored[pk] == executor for executor, pks in claimed.items() for pk in pks)
    assert set(Workflow.objects.values_list("state", "attempts")) == {("dispatched", 1)}
    from bindings.models import WorkflowTransition

    assert WorkflowTransition.objects.filter(to_state="dispatched").count() == 1000

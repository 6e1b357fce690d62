"""Executor jobs: POST /v1/chain-registry/{chain}/jobs/claim and .../jobs/{id}/result."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from bindings import jobs, workflows
from bindings.models import IllegalTransition, Workflow
from registry.models import Chain
from tests.bindings.conftest import bind
from tests.conftest import assert_problem
from tests.executors.conftest import key_prefix
from tests.factories import ExecutorFactory

pytestmark = pytest.mark.django_db

CLAIM = "/v1/chain-registry/{}/jobs/claim"
RESULT = "/v1/chain-registry/anvil/jobs/{}/result"
TX = "0x" + "7a" * 32


@pytest.fixture
def queued(api, document_schema):
    return Workflow.objects.get(pk=bind(api).json()["workflowId"])


def claim(client, executor, chain="anvil"):
    return client.post(CLAIM.format(chain), {"executorId": str(executor.pk)}, format="json")


def report(client, executor, workflow, **body):
    return client.post(RESULT.format(workflow.pk), {"executorId": str(executor.pk), **body},
                       format="json")


def states(workflow):
    return [(t.from_state, t.to_state) for t in workflow.transitions.all()]


def test_a_claim_hands_out_the_oldest_queued_workflow(executor_client, my_executor, api, document_schema):
    first = bind(api).json()["workflowId"]
    bind(api, document="0x" + "11" * 32)

    response = claim(executor_client, my_executor)

    assert response.status_code == 200, response.content
    job = response.json()
    assert job["workflowId"] == first
    assert job["schema"] == "bytes32 documentHash"
    assert job["encodedData"] == "0x" + "d0" * 32
    assert job["easAddress"] == "0x" + "ea" * 20
    assert job["attempt"] == 1
    stored = Workflow.objects.get(pk=first)
    assert stored.state == "dispatched" and stored.executor == my_executor


def test_a_claim_with_nothing_queued_is_a_204(executor_client, my_executor, document_schema):
    response = claim(executor_client, my_executor, chain="31337")
    assert response.status_code == 204
    assert response.content == b""


def test_a_workflow_in_back_off_is_not_claimable(executor_client, my_executor, queued):
    Workflow.objects.filter(pk=queued.pk).update(available_at=timezone.now() + timedelta(minutes=1))
    assert claim(executor_client, my_executor).status_code == 204


def test_only_a_healthy_executor_takes_jobs(executor_client, my_executor, queued):
    my_executor.status = "draining"
    my_executor.save()
    assert_problem(claim(executor_client, my_executor), 409, "executor_not_healthy")
    assert Workflow.objects.get(pk=queued.pk).state == "queued"


def test_another_keys_executor_cannot_claim(executor_client, chain, queued):
    theirs = ExecutorFactory(chain=chain, registered_by="crk_someoneelse")
    assert_problem(claim(executor_client, theirs), 403)
    assert Workflow.objects.get(pk=queued.pk).state == "queued"


def test_claims_on_an_inactive_chain_are_refused(executor_client, my_executor, queued, chain):
    chain.set_status(Chain.Status.INACTIVE)
    assert_problem(claim(executor_client, my_executor), 409, "chain_inactive")


def test_unknown_chain_or_executor_is_a_404(executor_client, my_executor, queued):
    assert_problem(claim(executor_client, my_executor, chain="nochain"), 404)
    response = executor_client.post(CLAIM.format("anvil"), {"executorId": str(uuid.uuid4())},
                                    format="json")
    assert_problem(response, 404)


def test_a_reported_tx_hash_submits_the_job(executor_client, my_executor, queued):
    claim(executor_client, my_executor)
    response = report(executor_client, my_executor, queued, txHash=TX.upper().replace("0X", "0x"))

    assert response.status_code == 200, response.content
    assert response.json()["state"] == "submitted"
    stored = Workflow.objects.get(pk=queued.pk)
    assert stored.tx_hash == TX and stored.tx_hashes == [TX]
    assert states(stored)[-1] == ("dispatched", "submitted")
    # The same hash again is a repeat; a replacement is kept as another candidate.
    assert report(executor_client, my_executor, queued, txHash=TX).status_code == 200
    other = "0x" + "7b" * 32
    assert report(executor_client, my_executor, queued, txHash=other).status_code == 200
    stored.refresh_from_db()
    assert stored.tx_hashes == [TX, other] and stored.tx_hash == other
    assert len(states(stored)) == 4
    # The first was mined after all (the replacement lost the race): reported again, it is
    # the one tracked, first among the candidates; nothing else moves.
    assert report(executor_client, my_executor, queued, txHash=TX).status_code == 200
    stored.refresh_from_db()
    assert stored.tx_hashes == [other, TX] and stored.tx_hash == TX
    assert len(states(stored)) == 4


@pytest.mark.parametrize("status, takes", [("low_funds", True), ("blocked_by_fees", False),
                                           ("signer_error", False)])
def test_an_executor_low_on_funds_still_takes_jobs_one_that_holds_does_not(
        executor_client, my_executor, queued, status, takes):
    my_executor.status = status
    my_executor.save()
    response = claim(executor_client, my_executor)
    if takes:
        assert response.status_code == 200, response.content
    else:
        assert_problem(response, 409, "executor_not_healthy")
        assert Workflow.objects.get(pk=queued.pk).state == "queued"


def test_an_error_requeues_with_back_off_then_fails_after_the_attempts(
        executor_client, my_executor, queued, settings):
    settings.WORKFLOW_MAX_ATTEMPTS = 2
    claim(executor_client, my_executor)
    response = report(executor_client, my_executor, queued, error="out of gas")
    assert response.json()["state"] == "queued"
    stored = Workflow.objects.get(pk=queued.pk)
    assert stored.available_at > timezone.now() + timedelta(seconds=20)
    assert stored.last_error == "out of gas" and stored.executor is None

    Workflow.objects.filter(pk=queued.pk).update(available_at=timezone.now())
    claim(executor_client, my_executor)
    assert report(executor_client, my_executor, queued, error="again").json()["state"] == "failed"
    assert states(Workflow.objects.get(pk=queued.pk))[2:] == [
        ("queued", "dispatched"), ("dispatched", "queued"), ("queued", "dispatched"),
        ("dispatched", "failed")]


def test_a_result_for_another_executors_job_is_a_403(executor_client, my_executor, queued, chain,
                                                     executor_key):
    claim(executor_client, my_executor)
    colleague = ExecutorFactory(chain=chain, registered_by=key_prefix(executor_key))
    assert_problem(report(executor_client, colleague, queued, txHash=TX), 403)
    assert Workflow.objects.get(pk=queued.pk).state == "dispatched"


def test_a_result_in_the_wrong_state_is_a_409(executor_client, my_executor, queued):
    claim(executor_client, my_executor)
    report(executor_client, my_executor, queued, txHash=TX)
    assert_problem(report(executor_client, my_executor, queued, error="late"), 409, "illegal_state")
    Workflow.objects.filter(pk=queued.pk).update(state="confirmed")
    assert_problem(report(executor_client, my_executor, queued, txHash="0x" + "01" * 32), 409)


@pytest.mark.parametrize("body", [{}, {"txHash": TX, "error": "x"}, {"txHash": "0x12"},
                                  {"error": 5}])
def test_a_malformed_result_is_a_400(executor_client, my_executor, queued, body):
    claim(executor_client, my_executor)
    assert_problem(report(executor_client, my_executor, queued, **body), 400)
    assert Workflow.objects.get(pk=queued.pk).state == "dispatched"


def test_a_result_for_an_unknown_job_is_a_404(executor_client, my_executor, queued):
    response = executor_client.post(RESULT.format("nope"), {"executorId": str(my_executor.pk),
                                                            "txHash": TX}, format="json")
    assert_problem(response, 404)


def test_the_model_refuses_illegal_transitions(queued):
    with pytest.raises(IllegalTransition):
        queued.transition("confirmed", cause="test")
    stale = Workflow.objects.get(pk=queued.pk)
    queued.transition("expired", cause="test")
    with pytest.raises(IllegalTransition):  # the row moved on under a stale copy
        stale.transition("dispatched", cause="test")
    assert Workflow.objects.get(pk=queued.pk).state == "expired"


def test_unclaimed_workflows_expire_at_their_deadline(queued):
    assert workflows.workflows_expire(now=timezone.now()) == 0
    assert workflows.workflows_expire(now=queued.deadline + timedelta(seconds=1)) == 1
    assert Workflow.objects.get(pk=queued.pk).state == "expired"


def test_a_job_of_an_executor_gone_offline_returns_to_the_queue(executor_client, my_executor, queued):
    claim(executor_client, my_executor)
    assert workflows.workflows_requeue_abandoned() == 0
    my_executor.status = "offline"
    my_executor.save()
    assert workflows.workflows_requeue_abandoned() == 1
    stored = Workflow.objects.get(pk=queued.pk)
    assert stored.state == "queued" and stored.executor is None
    assert "went offline" in stored.transitions.last().cause


@pytest.mark.django_db(transaction=True)
def test_concurrent_claims_never_hand_out_a_job_twice(document_schema, chain, executor_key):
    from registry.authentication import KeyHolder

    holder = KeyHolder("executor", "test", key_prefix(executor_key))
    executors = [ExecutorFactory(chain=chain, registered_by=holder.prefix) for _ in range(4)]
    api_holder = KeyHolder("api", "test", "crk_api")
    for n in range(60):
        workflows.workflow_create(holder=api_holder, chain_id=31337, document_hash="0x" + f"{n:064x}")
    claimed, barrier = [], threading.Barrier(4)

    def run(executor):
        barrier.wait()
        try:
            while (job := next(iter(jobs.job_claim(chain_ref="anvil", holder=holder,
                                                      executor_id=executor.pk)), None)) is not None:
                claimed.append(job["workflow"].pk)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run, args=(e,)) for e in executors]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(claimed) == 60 and len(set(claimed)) == 60
    assert Workflow.objects.filter(state="dispatched").count() == 60


def test_track_workflows_runs_the_tracking_once(queued):
    import io

    from django.core.management import call_command

    Workflow.objects.filter(pk=queued.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    out = io.StringIO()
    call_command("track_workflows", stdout=out)
    assert out.getvalue().startswith("expired 1, requeued 0, confirmed 0")
    assert Workflow.objects.get(pk=queued.pk).state == "expired"


def test_the_tracking_task_is_registered_and_scheduled():
    from config.celery import app
    from ops.schedules import PERIODIC_TASKS

    app.loader.import_default_modules()
    assert {"bindings.track_workflows", "bindings.track_chain"} <= set(app.tasks)
    assert {"task": "bindings.track_workflows", "every": 15} in PERIODIC_TASKS.values()


def test_track_workflows_for_one_chain_reads_only_its_receipts(queued):
    import io

    from django.core.management import CommandError, call_command

    Workflow.objects.filter(pk=queued.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    out = io.StringIO()
    call_command("track_workflows", "--chain", str(queued.chain_id), stdout=out)
    assert out.getvalue().startswith("expired 0, requeued 0, confirmed 0")  # no expiry here
    assert Workflow.objects.get(pk=queued.pk).state == "queued"
    with pytest.raises(CommandError, match="No chain"):
        call_command("track_workflows", "--chain", "nowhere")

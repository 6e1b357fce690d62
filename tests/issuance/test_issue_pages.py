"""The issuer pages without a browser: who may bind, for which tenant, the JSON the
pages' scripts send (through the workflow service of POST /workflows/batch), idempotent
re-drops, retries, a chain deactivated meanwhile, and bad input."""

import pytest
from django.test import Client

from bindings.models import Workflow
from issuance.models import Membership, Run, RunDocument
from registry.models import ApiKey, Chain, KeyScope
from tests.conftest import assert_problem
from tests.issuance.conftest import (
    PASSWORD,
    a_hash,
    create_run,
    files,
    issuer_user,
    logged_in,
    send,
)

pytestmark = pytest.mark.django_db


def test_the_login_page_leads_to_the_issue_page(registrar, document_schema):
    client = Client()
    page = client.get("/issue")
    assert page.status_code == 302 and page["Location"].startswith("/issue/login?next=/issue")
    assert client.get("/issue/login").status_code == 200
    logged = client.post("/issue/login", {"username": "registrar", "password": PASSWORD,
                                          "next": "/issue"})
    assert logged.status_code == 302 and logged["Location"] == "/issue"
    page = client.get("/issue")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Registrar of Example University" in text  # the tenant it binds for
    assert f'<option value="{document_schema.chain_id}">' in text


def test_the_json_refuses_a_browser_that_is_not_logged_in(document_schema):
    body = assert_problem(Client().post("/issue/api/runs", {"chainId": 31337},
                                        content_type="application/json"), 403,
                          "not_authenticated")
    assert "/issue/login" in body["detail"]


def test_a_user_without_the_permission_gets_the_403_page(tenant_key, document_schema):
    client = logged_in(issuer_user("clerk", tenant_key, may_bind=False))
    page = client.get("/issue")
    assert page.status_code == 403
    assert "text/html" in page["Content-Type"]
    assert "bindings.add_workflow" in page.content.decode()
    assert_problem(client.post("/issue/api/runs", {"chainId": 31337},
                               content_type="application/json"), 403, "permission_denied")


def test_a_user_with_no_tenant_or_a_revoked_one_may_not_bind(tenant_key, document_schema):
    lonely = logged_in(issuer_user("lonely", None))
    assert "binds for no issuer" in lonely.get("/issue").content.decode()
    member = logged_in(issuer_user("member", tenant_key))
    tenant_key.revoke()
    page = member.get("/issue")
    assert page.status_code == 403 and "revoked" in page.content.decode()


def test_documents_are_bound_as_the_tenants_key_would_bind_them(browser_session, tenant_key,
                                                               document_schema):
    run = create_run(browser_session)
    assert run["schemaId"] == document_schema.uid and run["url"] == f"/issue/runs/{run['runId']}"
    response = send(browser_session, run, files(3))
    assert response.status_code == 200, response.content
    answered = response.json()["documents"]
    assert [d["documentHash"] for d in answered] == [a_hash(n) for n in range(3)]
    assert {(d["state"], d["alreadyBound"]) for d in answered} == {("queued", False)}
    for document in answered:
        workflow = Workflow.objects.get(pk=document["workflowId"])
        assert workflow.created_by == tenant_key.display_prefix  # the tenant's, as the API's
        assert workflow.schema_uid == document_schema.uid
        assert [t.to_state for t in workflow.transitions.all()] == ["received", "queued"]


def test_a_second_drop_of_the_same_files_binds_nothing_twice(browser_session, document_schema):
    first = create_run(browser_session)
    send(browser_session, first, files(4))
    again = create_run(browser_session)
    answered = send(browser_session, again, files(6)).json()["documents"]
    assert [d["alreadyBound"] for d in answered] == [True] * 4 + [False] * 2
    assert Workflow.objects.count() == 6
    first_ids = RunDocument.objects.filter(run_id=first["runId"]).values_list("workflow_id",
                                                                               flat=True)
    assert [d["workflowId"] for d in answered[:4]] == [str(pk) for pk in first_ids]
    # A batch sent twice (a retry after a lost answer) is answered as it is.
    resent = send(browser_session, again, files(6)).json()["documents"]
    assert resent == answered
    assert RunDocument.objects.filter(run_id=again["runId"]).count() == 6


def test_another_tenants_key_binds_the_same_file_for_itself(browser_session, document_schema):
    send(browser_session, create_run(browser_session), files(1))
    other_key = ApiKey.issue(name="Notary", scope=KeyScope.API)[0]
    notary = logged_in(issuer_user("notary", other_key))
    answered = send(notary, create_run(notary), files(1)).json()["documents"]
    assert answered[0]["alreadyBound"] is False and Workflow.objects.count() == 2


def test_a_malformed_or_repeated_hash_is_a_400_naming_it(browser_session, document_schema):
    run = create_run(browser_session)
    edited = files(5)
    edited[3]["documentHash"] = "0x12345"
    body = assert_problem(send(browser_session, run, edited), 400, "validation_error")
    assert [e["attr"] for e in body["errors"]] == ["documents.3.documentHash"]
    twice = files(3) + files(1)
    body = assert_problem(send(browser_session, run, twice), 400)
    assert [e["attr"] for e in body["errors"]] == ["documents.3.documentHash"]
    assert "documents.0" in body["errors"][0]["detail"]
    assert not Workflow.objects.exists() and not RunDocument.objects.exists()


def test_another_tenants_run_is_a_404(browser_session, document_schema):
    run = create_run(browser_session)
    send(browser_session, run, files(1))
    stranger = logged_in(issuer_user("stranger", ApiKey.issue(name="x", scope="api")[0]))
    base = f"/issue/runs/{run['runId']}"
    for path in (base, f"{base}/receipt.json", f"{base}/receipt.csv", f"{base}/slips.zip",
                 f"{base}/documents/{a_hash(0)}/slip", f"{base}/documents/{a_hash(0)}/qr.svg"):
        page = stranger.get(path)
        assert page.status_code == 404, path
        assert "text/html" in page["Content-Type"]
        assert browser_session.get(path).status_code == 200, path
    assert_problem(stranger.get(f"/issue/api/runs/{run['runId']}/progress"), 404)
    assert_problem(send(stranger, run, files(1, start=9)), 404)
    assert stranger.post(f"{base}/retry").status_code == 404


def test_a_forged_form_post_is_refused(registrar, document_schema):
    careful = logged_in(registrar, enforce_csrf_checks=True)
    forged = careful.post("/issue/api/runs", {"chainId": 31337}, content_type="application/json")
    body = assert_problem(forged, 403)
    assert "CSRF" in body["detail"]
    run = create_run(logged_in(registrar))
    assert careful.post(f"/issue/runs/{run['runId']}/retry").status_code == 403
    assert not Workflow.objects.exists()
    # With the page's token, the same post is taken.
    page = careful.get("/issue")
    token = page.context["csrf_token"]
    ok = careful.post("/issue/api/runs", {"chainId": 31337}, content_type="application/json",
                      HTTP_X_CSRFTOKEN=str(token))
    assert ok.status_code == 201, ok.content


def test_a_chain_deactivated_meanwhile_keeps_every_document_to_retry(browser_session,
                                                                    document_schema):
    run = create_run(browser_session)
    send(browser_session, run, files(2))
    Chain.objects.filter(pk=31337).update(status="inactive")
    answered = send(browser_session, run, files(3, start=2)).json()["documents"]
    assert {d["state"] for d in answered} == {"not_bound"}
    assert all("chain_inactive" in d["error"] for d in answered)
    progress = browser_session.get(f"/issue/api/runs/{run['runId']}/progress").json()
    assert progress["chainActive"] is False and progress["total"] == 5
    assert {c["state"]: c["count"] for c in progress["counts"]}["not_bound"] == 3
    assert {p["name"] for p in progress["problems"]} == {d["name"] for d in answered}
    page = browser_session.get(f"/issue/runs/{run['runId']}").content.decode()
    assert "is not active now" in page and page.count("chain_inactive") >= 3
    # Retried while inactive: nothing bound, nothing lost; once active, bound.
    browser_session.post(f"/issue/runs/{run['runId']}/retry")
    assert RunDocument.objects.filter(run_id=run["runId"], workflow__isnull=True).count() == 3
    Chain.objects.filter(pk=31337).update(status="active")
    browser_session.post(f"/issue/runs/{run['runId']}/retry")
    assert set(RunDocument.objects.filter(run_id=run["runId"]).values_list(
        "workflow__state", "error")) == {("queued", "")}
    assert Workflow.objects.count() == 5


def test_a_failed_document_is_retried_once_and_a_later_drop_finds_the_retry(browser_session,
                                                                          document_schema):
    run = create_run(browser_session)
    (document,) = send(browser_session, run, files(1)).json()["documents"]
    Workflow.objects.filter(pk=document["workflowId"]).update(state="failed",
                                                              last_error="reverted")
    page = browser_session.get(f"/issue/runs/{run['runId']}").content.decode()
    assert 'id="retry-form" ' in page and "reverted" in page
    browser_session.post(f"/issue/runs/{run['runId']}/retry")
    browser_session.post(f"/issue/runs/{run['runId']}/retry")  # nothing left to retry
    retried = RunDocument.objects.get(run_id=run["runId"]).workflow
    assert retried.state == "queued" and str(retried.pk) != document["workflowId"]
    assert Workflow.objects.count() == 2
    again = send(browser_session, create_run(browser_session), files(1)).json()["documents"]
    assert again[0]["workflowId"] == str(retried.pk) and again[0]["alreadyBound"] is True


def test_the_files_left_out_of_a_drop_are_kept_on_the_run(browser_session, document_schema):
    run = create_run(browser_session)
    send(browser_session, run, files(1), skipped=[
        {"name": "broken.pdf", "reason": "unreadable: NotReadableError"}])
    page = browser_session.get(f"/issue/runs/{run['runId']}").content.decode()
    assert "broken.pdf" in page and "NotReadableError" in page
    assert Run.objects.get().skipped == [{"name": "broken.pdf",
                                          "reason": "unreadable: NotReadableError"}]


def test_an_inactive_chain_or_unknown_schema_refuses_a_new_run(browser_session, document_schema):
    body = assert_problem(browser_session.post(
        "/issue/api/runs", {"chainId": 31337, "schemaId": "0x" + "99" * 32},
        content_type="application/json"), 400)
    assert body["errors"][0]["attr"] == "schemaId"
    Chain.objects.filter(pk=31337).update(status="inactive")
    assert_problem(browser_session.post("/issue/api/runs", {"chainId": 31337},
                                        content_type="application/json"), 409, "chain_inactive")
    assert not Run.objects.exists()


def test_the_membership_is_kept_in_the_django_admin(site, tenant_key):
    user = issuer_user("clerk", None)
    page = site.post("/admin/issuance/membership/add/", {"user": user.pk,
                                                         "api_key": tenant_key.pk})
    assert page.status_code == 302, page.content
    assert Membership.objects.get().api_key == tenant_key

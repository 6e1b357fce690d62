"""The Django admin of executors, trusted attesters and self-preservation holds."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from executors.models import Executor, ExecutorStatusChange, SelfPreservation, TrustedAttester
from tests.admin_site import admin_urls_of
from tests.conftest import shown_messages
from tests.factories import ChainFactory, ExecutorFactory, TrustedAttesterFactory

pytestmark = pytest.mark.django_db

CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
LOWER = CHECKSUMMED.lower()
BAD_CHECKSUM = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"  # one letter's case flipped


admin_url = admin_urls_of("executors")


def listed(response) -> set:
    assert response.status_code == 200
    return {executor.pk for executor in response.context["cl"].result_list}


def hold(chain) -> SelfPreservation:
    return SelfPreservation.objects.create(chain=chain, would_go_offline=4, executors=5)


# --- What the service creates itself ----------------------------------------------------


@pytest.mark.parametrize("model", ["executor", "selfpreservation"])
def test_there_is_no_add_button_for_what_the_service_creates_itself(site, model):
    changelist = site.get(admin_url(model, "changelist"))
    add = site.get(admin_url(model, "add"))

    assert changelist.context["has_add_permission"] is False
    assert admin_url(model, "add") not in changelist.content.decode()
    assert add.status_code == 403


# --- Executors: the list ------------------------------------------------------------------


def test_the_executor_list_shows_the_age_of_the_last_heartbeat(site):
    now = timezone.now()
    ExecutorFactory(name="recent", last_heartbeat_at=now - timedelta(seconds=12))
    ExecutorFactory(name="quiet", last_heartbeat_at=now - timedelta(minutes=5),
                    lease_expires_at=now - timedelta(minutes=4, seconds=30))
    ExecutorFactory(name="silent", last_heartbeat_at=None)

    page = site.get(admin_url("executor", "changelist")).content.decode()

    assert "12 s ago" in page or "13 s ago" in page
    assert "5\xa0minutes ago" in page
    assert "never" in page


def test_the_executor_list_shows_a_lapsed_lease_as_stale(site):
    ExecutorFactory(lease_expires_at=timezone.now() - timedelta(seconds=1))

    response = site.get(admin_url("executor", "changelist"))

    [row] = response.context["cl"].result_list
    assert row.status == "healthy"
    assert '<td class="field-status_now">stale</td>' in response.content.decode()


STATUSES = ["healthy", "stale", "offline", "draining", "deregistered", "low_funds",
            "blocked_by_fees", "signer_error"]


@pytest.mark.parametrize("status", STATUSES)
def test_executors_are_filtered_by_status(site, status):
    by_status = {s: ExecutorFactory(status=s) for s in STATUSES}

    response = site.get(admin_url("executor", "changelist"), {"status": status})

    assert listed(response) == {by_status[status].pk}


def test_the_status_filter_goes_by_the_status_shown(site):
    lapsed = ExecutorFactory(lease_expires_at=timezone.now() - timedelta(seconds=1))
    fresh = ExecutorFactory()

    stale = site.get(admin_url("executor", "changelist"), {"status": "stale"})
    healthy = site.get(admin_url("executor", "changelist"), {"status": "healthy"})

    assert (listed(stale), listed(healthy)) == ({lapsed.pk}, {fresh.pk})


def test_executors_are_filtered_by_trust_and_chain(site):
    chain = ChainFactory()
    trusted = ExecutorFactory(chain=chain)
    revoked = ExecutorFactory(chain=chain, trust_revoked_at=timezone.now())
    elsewhere = ExecutorFactory()

    url = admin_url("executor", "changelist")
    assert listed(site.get(url, {"trusted": "yes"})) == {trusted.pk, elsewhere.pk}
    assert listed(site.get(url, {"trusted": "no"})) == {revoked.pk}
    assert listed(site.get(url, {"chain__chain_id__exact": chain.pk})) == {trusted.pk, revoked.pk}


def test_executors_can_be_found_by_address(site):
    mine = ExecutorFactory(address=LOWER)
    ExecutorFactory()

    response = site.get(admin_url("executor", "changelist"), {"q": LOWER[:12]})

    assert listed(response) == {mine.pk}


# --- Executors: the change page -----------------------------------------------------------


def test_the_change_page_shows_the_status_history_newest_first(site):
    executor = ExecutorFactory()
    start = timezone.now() - timedelta(hours=1)
    for i, (frm, to, cause) in enumerate([("", "healthy", "registered"),
                                          ("healthy", "stale", "lease expired"),
                                          ("stale", "healthy", "heartbeat: ok")]):
        ExecutorStatusChange.objects.create(executor=executor, from_status=frm, to_status=to,
                                            cause=cause, created_at=start + timedelta(minutes=i))

    response = site.get(admin_url("executor", "change", executor.pk))

    [inline] = response.context["inline_admin_formsets"]
    shown = [form.instance.cause for form in inline.formset.forms]
    assert shown == ["heartbeat: ok", "lease expired", "registered"]
    assert inline.formset.extra == 0 and not inline.formset.can_delete
    assert not inline.has_add_permission


def test_the_details_of_an_executor_are_read_only_and_its_endpoint_masked(site):
    executor = ExecutorFactory(name="binder", endpoint_url="https://u:s3cret@binder.example/")

    page = site.get(admin_url("executor", "change", executor.pk))
    response = site.post(admin_url("executor", "change", executor.pk),
                         {"name": "renamed", "endpoint_url": "https://evil.example/",
                          "status_changes-TOTAL_FORMS": 0, "status_changes-INITIAL_FORMS": 0,
                          "_save": "Save"})

    assert page.context["adminform"].form.fields == {}
    assert "balance wei" in page.content.decode().lower()
    assert "s3cret" not in page.content.decode()
    assert "https://***@binder.example/" in page.content.decode()
    assert response.status_code == 302
    executor.refresh_from_db()
    assert (executor.name, executor.endpoint_url) == ("binder", "https://u:s3cret@binder.example/")


# --- Executors: the actions ---------------------------------------------------------------


def run_action(site, action, executors, query=""):
    return site.post(admin_url("executor", "changelist") + query, {
        "action": action, "_selected_action": [executor.pk for executor in executors],
    }, follow=True)


def test_the_revoke_trust_action_revokes_the_selected_executors_only(site):
    picked, also_picked, left = ExecutorFactory(), ExecutorFactory(), ExecutorFactory()

    response = run_action(site, "revoke_trust", [picked, also_picked])

    assert "Revoked the trust of 2 executor(s)." in shown_messages(response)
    trusted = {e.pk: e.is_trusted for e in Executor.objects.all()}
    assert trusted == {picked.pk: False, also_picked.pk: False, left.pk: True}


def test_the_approve_action_restores_it(site):
    revoked = ExecutorFactory(trust_revoked_at=timezone.now())

    response = run_action(site, "approve", [revoked])

    assert "Approved 1 executor(s): trusted." in shown_messages(response)
    revoked.refresh_from_db()
    assert revoked.is_trusted
    assert (revoked.trust_basis, revoked.trust_changed_by) == ("approval", "user:root")


def test_the_deregister_action_takes_executors_out_and_records_it(site):
    executor = ExecutorFactory()

    response = run_action(site, "deregister", [executor])

    assert "Deregistered 1 executor(s)." in shown_messages(response)
    executor.refresh_from_db()
    assert (executor.status, executor.is_trusted) == ("deregistered", True)
    change = executor.status_changes.get()
    assert (change.from_status, change.to_status, change.cause) == (
        "healthy", "deregistered", "deregistered")


@pytest.mark.parametrize("action, query, message", [
    ("deregister", "?status=healthy", "Deregistered 2 executor(s)."),
    ("revoke_trust", "?trusted=yes", "Revoked the trust of 2 executor(s)."),
    ("approve", "?trusted=no", "Approved 2 executor(s): trusted."),
])
def test_an_action_on_a_filtered_list_counts_what_it_changed(site, action, query, message):
    revoked = timezone.now() if action == "approve" else None
    executors = ExecutorFactory.create_batch(2, trust_revoked_at=revoked)

    response = run_action(site, action, executors, query)

    assert message in shown_messages(response)


def test_a_staff_user_who_may_only_view_executors_cannot_run_the_actions():
    viewer = get_user_model().objects.create_user("viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_executor"))
    client = Client()
    client.force_login(viewer)
    executor = ExecutorFactory()

    changelist = client.get(admin_url("executor", "changelist"))
    run_action(client, "revoke_trust", [executor])
    run_action(client, "deregister", [executor])

    assert changelist.status_code == 200
    assert "revoke_trust" not in changelist.content.decode()
    executor.refresh_from_db()
    assert (executor.is_trusted, executor.status) == (True, "healthy")


# --- Trusted attesters --------------------------------------------------------------------


def attester_form(chain, address, note="") -> dict:
    return {"chain": chain.pk, "address": address, "note": note, "_save": "Save"}


def test_the_trusted_attester_add_page_loads(site):
    response = site.get(admin_url("trustedattester", "add"))

    assert response.status_code == 200
    assert set(response.context["adminform"].form.fields) == {"chain", "address", "note"}


def test_a_trusted_attester_added_in_the_admin_is_stored_lowercase(site):
    chain = ChainFactory()

    response = site.post(admin_url("trustedattester", "add"),
                         attester_form(chain, CHECKSUMMED, "the foundation's signer"))

    assert response.status_code == 302, response.context["adminform"].form.errors
    stored = TrustedAttester.objects.get()
    assert (stored.chain_id, stored.address, stored.added_by) == (chain.pk, LOWER, "user:root")


@pytest.mark.parametrize("address", [BAD_CHECKSUM, "0x" + "a" * 39, "0x" + "z" * 40, "nope"])
def test_the_trusted_attester_form_refuses_a_bad_address(site, address):
    response = site.post(admin_url("trustedattester", "add"),
                         attester_form(ChainFactory(), address))

    assert response.status_code == 200
    assert "address" in response.context["adminform"].form.errors
    assert not TrustedAttester.objects.exists()


def test_the_trusted_attester_form_refuses_a_duplicate_in_another_case(site):
    existing = TrustedAttesterFactory(address=LOWER)

    response = site.post(admin_url("trustedattester", "add"),
                         attester_form(existing.chain, CHECKSUMMED))

    assert response.status_code == 200
    assert response.context["adminform"].form.errors
    assert TrustedAttester.objects.count() == 1


def test_the_chain_and_address_of_a_trusted_attester_are_read_only_once_added(site):
    attester = TrustedAttesterFactory(address=LOWER, note="old")

    page = site.get(admin_url("trustedattester", "change", attester.pk))
    response = site.post(admin_url("trustedattester", "change", attester.pk),
                         {"address": "0x" + "b" * 40, "note": "new", "_save": "Save"})

    assert set(page.context["adminform"].form.fields) == {"note"}
    assert response.status_code == 302
    attester.refresh_from_db()
    assert (attester.address, attester.note) == (LOWER, "new")


# --- Self-preservation holds --------------------------------------------------------------


def test_a_self_preservation_hold_is_shown_read_only(site):
    held = hold(ChainFactory())

    response = site.get(admin_url("selfpreservation", "change", held.pk))

    assert response.status_code == 200
    assert response.context["adminform"].form.fields == {}
    assert not response.context["has_change_permission"]

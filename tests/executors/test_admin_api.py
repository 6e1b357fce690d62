"""Executors and trusted attesters through the admin API: /v1/admin/executors and
/v1/admin/trusted-attesters."""

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from executors.models import Executor, ExecutorStatusChange, TrustedAttester
from tests.conftest import assert_problem
from tests.executors.conftest import key_prefix, with_api_key
from tests.factories import ChainFactory, ExecutorFactory, TrustedAttesterFactory
from tests.proofs import checksummed, register

pytestmark = pytest.mark.django_db

EXECUTORS = "/v1/admin/executors"
ATTESTERS = "/v1/admin/trusted-attesters"
# EIP-55's own example: a checksummed address, and its lowercase form.
CHECKSUMMED = checksummed(1)  # an address whose key the tests hold
LOWER = CHECKSUMMED.lower()
BAD_CHECKSUM = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"  # one letter's case flipped


def ids(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [row["executorId"] for row in response.json()["results"]]


def attrs(body: dict) -> set[str]:
    return {error["attr"] for error in body["errors"]}


def record(executor, *transitions, start=None):
    """Give `executor` a history of (from, to, cause), a minute apart, oldest first."""
    start = start or timezone.now() - timedelta(hours=1)
    for i, (frm, to, cause) in enumerate(transitions):
        ExecutorStatusChange.objects.create(executor=executor, from_status=frm, to_status=to,
                                            cause=cause, created_at=start + timedelta(minutes=i))


# --- list ---------------------------------------------------------------------------------


def test_listing_executors_shows_each_one_with_its_status_and_trust(admin, chain):
    one = ExecutorFactory(chain=chain, address=LOWER, endpoint_url="https://u:pw@binder.example")

    response = admin.get(EXECUTORS)

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["next"], body["previous"]) == (None, None)
    [row] = body["results"]
    assert row["executorId"] == str(one.pk)
    assert (row["chainId"], row["address"], row["status"], row["trusted"]) == (
        31337, LOWER, "healthy", True)
    assert row["endpointUrl"] == "https://***@binder.example"
    assert "recentStatusChanges" not in row


def test_executors_are_listed_by_chain_then_registration_time(admin, chain):
    other = ChainFactory(chain_id=10, short_name="optimism")
    now = timezone.now()
    late = ExecutorFactory(chain=chain, registered_at=now)
    early = ExecutorFactory(chain=chain, registered_at=now - timedelta(hours=1))
    on_ten = ExecutorFactory(chain=other, registered_at=now)

    assert ids(admin.get(EXECUTORS)) == [str(on_ten.pk), str(early.pk), str(late.pk)]


def test_the_executor_list_is_paginated(admin, chain):
    ExecutorFactory.create_batch(3, chain=chain)

    first = admin.get(EXECUTORS, {"limit": 2}).json()
    second = admin.get(first["next"]).json()

    assert len(first["results"]) == 2 and len(second["results"]) == 1
    assert second["next"] is None


def test_executors_are_filtered_by_chain(admin, chain):
    mine = ExecutorFactory(chain=chain)
    ExecutorFactory(chain=ChainFactory(chain_id=10, short_name="optimism"))

    assert ids(admin.get(EXECUTORS, {"chainId": 31337})) == [str(mine.pk)]


@pytest.mark.parametrize("status", ["healthy", "stale", "offline", "draining", "deregistered"])
def test_executors_are_filtered_by_status(admin, chain, status):
    by_status = {s: ExecutorFactory(chain=chain, status=s)
                 for s in ["healthy", "stale", "offline", "draining", "deregistered"]}

    assert ids(admin.get(EXECUTORS, {"status": status})) == [str(by_status[status].pk)]


def test_a_lapsed_lease_reads_as_stale_before_the_sweep_records_it(admin, chain):
    lapsed = ExecutorFactory(chain=chain, lease_expires_at=timezone.now() - timedelta(seconds=1))
    fresh = ExecutorFactory(chain=chain)

    rows = {row["executorId"]: row["status"] for row in admin.get(EXECUTORS).json()["results"]}

    assert rows == {str(lapsed.pk): "stale", str(fresh.pk): "healthy"}
    # The filter goes by the status shown, not only by the one stored.
    assert ids(admin.get(EXECUTORS, {"status": "stale"})) == [str(lapsed.pk)]
    assert ids(admin.get(EXECUTORS, {"status": "healthy"})) == [str(fresh.pk)]


def test_executors_are_filtered_by_trust(admin, chain):
    trusted = ExecutorFactory(chain=chain)
    revoked = ExecutorFactory(chain=chain, trust_revoked_at=timezone.now())

    assert ids(admin.get(EXECUTORS, {"trusted": "true"})) == [str(trusted.pk)]
    assert ids(admin.get(EXECUTORS, {"trusted": "false"})) == [str(revoked.pk)]


@pytest.mark.parametrize("address", [LOWER, CHECKSUMMED, LOWER.upper().replace("0X", "0x")])
def test_executors_are_filtered_by_address_in_any_case(admin, chain, address):
    mine = ExecutorFactory(chain=chain, address=LOWER)
    ExecutorFactory(chain=chain)

    assert ids(admin.get(EXECUTORS, {"address": address})) == [str(mine.pk)]


@pytest.mark.parametrize("params, attr", [
    ({"status": "sleeping"}, "status"),
    ({"status": "ok"}, "status"),
    ({"chainId": "anvil"}, "chainId"),
    ({"trusted": "yes"}, "trusted"),
    ({"address": "0x" + "g" * 40}, "address"),
    ({"address": BAD_CHECKSUM}, "address"),
])
def test_an_invalid_executor_filter_is_a_400_naming_it(admin, chain, params, attr):
    response = admin.get(EXECUTORS, params)

    problem = assert_problem(response, 400, "validation_error")
    assert attrs(problem) == {attr}


# --- detail -------------------------------------------------------------------------------


def test_an_executor_shows_its_recent_status_changes_newest_first(admin, chain):
    one = ExecutorFactory(chain=chain, status="healthy")
    record(one, ("", "healthy", "registered"), ("healthy", "stale", "lease expired"),
           ("stale", "healthy", "heartbeat: ok"))

    response = admin.get(f"{EXECUTORS}/{one.pk}")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["executorId"] == str(one.pk)
    changes = body["recentStatusChanges"]
    assert [(c["fromStatus"], c["toStatus"], c["cause"]) for c in changes] == [
        ("stale", "healthy", "heartbeat: ok"), ("healthy", "stale", "lease expired"),
        ("", "healthy", "registered")]
    assert all(c["createdAt"].endswith("Z") for c in changes)


def test_an_executor_shows_only_its_twenty_latest_changes(admin, chain):
    one = ExecutorFactory(chain=chain)
    flips = [("healthy", "draining", "heartbeat: draining"),
             ("draining", "healthy", "heartbeat: ok")]
    record(one, *(flips * 15))  # 30 changes, the last one back to healthy

    changes = admin.get(f"{EXECUTORS}/{one.pk}").json()["recentStatusChanges"]

    assert len(changes) == 20
    assert changes[0]["cause"] == "heartbeat: ok"
    newest = one.status_changes.order_by("-created_at")[:20]
    assert [c["createdAt"][:19] for c in changes] == [
        c.created_at.strftime("%Y-%m-%dT%H:%M:%S") for c in newest]


def test_the_detail_reads_no_more_than_twenty_changes_from_the_database(admin, chain):
    one = ExecutorFactory(chain=chain)
    record(one, *([("healthy", "draining", "x"), ("draining", "healthy", "y")] * 50))

    with CaptureQueriesContext(connection) as queries:
        response = admin.get(f"{EXECUTORS}/{one.pk}")

    assert response.status_code == 200, response.content
    reads = [q["sql"] for q in queries if 'FROM "executors_executorstatuschange"' in q["sql"]]
    assert len(reads) == 1 and reads[0].endswith("LIMIT 20"), reads


@pytest.mark.parametrize("ref", ["0e3ecff3-e324-45ea-aa8f-a40c7b062593", "not-a-uuid", "12"])
def test_an_unknown_or_malformed_executor_id_is_a_404(admin, chain, ref):
    assert_problem(admin.get(f"{EXECUTORS}/{ref}"), 404)


# --- trust --------------------------------------------------------------------------------


def test_revoking_an_executors_trust_returns_it_untrusted(admin, chain):
    one = ExecutorFactory(chain=chain)

    response = admin.patch(f"{EXECUTORS}/{one.pk}", {"trusted": False}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["trusted"], body["status"]) == (False, "healthy")
    assert body["trustRevokedAt"].endswith("Z")
    one.refresh_from_db()
    assert abs((one.trust_revoked_at - timezone.now()).total_seconds()) < 5
    assert not Executor.objects.trusted().exists()


def test_revoking_trust_twice_keeps_the_first_revocation_time(admin, chain):
    earlier = timezone.now() - timedelta(days=1)
    one = ExecutorFactory(chain=chain, trust_revoked_at=earlier)

    response = admin.patch(f"{EXECUTORS}/{one.pk}", {"trusted": False}, format="json")

    assert response.status_code == 200, response.content
    one.refresh_from_db()
    assert one.trust_revoked_at == earlier


def test_restoring_trust_clears_the_revocation(admin, chain):
    one = ExecutorFactory(chain=chain, trust_revoked_at=timezone.now())

    response = admin.patch(f"{EXECUTORS}/{one.pk}", {"trusted": True}, format="json")

    assert response.status_code == 200, response.content
    assert (response.json()["trusted"], response.json()["trustRevokedAt"]) == (True, None)
    one.refresh_from_db()
    assert one.is_trusted


def test_an_executor_with_revoked_trust_keeps_heartbeating(admin, chain, executor_key):
    one = ExecutorFactory(chain=chain, registered_by=key_prefix(executor_key))
    admin.patch(f"{EXECUTORS}/{one.pk}", {"trusted": False}, format="json")

    response = with_api_key(executor_key).post(
        "/v1/chain-registry/31337/heartbeat", {"executorId": str(one.pk), "status": "ok"},
        format="json")

    assert response.status_code == 200, response.content
    one.refresh_from_db()
    assert not one.is_trusted


@pytest.mark.parametrize("body, attr", [
    ({}, "trusted"),
    ({"trusted": "false"}, "trusted"),
    ({"trusted": 0}, "trusted"),
    ({"trusted": None}, "trusted"),
    ({"trusted": False, "name": "renamed"}, "name"),
    ({"trusted": False, "status": "offline"}, "status"),
])
def test_an_invalid_trust_change_is_a_400_and_changes_nothing(admin, chain, body, attr):
    one = ExecutorFactory(chain=chain, name="binder")

    response = admin.patch(f"{EXECUTORS}/{one.pk}", body, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert attr in attrs(problem)
    one.refresh_from_db()
    assert (one.is_trusted, one.name, one.status) == (True, "binder", "healthy")


def test_changing_the_trust_of_an_unknown_executor_is_a_404(admin, chain):
    response = admin.patch(f"{EXECUTORS}/{uuid.uuid4()}", {"trusted": False}, format="json")

    assert_problem(response, 404)


@pytest.mark.parametrize("method", ["put", "delete", "post"])
def test_executors_are_not_created_replaced_or_deleted_through_the_admin_api(admin, chain,
                                                                             method):
    one = ExecutorFactory(chain=chain)
    url = EXECUTORS if method == "post" else f"{EXECUTORS}/{one.pk}"

    response = getattr(admin, method)(url, {"address": LOWER}, format="json")

    assert_problem(response, 405)
    assert Executor.objects.count() == 1


# --- deregistering ------------------------------------------------------------------------


def test_deregistering_takes_an_executor_out_of_service_and_records_it(admin, chain):
    one = ExecutorFactory(chain=chain)

    response = admin.post(f"{EXECUTORS}/{one.pk}/deregister")

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["trusted"]) == ("deregistered", True)
    assert [(c["fromStatus"], c["toStatus"], c["cause"]) for c in body["recentStatusChanges"]] == [
        ("healthy", "deregistered", "deregistered")]
    one.refresh_from_db()
    assert one.status == "deregistered"


def test_deregistering_twice_records_one_change(admin, chain):
    one = ExecutorFactory(chain=chain)

    admin.post(f"{EXECUTORS}/{one.pk}/deregister")
    response = admin.post(f"{EXECUTORS}/{one.pk}/deregister")

    assert response.status_code == 200, response.content
    assert one.status_changes.count() == 1


def test_a_deregistered_executor_heartbeats_into_a_404_and_registers_back(admin, chain,
                                                                           executor_key):
    one = ExecutorFactory(chain=chain, address=LOWER, registered_by=key_prefix(executor_key))
    admin.post(f"{EXECUTORS}/{one.pk}/deregister")
    client = with_api_key(executor_key)

    beat = client.post("/v1/chain-registry/31337/heartbeat",
                       {"executorId": str(one.pk), "status": "ok"}, format="json")
    again = register(client, 31337, {"address": LOWER})

    assert_problem(beat, 404)
    assert again.status_code == 200, again.content
    assert (again.json()["executorId"], again.json()["status"]) == (str(one.pk), "healthy")
    history = one.status_changes.order_by("created_at", "id")
    assert list(history.values_list("cause", flat=True)) == ["deregistered", "registered"]


def test_deregistering_an_unknown_executor_is_a_404(admin, chain):
    assert_problem(admin.post(f"{EXECUTORS}/{uuid.uuid4()}/deregister"), 404)


# --- trusted attesters --------------------------------------------------------------------


def test_adding_a_trusted_attester_stores_its_address_in_lowercase(admin, chain, admin_key):
    response = admin.post(ATTESTERS, {"chainId": 31337, "address": CHECKSUMMED,
                                      "note": "the foundation's signer"}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body == {"id": body["id"], "chainId": 31337, "address": LOWER,
                    "note": "the foundation's signer", "addedBy": key_prefix(admin_key),
                    "provenAt": None, "createdAt": body["createdAt"]}
    stored = TrustedAttester.objects.get()
    assert (stored.chain_id, stored.address, stored.added_by) == (31337, LOWER,
                                                                  key_prefix(admin_key))


@pytest.mark.parametrize("address", [LOWER, CHECKSUMMED, LOWER.upper().replace("0X", "0x")])
def test_a_duplicate_trusted_attester_in_any_case_is_a_409_naming_the_address(admin, chain,
                                                                              address):
    TrustedAttesterFactory(chain=chain, address=LOWER, note="first")

    response = admin.post(ATTESTERS, {"chainId": 31337, "address": address}, format="json")

    problem = assert_problem(response, 409, "duplicate")
    assert attrs(problem) == {"address"}
    assert TrustedAttester.objects.get().note == "first"


def test_the_same_attester_may_be_trusted_on_two_chains(admin, chain):
    ChainFactory(chain_id=10, short_name="optimism")

    first = admin.post(ATTESTERS, {"chainId": 31337, "address": LOWER}, format="json")
    second = admin.post(ATTESTERS, {"chainId": 10, "address": LOWER}, format="json")

    assert (first.status_code, second.status_code) == (201, 201)


BAD_ATTESTERS = {
    "no address": ({"chainId": 31337}, "address"),
    "address failing its checksum": ({"chainId": 31337, "address": BAD_CHECKSUM}, "address"),
    "address too short": ({"chainId": 31337, "address": "0x" + "a" * 39}, "address"),
    "address not hex": ({"chainId": 31337, "address": "0x" + "z" * 40}, "address"),
    "address as a number": ({"chainId": 31337, "address": 1}, "address"),
    "no chain": ({"address": LOWER}, "chainId"),
    "unknown chain": ({"chainId": 999999, "address": LOWER}, "chainId"),
    "chain by short name": ({"chainId": "anvil", "address": LOWER}, "chainId"),
    "note too long": ({"chainId": 31337, "address": LOWER, "note": "n" * 201}, "note"),
    "unknown field": ({"chainId": 31337, "address": LOWER, "weight": 2}, "weight"),
}


@pytest.mark.parametrize("case", BAD_ATTESTERS)
def test_an_invalid_trusted_attester_is_a_400_naming_the_field(admin, chain, case):
    body, attr = BAD_ATTESTERS[case]

    response = admin.post(ATTESTERS, body, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert attr in attrs(problem), problem
    assert not TrustedAttester.objects.exists()


def test_who_added_a_trusted_attester_is_not_the_clients_to_say(admin, chain, admin_key):
    response = admin.post(ATTESTERS, {"chainId": 31337, "address": LOWER, "addedBy": "someone"},
                          format="json")

    assert response.status_code == 201, response.content
    assert TrustedAttester.objects.get().added_by == key_prefix(admin_key)


def test_trusted_attesters_are_listed_and_filtered_by_chain_and_address(admin, chain):
    mine = TrustedAttesterFactory(chain=chain, address=LOWER)
    elsewhere = TrustedAttesterFactory(chain=ChainFactory(chain_id=10, short_name="optimism"),
                                       address=LOWER)
    TrustedAttesterFactory(chain=chain)

    everyone = admin.get(ATTESTERS).json()["results"]
    by_chain = admin.get(ATTESTERS, {"chainId": 10}).json()["results"]
    by_address = admin.get(ATTESTERS, {"address": CHECKSUMMED}).json()["results"]

    assert len(everyone) == 3
    assert [row["id"] for row in by_chain] == [elsewhere.pk]
    assert sorted(row["id"] for row in by_address) == sorted([mine.pk, elsewhere.pk])


def test_a_trusted_attester_can_be_retrieved(admin, chain):
    attester = TrustedAttesterFactory(chain=chain, address=LOWER, note="n")

    response = admin.get(f"{ATTESTERS}/{attester.pk}")

    assert response.status_code == 200, response.content
    assert (response.json()["address"], response.json()["note"]) == (LOWER, "n")


def test_the_note_of_a_trusted_attester_can_change(admin, chain):
    attester = TrustedAttesterFactory(chain=chain, address=LOWER, note="old")

    response = admin.patch(f"{ATTESTERS}/{attester.pk}", {"note": "new"}, format="json")

    assert response.status_code == 200, response.content
    attester.refresh_from_db()
    assert attester.note == "new"


def test_patching_the_same_address_in_another_case_is_not_a_change(admin, chain):
    attester = TrustedAttesterFactory(chain=chain, address=LOWER)

    response = admin.patch(f"{ATTESTERS}/{attester.pk}", {"address": CHECKSUMMED}, format="json")

    assert response.status_code == 200, response.content


@pytest.mark.parametrize("body, attr", [
    ({"address": "0x" + "b" * 40}, "address"),
    ({"chainId": 10}, "chainId"),
])
def test_the_chain_and_address_of_a_trusted_attester_cannot_change(admin, chain, body, attr):
    ChainFactory(chain_id=10, short_name="optimism")
    attester = TrustedAttesterFactory(chain=chain, address=LOWER)

    response = admin.patch(f"{ATTESTERS}/{attester.pk}", body, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert attrs(problem) == {attr}
    attester.refresh_from_db()
    assert (attester.chain_id, attester.address) == (31337, LOWER)


def test_deleting_a_trusted_attester(admin, chain):
    attester = TrustedAttesterFactory(chain=chain)

    response = admin.delete(f"{ATTESTERS}/{attester.pk}")

    assert response.status_code == 204
    assert not TrustedAttester.objects.exists()


def test_an_unknown_trusted_attester_is_a_404(admin, chain):
    assert_problem(admin.get(f"{ATTESTERS}/999999"), 404)
    assert_problem(admin.delete(f"{ATTESTERS}/999999"), 404)

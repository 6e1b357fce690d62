"""Trust only by approval (executors/trust.py): a new executor is untrusted until an
administrator approves it, unless its key's allow-list names its address, an admin key
registered it, or its chain's policy is `automatic`; its attestations verify only while it is
trusted; an untrusted one claims no job unless its chain allows it."""

import pytest
from auditlog.models import LogEntry
from django.contrib.contenttypes.models import ContentType

from executors.models import Executor
from registry.models import ApiKey, KeyScope
from tests.conftest import assert_problem, make_key, shown_messages
from tests.executors.conftest import key_prefix, with_api_key
from tests.factories import AttestationFactory, IndexCursorFactory, SchemaFactory
from tests.proofs import checksummed, register

pytestmark = pytest.mark.django_db

ME = checksummed(1)
DOCUMENT = "0x" + "d0" * 32


@pytest.fixture
def pending_key() -> str:
    """An executor key with no allow-list."""
    return make_key(KeyScope.EXECUTOR, allowed_addresses=[])


def registered(client, address=ME) -> dict:
    response = register(client, 31337, {"address": address})
    assert response.status_code in (200, 201), response.content
    return response.json()


def verified(api) -> bool:
    response = api.post("/v1/verify", {"documentHash": DOCUMENT}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["verified"]


def attested_by(chain, address):
    """A final attestation of DOCUMENT by `address` on `chain` (indexed to block 1000)."""
    IndexCursorFactory(deployment__chain=chain, head_block=1000)
    schema = SchemaFactory(deployment__chain=chain)
    return AttestationFactory(schema=schema, attester=address.lower(), block_number=900,
                              document_hash=DOCUMENT)


def test_a_new_executor_is_pending_and_its_attestations_do_not_verify(chain, pending_key, api):
    body = registered(with_api_key(pending_key))
    attested_by(chain, ME)

    assert (body["trusted"], body["trust"]) == (False, "pending")
    assert verified(api) is False


def test_an_approval_makes_it_trusted_and_its_attestations_verify_audited(
        chain, pending_key, admin, admin_key, api):
    executor_id = registered(with_api_key(pending_key))["executorId"]
    attested_by(chain, ME)

    response = admin.post(f"/v1/admin/executors/{executor_id}/approve",
                          {"reason": "checked its operator"}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["trusted"], body["trust"], body["trustBasis"]) == (True, "trusted", "approval")
    assert body["trustChangedBy"] == key_prefix(admin_key)
    assert body["trustReason"] == "checked its operator"
    assert verified(api) is True
    entry = LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(Executor),
                                    object_pk=executor_id).latest("timestamp")
    assert entry.changes_dict["trust_revoked_at"][1] == "None"
    assert entry.additional_data["apiKey"] == key_prefix(admin_key)


def test_revoking_trust_stops_verification_and_says_revoked(chain, pending_key, admin, api):
    executor_id = registered(with_api_key(pending_key))["executorId"]
    attested_by(chain, ME)
    admin.post(f"/v1/admin/executors/{executor_id}/approve")

    response = admin.post(f"/v1/admin/executors/{executor_id}/revoke-trust",
                          {"reason": "key leaked"}, format="json")

    assert response.status_code == 200, response.content
    assert (response.json()["trust"], response.json()["trustReason"]) == ("revoked", "key leaked")
    assert verified(api) is False


def test_registering_again_does_not_restore_a_revoked_executor(chain, admin):
    client = with_api_key(make_key(KeyScope.EXECUTOR, allowed_addresses=[ME.lower()]))
    executor_id = registered(client)["executorId"]
    admin.post(f"/v1/admin/executors/{executor_id}/revoke-trust")

    assert registered(client)["trust"] == "revoked"


def test_an_allow_listed_address_is_trusted_at_registration(chain, admin, api):
    key = make_key(KeyScope.EXECUTOR, allowed_addresses=[])
    prefix = key_prefix(key)
    response = admin.patch(f"/v1/admin/api-keys/{prefix}",
                           {"allowedAddresses": [ME]}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["allowedAddresses"] == [ME.lower()]

    body = registered(with_api_key(key))

    assert (body["trust"], body["trustBasis"]) == ("trusted", "allow_list")


def test_a_pending_executor_is_trusted_when_it_registers_after_being_allow_listed(chain, admin):
    key = make_key(KeyScope.EXECUTOR, allowed_addresses=[])
    assert registered(with_api_key(key))["trust"] == "pending"
    admin.patch(f"/v1/admin/api-keys/{key_prefix(key)}", {"allowedAddresses": [ME]},
                format="json")

    assert registered(with_api_key(key))["trust"] == "trusted"


def test_only_an_executor_key_has_an_allow_list(admin, api_key):
    response = admin.patch(f"/v1/admin/api-keys/{key_prefix(api_key)}",
                           {"allowedAddresses": [ME]}, format="json")

    assert_problem(response, 400, "validation_error")


def test_the_key_api_never_shows_a_secret_and_lists_keys(admin, executor_key):
    response = admin.get("/v1/admin/api-keys?scope=executor")

    assert response.status_code == 200
    (key,) = response.json()["results"]
    assert set(key) == {"prefix", "name", "scope", "createdAt", "lastUsedAt", "expiresAt",
                        "revokedAt", "allowedAddresses"}
    assert executor_key.split(".")[1] not in response.content.decode()


def test_an_admin_key_s_registration_is_trusted(chain, admin_key):
    body = registered(with_api_key(admin_key))

    assert (body["trust"], body["trustBasis"]) == ("trusted", "admin_key")


def test_a_chain_with_automatic_trust_trusts_a_proven_executor(chain, pending_key, admin):
    response = admin.patch("/v1/admin/chains/31337", {"executorTrust": "automatic"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["executorTrust"] == "automatic"

    body = registered(with_api_key(pending_key))

    assert (body["trust"], body["trustBasis"]) == ("trusted", "automatic")


def test_an_untrusted_executor_claims_no_job_unless_its_chain_allows_it(chain, pending_key, admin):
    client = with_api_key(pending_key)
    executor_id = registered(client)["executorId"]
    claim = {"executorId": executor_id}

    assert_problem(client.post("/v1/chain-registry/31337/jobs/claim", claim, format="json"),
                   409, "executor_untrusted")
    admin.patch("/v1/admin/chains/31337", {"untrustedExecutorJobs": True}, format="json")
    assert client.post("/v1/chain-registry/31337/jobs/claim", claim,
                       format="json").status_code == 204  # allowed: nothing queued


def test_an_untrusted_executor_holds_a_lease(chain, pending_key):
    client = with_api_key(pending_key)
    executor_id = registered(client)["executorId"]

    response = client.post("/v1/chain-registry/31337/heartbeat",
                           {"executorId": executor_id, "status": "ok"}, format="json")

    assert response.status_code == 200, response.content


def test_an_executor_key_cannot_approve(chain, pending_key, executor):
    executor_id = registered(with_api_key(pending_key))["executorId"]

    assert executor.post(f"/v1/admin/executors/{executor_id}/approve").status_code == 401
    assert Executor.objects.get().trust == "pending"


def test_transfer_moves_an_executor_to_another_key(chain, pending_key, admin):
    executor_id = registered(with_api_key(pending_key))["executorId"]
    other = make_key(KeyScope.EXECUTOR)

    response = admin.post(f"/v1/admin/executors/{executor_id}/transfer",
                          {"key": key_prefix(other)}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["registeredBy"] == key_prefix(other)
    revoked = make_key(KeyScope.EXECUTOR)
    ApiKey.objects.filter(prefix=key_prefix(revoked)[4:]).revoke()
    refused = admin.post(f"/v1/admin/executors/{executor_id}/transfer",
                         {"key": key_prefix(revoked)}, format="json")
    assert_problem(refused, 400, "validation_error")


def test_the_django_admin_approves_and_revokes_with_the_user_named(chain, pending_key, site):
    executor_id = registered(with_api_key(pending_key))["executorId"]

    response = site.post("/admin/executors/executor/", {
        "action": "approve", "_selected_action": [executor_id]}, follow=True)

    assert response.status_code == 200
    assert "Approved 1 executor(s): trusted." in shown_messages(response)
    executor = Executor.objects.get()
    assert (executor.trust, executor.trust_changed_by) == ("trusted", "user:root")
    site.post("/admin/executors/executor/", {"action": "revoke_trust",
                                             "_selected_action": [executor_id]})
    assert Executor.objects.get().trust == "revoked"
    page = site.get("/admin/executors/executor/?trusted=pending")
    assert page.status_code == 200


def test_the_django_admin_sets_an_executor_key_s_allow_list(site, pending_key):
    key = ApiKey.objects.get(prefix=key_prefix(pending_key)[4:])
    form = {"name": key.name, "expires_at_0": "", "expires_at_1": "",
            "allowed_addresses": f'["{ME}"]'}

    response = site.post(f"/admin/registry/apikey/{key.pk}/change/", form)

    assert response.status_code == 302, response.content[:3000]
    key.refresh_from_db()
    assert key.allowed_addresses == [ME.lower()]
    bad = site.post(f"/admin/registry/apikey/{key.pk}/change/",
                    {**form, "allowed_addresses": '["0x12"]'})
    assert bad.status_code == 200 and b"40 hex digits" in bad.content

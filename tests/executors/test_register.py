"""Executor registration: POST /v1/chain-registry/{chain}/register (SPEC 4)."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from executors.models import Executor, ExecutorStatusChange
from registry.models import KeyScope
from tests.conftest import assert_problem, make_key
from tests.executors.conftest import key_prefix, with_api_key
from tests.factories import ChainFactory, ExecutorFactory
from tests.proofs import checksummed, register

pytestmark = pytest.mark.django_db

URL = "/v1/chain-registry/{}/register"
# A checksummed address whose key the test holds, and its lowercase form.
CHECKSUMMED = checksummed(1)
LOWER = CHECKSUMMED.lower()
BAD_CHECKSUM = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"  # EIP-55's example, a case flipped


def register_body(**overrides) -> dict:
    body = {"address": CHECKSUMMED, "name": "binder-1", "endpointUrl": "https://binder.example/",
            "version": "1.2.0", "capabilities": ["bind", "eas:v1"], "metadata": {"region": "eu"}}
    body.update(overrides)
    return {k: v for k, v in body.items() if v is not ...}


def seconds_from_now(text: str) -> float:
    return (parse_datetime(text) - timezone.now()).total_seconds()


def attrs(body: dict) -> set[str]:
    return {error["attr"] for error in body["errors"]}


# --- first registration -------------------------------------------------------------------


def test_registering_an_executor_returns_201_with_its_id_and_a_fresh_lease(executor, chain,
                                                                          executor_key):
    response = register(executor, 31337, register_body(), format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body == {
        "executorId": body["executorId"], "chainId": 31337, "address": LOWER, "name": "binder-1",
        "endpointUrl": "https://binder.example/", "version": "1.2.0",
        "capabilities": ["bind", "eas:v1"], "metadata": {"region": "eu"}, "status": "healthy",
        # Proven, not trusted: it waits for an administrator's approval (trust.py).
        "trusted": False, "trust": "pending", "trustBasis": "", "trustedAt": None,
        "trustRevokedAt": body["registeredAt"], "trustChangedBy": "",
        "trustReason": "waiting for an administrator's approval",
        "registeredBy": key_prefix(executor_key), "pendingJobs": None, "headBlock": None,
        "balanceWei": None, "heartbeatIntervalSeconds": 10, "leaseExpiresAt": body["leaseExpiresAt"],
        "lastHeartbeatAt": body["lastHeartbeatAt"], "registeredAt": body["registeredAt"],
        "statusChangedAt": body["statusChangedAt"],
    }
    assert 28 <= seconds_from_now(body["leaseExpiresAt"]) <= 31
    assert body["registeredAt"].endswith("Z")
    stored = Executor.objects.get(pk=uuid.UUID(body["executorId"]))
    assert (stored.chain_id, stored.address, stored.status) == (31337, LOWER, "healthy")
    assert stored.registered_by == key_prefix(executor_key)
    assert stored.capabilities == ["bind", "eas:v1"]
    assert stored.metadata == {"region": "eu"}


def test_the_first_registration_is_recorded_as_a_status_change(executor, chain):
    response = register(executor, 31337, register_body(), format="json")

    change = ExecutorStatusChange.objects.get(executor_id=response.json()["executorId"])
    assert (change.from_status, change.to_status, change.cause) == ("", "healthy", "registered")


def test_an_address_alone_is_enough_to_register(executor, chain):
    response = register(executor, 31337, {"address": LOWER}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["endpointUrl"], body["version"]) == ("", "", "")
    assert (body["capabilities"], body["metadata"]) == ([], {})


def test_the_chain_can_be_named_by_its_short_name(executor, chain):
    response = register(executor, "anvil", register_body(), format="json")

    assert response.status_code == 201, response.content
    assert response.json()["chainId"] == 31337
    assert Executor.objects.get().chain_id == 31337


def test_metadata_keys_are_kept_as_the_executor_wrote_them(executor, chain):
    metadata = {"gpu_count": 2, "someKey": {"nested_key": True}}

    response = register(executor, 31337, register_body(metadata=metadata), format="json")

    assert response.status_code == 201, response.content
    assert response.json()["metadata"] == metadata
    assert Executor.objects.get().metadata == metadata


def test_credentials_in_the_endpoint_url_are_masked_in_the_response(executor, chain):
    url = "https://binder:s3cret@binder.example/rpc"

    response = register(executor, 31337, register_body(endpointUrl=url), format="json")

    assert response.status_code == 201, response.content
    assert "s3cret" not in response.content.decode()
    assert Executor.objects.get().endpoint_url == url


def test_the_same_address_on_two_chains_is_two_executors(executor, chain):
    ChainFactory(chain_id=10, short_name="optimism")

    first = register(executor, 31337, register_body(), format="json")
    second = register(executor, 10, register_body(), format="json")

    assert (first.status_code, second.status_code) == (201, 201)
    assert first.json()["executorId"] != second.json()["executorId"]
    assert Executor.objects.count() == 2


# --- registering again --------------------------------------------------------------------


def test_registering_again_returns_200_with_the_same_id_and_updated_details(executor, chain):
    first = register(executor, 31337, register_body(), format="json").json()

    response = register(executor, "anvil", register_body(
        address=LOWER, name="binder-2", version="1.3.0", capabilities=["bind"], metadata={}
    ), format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["executorId"] == first["executorId"]
    assert (body["name"], body["version"], body["capabilities"]) == ("binder-2", "1.3.0", ["bind"])
    stored = Executor.objects.get()
    assert (stored.name, stored.version, stored.metadata) == ("binder-2", "1.3.0", {})
    # healthy -> healthy is no transition: only the first registration is on record.
    assert ExecutorStatusChange.objects.count() == 1


def test_registering_again_renews_the_lease_and_keeps_the_registration_time(executor, chain,
                                                                            executor_key):
    long_ago = timezone.now() - timedelta(hours=1)
    existing = ExecutorFactory(chain=chain, address=LOWER, registered_by=key_prefix(executor_key),
                               registered_at=long_ago, last_heartbeat_at=long_ago)

    response = register(executor, 31337, register_body(), format="json")

    assert response.status_code == 200, response.content
    existing.refresh_from_db()
    assert existing.registered_at == long_ago
    assert abs((existing.lease_expires_at - timezone.now()).total_seconds() - 30) < 2
    assert 28 <= seconds_from_now(response.json()["leaseExpiresAt"]) <= 31


@pytest.mark.parametrize("status", ["stale", "offline", "draining"])
def test_registering_again_makes_a_lapsed_or_draining_executor_healthy(executor, chain,
                                                                        executor_key, status):
    existing = ExecutorFactory(chain=chain, address=LOWER, status=status,
                               registered_by=key_prefix(executor_key))

    response = register(executor, 31337, register_body(), format="json")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "healthy"
    existing.refresh_from_db()
    assert existing.status == "healthy"
    change = existing.status_changes.get()
    assert (change.from_status, change.to_status, change.cause) == (status, "healthy", "registered")


def test_another_key_cannot_take_over_a_registered_executor(chain, executor_key):
    existing = ExecutorFactory(chain=chain, address=LOWER, name="theirs",
                               registered_by=key_prefix(executor_key))
    intruder = with_api_key(make_key(KeyScope.EXECUTOR))

    response = register(intruder, 31337, register_body(name="mine"), format="json")

    assert_problem(response, 403)
    existing.refresh_from_db()
    assert (existing.name, existing.registered_by) == ("theirs", key_prefix(executor_key))


def test_an_admin_key_may_register_again_for_any_executor(chain, executor_key, admin_key):
    existing = ExecutorFactory(chain=chain, address=LOWER, registered_by=key_prefix(executor_key))

    response = register(with_api_key(admin_key), 31337, register_body(name="by-admin"),
                                            format="json")

    assert response.status_code == 200, response.content
    assert response.json()["executorId"] == str(existing.pk)
    existing.refresh_from_db()
    # The executor's own key still owns it: its heartbeats keep working.
    assert (existing.name, existing.registered_by) == ("by-admin", key_prefix(executor_key))


def test_registering_a_deregistered_executor_revives_it_with_the_same_id(executor, chain,
                                                                          executor_key):
    existing = ExecutorFactory(chain=chain, address=LOWER, status="deregistered",
                               registered_by=key_prefix(executor_key))

    response = register(executor, 31337, register_body(), format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["executorId"], body["status"]) == (str(existing.pk), "healthy")
    change = existing.status_changes.get()
    assert (change.from_status, change.to_status) == ("deregistered", "healthy")


def test_another_key_cannot_take_over_a_deregistered_executor(executor, chain):
    existing = ExecutorFactory(chain=chain, address=LOWER, status="deregistered",
                               registered_by="crk_formerowner0")

    response = register(executor, 31337, register_body(), format="json")

    assert_problem(response, 403)
    existing.refresh_from_db()
    assert (existing.status, existing.registered_by) == ("deregistered", "crk_formerowner0")
    assert not existing.status_changes.exists()


# --- the chain ----------------------------------------------------------------------------


@pytest.mark.parametrize("ref", ["999999", "nowhere", "0", "99999999999999999999999"])
def test_an_unknown_chain_is_404_and_nothing_is_written(executor, chain, ref):
    response = register(executor, ref, register_body(), format="json")

    assert_problem(response, 404)
    assert not Executor.objects.exists()


@pytest.mark.parametrize("ref", ["31337", "anvil"])
def test_an_inactive_chain_refuses_registration_with_409_and_nothing_is_written(executor, chain,
                                                                                ref):
    chain.set_status("inactive")

    response = register(executor, ref, register_body(), format="json")

    assert_problem(response, 409, "chain_inactive")
    assert not Executor.objects.exists()
    assert not ExecutorStatusChange.objects.exists()


def test_an_inactive_chain_does_not_revive_or_update_its_executors(executor, chain, executor_key):
    existing = ExecutorFactory(chain=chain, address=LOWER, status="offline", name="before",
                               registered_by=key_prefix(executor_key))
    chain.set_status("inactive")

    response = register(executor, 31337, register_body(name="after"), format="json")

    assert_problem(response, 409, "chain_inactive")
    existing.refresh_from_db()
    assert (existing.status, existing.name) == ("offline", "before")


# --- bad input ----------------------------------------------------------------------------

TOO_LONG_CAPABILITY = "c" * 65

BAD_BODIES = {
    "no address": (register_body(address=...), "address"),
    "null address": (register_body(address=None), "address"),
    "address of 39 digits": (register_body(address="0x" + "a" * 39), "address"),
    "address of 41 digits": (register_body(address="0x" + "a" * 41), "address"),
    "address without 0x": (register_body(address="a" * 40), "address"),
    "address not hex": (register_body(address="0x" + "g" * 40), "address"),
    "address failing its checksum": (register_body(address=BAD_CHECKSUM), "address"),
    "address as a number": (register_body(address=12345), "address"),
    "name too long": (register_body(name="n" * 101), "name"),
    "name not a string": (register_body(name=5), "name"),
    "endpoint url without a host": (register_body(endpointUrl="https://"), "endpointUrl"),
    "endpoint url of another scheme": (register_body(endpointUrl="ftp://binder.example"),
                                       "endpointUrl"),
    "version too long": (register_body(version="1" * 65), "version"),
    "capabilities not a list": (register_body(capabilities="bind"), "capabilities"),
    "too many capabilities": (register_body(capabilities=[f"c{i}" for i in range(33)]),
                              "capabilities"),
    "duplicate capabilities": (register_body(capabilities=["bind", "bind"]), "capabilities"),
    "a capability not a string": (register_body(capabilities=["bind", 5]), "capabilities"),
    "a capability that is an object": (register_body(capabilities=[{"a": 1}]), "capabilities"),
    "a capability in upper case": (register_body(capabilities=["Bind"]), "capabilities"),
    "a capability with a space": (register_body(capabilities=["bind docs"]), "capabilities"),
    "an empty capability": (register_body(capabilities=[""]), "capabilities"),
    "a capability too long": (register_body(capabilities=[TOO_LONG_CAPABILITY]), "capabilities"),
    "metadata a list": (register_body(metadata=["region", "eu"]), "metadata"),
    "metadata a string": (register_body(metadata="eu"), "metadata"),
    "metadata over 4096 bytes": (register_body(metadata={"blob": "x" * 4096}), "metadata"),
    "metadata over 4096 bytes of UTF-8": (register_body(metadata={"blob": "é" * 2050}),
                                          "metadata"),
    "an unknown field": (register_body(colour="blue"), "colour"),
    "a lease set by the client": (
        register_body(leaseExpiresAt="2099-01-01T00:00:00Z"), "leaseExpiresAt"),
    "a status set by the client": (register_body(status="healthy"), "status"),
    "an executor id chosen by the client": (
        register_body(executorId=str(uuid.uuid4())), "executorId"),
}


@pytest.mark.parametrize("case", BAD_BODIES)
def test_a_bad_registration_is_400_naming_the_field_and_writes_nothing(executor, chain, case):
    body, attr = BAD_BODIES[case]

    response = register(executor, 31337, body, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert attrs(problem) == {attr}, problem
    assert not Executor.objects.exists()


@pytest.mark.parametrize("body", [[], "address", 42, None])
def test_a_body_that_is_not_an_object_is_400(executor, chain, body):
    response = executor.post(URL.format(31337), body, format="json")

    assert_problem(response, 400)
    assert not Executor.objects.exists()


@pytest.mark.parametrize("metadata", [
    '{"load": 1e400}',  # valid JSON that Python reads as infinity
    '{"note": "\\ud800"}',  # a lone surrogate: valid JSON, not encodable as UTF-8
    '{"note": "a\\u0000b"}',  # NUL: PostgreSQL's jsonb refuses it
    '{"a\\u0000b": 1}',  # in a key too
])
def test_metadata_that_jsonb_cannot_store_is_400_not_a_crash(executor, chain, metadata):
    raw = f'{{"address": "{LOWER}", "metadata": {metadata}}}'

    response = executor.post(URL.format(31337), raw, content_type="application/json")

    assert_problem(response, 400, "parse_error")  # refused by the parser, for every field
    assert not Executor.objects.exists()


def test_a_bad_registration_again_leaves_the_executor_unchanged(executor, chain, executor_key):
    existing = ExecutorFactory(chain=chain, address=LOWER, name="before",
                               registered_by=key_prefix(executor_key))
    lease = existing.lease_expires_at

    response = register(executor, 31337, register_body(name="after", capabilities=["A"]),
                             format="json")

    assert_problem(response, 400, "validation_error")
    existing.refresh_from_db()
    assert (existing.name, existing.lease_expires_at) == ("before", lease)


def test_all_bad_fields_are_reported_together(executor, chain):
    body = register_body(address=BAD_CHECKSUM, capabilities=["Bind"], metadata=[], extra=1)

    response = register(executor, 31337, body, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert attrs(problem) == {"address", "capabilities", "metadata", "extra"}


def test_thirty_two_capabilities_and_4096_bytes_of_metadata_are_accepted(executor, chain):
    capabilities = [f"cap-{i}" for i in range(32)]
    metadata = {"blob": "x" * (4096 - len('{"blob":""}'))}

    response = register(executor, 31337,
                             register_body(capabilities=capabilities, metadata=metadata),
                             format="json")

    assert response.status_code == 201, response.content
    assert Executor.objects.get().capabilities == capabilities


def test_the_metadata_limit_counts_bytes_of_utf8_not_escapes(executor, chain):
    metadata = {"note": "é" * 2000}  # 4000 bytes of UTF-8, 12000 characters as \u00e9

    response = register(executor, 31337, register_body(metadata=metadata), format="json")

    assert response.status_code == 201, response.content
    assert Executor.objects.get().metadata == metadata


# --- concurrency --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_concurrent_first_registrations_of_one_address_make_one_executor():
    ChainFactory(chain_id=31337, short_name="anvil")
    raw_key = make_key(KeyScope.EXECUTOR)
    threads_count = 8
    barrier = threading.Barrier(threads_count)
    responses = []

    def register_one():
        try:
            client = with_api_key(raw_key)
            barrier.wait()
            responses.append(register(client, 31337, register_body(), format="json"))
        finally:
            connection.close()

    threads = [threading.Thread(target=register_one) for _ in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert not any(thread.is_alive() for thread in threads)
    assert sorted(r.status_code for r in responses) == [200] * (threads_count - 1) + [201]
    assert len({r.json()["executorId"] for r in responses}) == 1
    executor = Executor.objects.get()
    assert list(executor.status_changes.values_list("cause", flat=True)) == ["registered"]

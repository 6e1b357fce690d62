"""POST /v1/verify on indexed data (factories): every rule, its edges, and the hot path's cost.
The same rules on a real chain, indexed by the indexer, are in test_verify_e2e.py."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from attestations.models import IndexCursor
from executors.models import ExecutorStatus
from registry.models import Chain
from tests.conftest import assert_problem, make_key
from tests.factories import ExecutorFactory, IndexCursorFactory, TrustedAttesterFactory
from tests.verification.conftest import (
    EXECUTOR,
    NOT_VERIFIED,
    attest_by_the_executor,
    get_attestation_call,
    indexed_chain,
    not_verified,
    query_plan,
)
from verification.services import verify_document
from verification.sql import MISS_SQL, VERIFICATION_SQL

pytestmark = pytest.mark.django_db

URL = "/v1/verify"
OTHER = "0x" + "0b" * 20
HASH = "0x" + "d0" * 32


def iso(moment) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def chain():
    """An active chain needing 12 confirmations, indexed up to block 1000, with an executor."""
    return indexed_chain(chain_id=31337, short_name="anvil", confirmations=12)


def miss(reason: str, finalized_block: int = 1000 - 12 + 1) -> dict:
    """A miss on `chain` (indexed up to block 1000, 12 confirmations): what "final" meant
    there rides along."""
    return not_verified(reason, finality={"rule": "confirmations",
                                          "finalizedBlock": finalized_block})


def attest(chain, **fields):
    """An indexed attestation of HASH by the executor on `chain`, final by default."""
    return attest_by_the_executor(chain, **{"document_hash": HASH, **fields})


def verify(api, **body):
    response = api.post(URL, {"documentHash": HASH, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def verified_by(api, attestation, **body) -> bool:
    answer = verify(api, **body)
    return answer["verified"] and answer["attestationId"] == attestation.uid


# --- The answer ------------------------------------------------------------------------------


def test_an_attestation_by_a_registered_executor_verifies_with_every_field(api, chain):
    attestation = attest(chain, block_number=950)
    assert verify(api) == {
        "verified": True, "attestationId": attestation.uid, "timestamp": iso(attestation.time),
        "chainId": 31337, "attester": EXECUTOR, "schemaId": attestation.schema_uid,
        "txHash": attestation.tx_hash, "blockNumber": 950, "confirmations": 51,
        "blockHash": attestation.block_hash, "logIndex": attestation.log_index,
        "easAddress": attestation.deployment.address,
        "getAttestationCall": get_attestation_call(attestation.deployment.address,
                                                   attestation.uid),
        "offchain": False, "timestampProven": True, "merkleRoot": None, "proof": None,
        "issuer": None, "reason": None, "chainStalled": False,
        "finality": {"rule": "confirmations", "finalizedBlock": 1000 - 12 + 1},
    }


def test_no_attestation_is_a_200_with_nulls(api, chain):
    assert verify(api) == not_verified("not_found")


@pytest.mark.parametrize("prefix", ["0x", "0X"])  # the prefix like the digits (issue 37)
def test_the_hash_is_case_insensitive_on_input(api, chain, prefix):
    attestation = attest(chain)
    response = api.post(URL, {"documentHash": prefix + HASH[2:].upper()}, format="json")
    assert response.json()["attestationId"] == attestation.uid
    batch = api.post(f"{URL}/batch", {"documentHashes": [prefix + HASH[2:]]}, format="json")
    assert batch.json()["results"][0]["documentHash"] == HASH, batch.content


@pytest.mark.parametrize("path, body, attr", [
    (URL, {"document_hash": HASH}, "document_hash"),
    (URL, {"documentHash": HASH, "chain_id": 1}, "chain_id"),
    (f"{URL}/batch", {"document_hashes": [HASH]}, "document_hashes"),
])
def test_a_snake_case_field_is_refused_like_any_unknown_field(api, chain, path, body, attr):
    # Not taken for the camelCase field it names (issue 37 item 7).
    attest(chain)
    problem = assert_problem(api.post(path, body, format="json"), 400, "validation_error")
    assert [(e["attr"], e["code"]) for e in problem["errors"]] == [(attr, "unknown_field")]
    assert problem["errors"][0]["detail"].startswith(f"Unknown field '{attr}'")


@pytest.mark.parametrize("value", [
    "0x" + "d0" * 31, "0x" + "d0" * 33, "d0" * 32, "0x" + "g0" * 32, "", 12, None, ["0x"],
])
def test_a_malformed_hash_is_a_400(api, chain, value):
    body = assert_problem(api.post(URL, {"documentHash": value}, format="json"), 400,
                          "validation_error")
    assert [e["attr"] for e in body["errors"]] == ["documentHash"]


@pytest.mark.parametrize("body, attr", [
    ({}, "documentHash"),
    ({"documentHash": HASH, "chainId": "31337"}, "chainId"),
    ({"documentHash": HASH, "chainId": 0}, "chainId"),
    ({"documentHash": HASH, "live": "yes"}, "live"),
    ({"documentHash": HASH, "hash": HASH}, "hash"),
])
def test_a_malformed_request_is_a_400_naming_the_field(api, chain, body, attr):
    problem = assert_problem(api.post(URL, body, format="json"), 400, "validation_error")
    assert [e["attr"] for e in problem["errors"]] == [attr]


def test_a_body_that_is_not_json_is_a_415(api, chain):
    assert_problem(api.post(URL, "documentHash=1", content_type="text/plain"), 415)


def test_keys_of_scope_api_and_admin_may_verify_others_not(chain):
    for scope, status in [("api", 200), ("admin", 200), ("executor", 403)]:
        client = APIClient()
        client.credentials(HTTP_X_API_KEY=make_key(scope))
        assert client.post(URL, {"documentHash": HASH}, format="json").status_code == status
    assert_problem(APIClient().post(URL, {"documentHash": HASH}, format="json"), 401)


def test_get_is_not_allowed(api):
    assert_problem(api.get(URL), 405)


# --- The rules -------------------------------------------------------------------------------


def test_a_revoked_attestation_does_not_verify(api, chain):
    attest(chain, revocation_time=timezone.now() - timedelta(seconds=1))
    assert verify(api) == miss("revoked")


def test_an_attestation_expires_at_its_expiration_time_exactly(chain):
    expires = timezone.now() + timedelta(hours=1)
    attestation = attest(chain, expiration_time=expires)
    just_before = verify_document(HASH, now=expires - timedelta(microseconds=1))
    assert just_before.attestation_id == attestation.uid
    assert not verify_document(HASH, now=expires).verified  # EAS: expired when <= now
    assert not verify_document(HASH, now=expires + timedelta(seconds=1)).verified


def test_an_expired_attestation_does_not_verify_through_the_api(api, chain):
    attest(chain, expiration_time=timezone.now() - timedelta(seconds=1))
    assert verify(api) == miss("expired")


def test_confirmations_boundary(api, chain):
    # Head 1000, 12 confirmations: block 989 has 12 (989..1000), block 990 has 11.
    attestation = attest(chain, block_number=990)
    assert verify(api) == miss("not_final")
    attestation.block_number = 989
    attestation.save()
    assert verify(api)["confirmations"] == 12


def test_confirmations_count_from_the_indexed_head_as_it_moves(api, chain):
    attestation = attest(chain, block_number=1000)
    assert not verified_by(api, attestation)
    chain.index_cursors.update(head_block=1011)
    assert verify(api)["confirmations"] == 12


def test_confirmations_count_from_the_head_the_attestations_own_cursor_saw(api, chain):
    attestation = attest(chain, block_number=990)  # 11 below its cursor's head (1000)
    # Another contract's cursor on the chain has seen a higher head: that cursor has not
    # checked the attestation's blocks for reorganisations, so its head does not count.
    IndexCursorFactory(deployment__chain=chain, head_block=2000)
    assert verify(api) == miss("not_final")
    IndexCursor.objects.filter(deployment=attestation.deployment).update(head_block=1001)
    assert verify(api)["confirmations"] == 12


def test_a_chain_needing_no_confirmations_still_needs_the_block_indexed(api, chain):
    Chain.objects.filter(pk=chain.pk).update(confirmations=0)
    attest(chain, block_number=1001)  # beyond the indexed head: 0 confirmations
    assert verify(api)["confirmations"] == 0 and verify(api)["verified"]
    # With 1, the block itself must be under the head.
    Chain.objects.filter(pk=chain.pk).update(confirmations=1)
    assert not verify(api)["verified"]


def test_without_an_indexed_head_nothing_is_final(api, chain):
    attestation = attest(chain)
    chain.index_cursors.update(head_block=None)
    assert not verified_by(api, attestation)


def test_an_inactive_chain_does_not_verify_and_reactivating_it_does(api, admin, chain):
    attestation = attest(chain)
    path = f"/v1/admin/chains/{chain.chain_id}/status"
    assert admin.patch(path, {"status": "inactive"}, format="json").status_code == 200
    assert verify(api) == miss("chain_inactive")
    assert admin.patch(path, {"status": "active"}, format="json").status_code == 200
    assert verified_by(api, attestation)


def test_an_untrusted_attester_does_not_verify(api, chain):
    attest(chain, attester=OTHER)
    assert verify(api) == miss("untrusted_attester")


def test_an_executor_of_another_chain_is_not_trusted_here(api, chain):
    attest(chain, attester=OTHER)
    ExecutorFactory(address=OTHER)  # on a chain of its own
    TrustedAttesterFactory(address=OTHER)  # ditto
    assert verify(api) == miss("untrusted_attester")


@pytest.mark.parametrize("status", [ExecutorStatus.STALE, ExecutorStatus.OFFLINE,
                                    ExecutorStatus.DRAINING, ExecutorStatus.DEREGISTERED])
def test_an_executor_verifies_whatever_its_liveness(api, chain, status):
    attestation = attest(chain)
    chain.executors.update(status=status, lease_expires_at=timezone.now() - timedelta(hours=1))
    assert verified_by(api, attestation)


def test_a_trusted_attester_added_or_removed_takes_effect_on_the_next_verify(api, admin, chain):
    attestation = attest(chain, attester=OTHER)
    assert not verified_by(api, attestation)
    added = admin.post("/v1/admin/trusted-attesters",
                       {"chainId": chain.chain_id, "address": OTHER}, format="json")
    assert added.status_code == 201, added.content
    assert verified_by(api, attestation)
    deleted = admin.delete(f"/v1/admin/trusted-attesters/{added.json()['id']}")
    assert deleted.status_code == 204
    assert not verified_by(api, attestation)


def test_revoking_an_executors_trust_takes_effect_on_the_next_verify(api, admin, chain):
    attestation = attest(chain)
    executor = chain.executors.get()
    path = f"/v1/admin/executors/{executor.pk}"
    assert admin.patch(path, {"trusted": False}, format="json").status_code == 200
    assert verify(api) == miss("untrusted_attester")
    assert admin.patch(path, {"trusted": True}, format="json").status_code == 200
    assert verified_by(api, attestation)


def test_a_revoked_executor_stays_untrusted_even_if_listed_as_a_trusted_attester(api, chain):
    attest(chain)
    TrustedAttesterFactory(chain=chain, address=EXECUTOR)
    chain.executors.update(trust_revoked_at=timezone.now())
    assert verify(api) == miss("untrusted_attester")


def test_trust_changes_in_the_django_admin_take_effect_on_the_next_verify(api, chain):
    attestation = attest(chain, attester=OTHER)
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    site = Client()
    site.force_login(user)
    added = site.post(reverse("admin:executors_trustedattester_add"),
                      {"chain": chain.pk, "address": OTHER.upper().replace("0X", "0x"),
                       "note": "ops"})
    assert added.status_code == 302, added.content
    assert verified_by(api, attestation)

    executor = chain.executors.get()
    attest(chain, time=attestation.time - timedelta(days=1))  # the executor's, earlier
    assert verify(api)["attester"] == EXECUTOR
    revoked = site.post(reverse("admin:executors_executor_changelist"),
                        {"action": "revoke_trust", "_selected_action": [executor.pk]})
    assert revoked.status_code == 302
    assert verified_by(api, attestation)  # the executor's no longer answers


def test_another_hash_or_an_attestation_without_one_does_not_match(api, chain):
    attest(chain, document_hash="0x" + "d1" * 32)
    attest(chain, document_hash=None, data=b"", decoded={})
    assert verify(api) == not_verified("not_found")


# --- Several matches -------------------------------------------------------------------------


@pytest.fixture
def second_chain():
    return indexed_chain(50, chain_id=31338, short_name="anvil-2", confirmations=1)


def test_the_earliest_valid_attestation_answers_and_chain_id_narrows(api, chain, second_chain):
    now = timezone.now().replace(microsecond=0)
    later = attest(chain, time=now)
    earlier = attest(second_chain, time=now - timedelta(minutes=5), block_number=40)
    assert verified_by(api, earlier)
    assert verify(api)["chainId"] == 31338
    assert verified_by(api, later, chainId=31337)
    assert verified_by(api, earlier, chainId=31338)
    assert verify(api, chainId=424242) == not_verified("not_found")


def test_an_earlier_invalid_attestation_gives_way_to_a_later_valid_one(api, chain):
    now = timezone.now().replace(microsecond=0)
    valid = attest(chain, time=now)
    attest(chain, time=now - timedelta(days=3), revocation_time=now)
    attest(chain, time=now - timedelta(days=2), attester=OTHER)
    attest(chain, time=now - timedelta(days=1), block_number=999)  # not final yet
    assert verified_by(api, valid)


def test_an_inactive_chain_gives_way_to_an_active_one(api, chain, second_chain):
    now = timezone.now().replace(microsecond=0)
    attest(second_chain, time=now - timedelta(days=1), block_number=40)
    later = attest(chain, time=now)
    second_chain.set_status(Chain.Status.INACTIVE)
    assert verified_by(api, later)
    assert verify(api, chainId=31338) == miss("chain_inactive", 50)


# --- The hot path ----------------------------------------------------------------------------


def test_a_verification_is_one_select_and_no_write(api, chain, second_chain):
    attest(chain)
    TrustedAttesterFactory(chain=chain, address=OTHER)
    verify(api)  # the first request reads the key into the cache and records its use
    for body in [{}, {"chainId": 31337}]:
        with CaptureQueriesContext(connection) as queries:
            assert verify(api, **body)["reason"] is None
        sql = [q["sql"] for q in queries]
        assert statements(sql) == [VERIFICATION_SQL], sql  # the hot query, and nothing more


@pytest.mark.parametrize("body", [{"documentHash": "0x" + "00" * 32}, {"chainId": 31338}])
def test_a_miss_costs_one_more_select_the_reasons_merkle_and_offchain_one(
        api, chain, second_chain, body):
    attest(chain)
    verify(api)  # the key, as above
    with CaptureQueriesContext(connection) as queries:
        assert verify(api, **body)["reason"] == "not_found"
    # The reason's statement also looks at its Merkle batches and asks: does it have an
    # offchain attestation? (It has none here: they are not ranked.)
    assert statements(q["sql"] for q in queries) == [VERIFICATION_SQL, MISS_SQL]


def statements(logged) -> list[str]:
    """Which of the verification statements each logged query (parameters filled in) is."""
    def matches(text, sql):
        pattern = ".*?".join(re.escape(part) for part in re.split(r"%\(\w+\)s", sql))
        return re.fullmatch(pattern, text, re.DOTALL) is not None
    return [next((sql for sql in (VERIFICATION_SQL, MISS_SQL)
                  if matches(text, sql)), text)
            for text in logged]


def hot_statements() -> dict[str, int]:
    """The connection's prepared verification statements, with how often each ran."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
                       " WHERE statement LIKE '%%attestations_attestation%%'")
        return dict(cursor.fetchall())


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="PostgreSQL prepared statements")
def test_the_hot_query_is_a_prepared_statement_of_the_connection(api, chain):
    # Parsed and planned once per connection (core/db.py), then only executed.
    attest(chain)
    assert verify(api)["verified"] is True
    assert verify(api)["verified"] is True

    hot = hot_statements()
    assert len(hot) == 1, hot
    statement, runs = next(iter(hot.items()))
    assert "$1" in statement  # bound by the server, not pasted into the text
    assert runs >= 2


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="PostgreSQL prepared statements")
def test_prepared_statements_can_be_turned_off_for_a_pooler(api, chain, settings):
    settings.DB_PREPARED_STATEMENTS = False
    attest(chain)
    before = hot_statements()
    assert verify(api)["verified"] is True
    assert hot_statements() == before


def test_the_hot_query_uses_the_document_hash_index(chain):
    attest(chain)
    for n in range(50):  # other documents on the same chain: the hash is what narrows
        attest(chain, document_hash="0x" + f"{n:064x}")
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    params = {"document_hash": HASH, "chain_id": None, "now": now}
    plan = query_plan(VERIFICATION_SQL, params)  # a few rows: what the planner could use
    assert "attestation_document_idx" in plan, plan
    # Trust is two index probes: a hashed subplan would read every trusted attester.
    assert "hashed SubPlan" not in plan, plan
    # The index is in the answer's order: the first valid row ends the lookup (SQLite
    # says "USE TEMP B-TREE FOR ORDER BY" when it sorts).
    assert "Sort" not in plan and "ORDER BY" not in plan, plan


# --- Live, without a chain to ask ------------------------------------------------------------


def test_live_without_a_usable_rpc_endpoint_is_a_503(api, chain):
    attest(chain)
    api.raise_request_exception = False  # a 5xx signals got_request_exception, as it should
    body = assert_problem(api.post(URL, {"documentHash": HASH, "live": True}, format="json"),
                          503, "chain_unavailable")
    assert "31337" in body["detail"]


def test_live_with_nothing_indexed_asks_no_chain(api, chain):
    with CaptureQueriesContext(connection) as queries:
        assert verify(api, live=True) == not_verified("not_found")
    assert not any("rpcendpoint" in q["sql"] for q in queries)


def test_the_answer_has_the_documented_shape(api, chain):
    from djangorestframework_camel_case.util import underscoreize

    from verification.serializers import VerifyResponseSerializer

    attest(chain)
    documented = VerifyResponseSerializer(data=underscoreize(verify(api)))
    assert documented.is_valid(), documented.errors
    assert set(verify(api)) == set(NOT_VERIFIED)

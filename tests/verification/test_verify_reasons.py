"""POST /v1/verify says why not (verification/rules.py): each reason through the API, the
precedence among a document's attestations, the chainId narrowing, and the reason's SQL plan
(its answers on a dataset: test_verification_sql.py), on PostgreSQL and SQLite."""

from datetime import timedelta

import pytest
from django.utils import timezone

from registry.models import Chain
from tests.verification.conftest import attest_by_the_executor, indexed_chain, query_plan
from tests.verification.test_verification_sql import (  # noqa: F401 - the dataset fixture
    NOW,
    dataset,
    document,
)
from verification import rules as reasons

pytestmark = pytest.mark.django_db

URL = "/v1/verify"
HASH = "0x" + "5e" * 32
STRANGER = "0x" + "0b" * 20


@pytest.fixture
def chain():
    return indexed_chain(chain_id=31337, short_name="anvil", confirmations=12)


@pytest.fixture
def second_chain():
    return indexed_chain(50, chain_id=31338, short_name="anvil-2", confirmations=1)


def attest(chain, **fields):
    return attest_by_the_executor(chain, **{"document_hash": HASH, **fields})


def reason(api, **body):
    response = api.post(URL, {"documentHash": HASH, **body}, format="json")
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["verified"] is (answer["reason"] is None)
    if not answer["verified"]:  # nothing else is said of a miss but what "final" meant
        assert {key for key, value in answer.items() if value is not None} <= {
            "verified", "reason", "chainStalled", "finality"}
    return answer["reason"]


# --- One reason each -------------------------------------------------------------------------

AN_HOUR = timedelta(hours=1)


@pytest.mark.parametrize(("fields", "expected"), [
    ({}, None),
    ({"revocation_time": "past"}, "revoked"),
    ({"expiration_time": "past"}, "expired"),
    ({"attester": STRANGER}, "untrusted_attester"),
    ({"block_number": 990}, "not_final"),  # 11 of 12 confirmations
])
def test_each_rule_has_its_reason(api, chain, fields, expected):
    fields = {key: timezone.now() - AN_HOUR if value == "past" else value
              for key, value in fields.items()}
    attest(chain, **fields)
    assert reason(api) == expected


def test_a_document_never_attested_is_not_found(api, chain):
    attest(chain, document_hash="0x" + "5f" * 32)
    assert reason(api) == "not_found"


def test_an_attestation_on_an_inactive_chain(api, chain):
    attest(chain)
    chain.set_status(Chain.Status.INACTIVE)
    assert reason(api) == "chain_inactive"


def test_without_an_indexed_head_it_is_not_final(api, chain):
    attest(chain)
    chain.index_cursors.update(head_block=None)
    assert reason(api) == "not_final"


def test_an_executors_revoked_trust_makes_it_untrusted(api, chain):
    attest(chain)
    chain.executors.update(trust_revoked_at=timezone.now())
    assert reason(api) == "untrusted_attester"


# --- One attestation failing several rules: its first failing rule --------------------------


@pytest.mark.parametrize(("fields", "expected"), [
    ({"attester": STRANGER, "revocation_time": "past", "expiration_time": "past",
      "block_number": 999}, "untrusted_attester"),  # a stranger's revocation says nothing
    ({"revocation_time": "past", "expiration_time": "past", "block_number": 999}, "revoked"),
    ({"expiration_time": "past", "block_number": 999}, "expired"),
])
def test_an_attestations_reason_is_its_first_failing_rule(api, chain, fields, expected):
    fields = {key: timezone.now() - AN_HOUR if value == "past" else value
              for key, value in fields.items()}
    attest(chain, **fields)
    assert reason(api) == expected


def test_an_inactive_chain_comes_before_every_other_rule(api, chain):
    attest(chain, attester=STRANGER, revocation_time=timezone.now())
    chain.set_status(Chain.Status.INACTIVE)
    assert reason(api) == "chain_inactive"


# --- Several attestations: the most telling reason ------------------------------------------


def test_the_most_telling_reason_answers_whatever_the_attestations_order(api, chain):
    now = timezone.now()
    # Added from the least telling up, the earliest attestation the least telling each time.
    steps = [
        ({"attester": STRANGER}, "untrusted_attester"),
        ({"expiration_time": now - AN_HOUR}, "expired"),
        ({"revocation_time": now - AN_HOUR}, "revoked"),
        ({"block_number": 995}, "not_final"),
    ]
    for n, (fields, expected) in enumerate(steps):
        attest(chain, time=now - timedelta(days=10 - n), **fields)
        assert reason(api) == expected
    # And a later, less telling one changes nothing.
    attest(chain, time=now, attester=STRANGER)
    assert reason(api) == "not_final"


def test_an_inactive_chains_attestation_tells_less_than_an_untrusted_one(
        api, chain, second_chain):
    attest(second_chain, block_number=40)
    second_chain.set_status(Chain.Status.INACTIVE)
    assert reason(api) == "chain_inactive"
    attest(chain, attester=STRANGER)
    assert reason(api) == "untrusted_attester"


def test_the_order_of_reasons_is_the_documented_precedence():
    assert reasons.REASONS == ("not_found", "invalid_proof", "chain_inactive", "untrusted_attester",
                               "unproven_issuer", "undecodable", "not_timestamped", "expired",
                               "revoked", "not_final")


# --- chainId ---------------------------------------------------------------------------------


def test_chain_id_limits_the_reasons_search_to_that_chain(api, chain, second_chain):
    attest(chain, block_number=995)  # not final on 31337
    attest(second_chain, block_number=40, revocation_time=timezone.now())  # revoked on 31338
    assert reason(api) == "not_final"
    assert reason(api, chainId=31337) == "not_final"
    assert reason(api, chainId=31338) == "revoked"
    assert reason(api, chainId=424242) == "not_found"


def test_a_valid_attestation_elsewhere_does_not_make_a_narrowed_miss_verified(
        api, chain, second_chain):
    attest(chain)
    attest(second_chain, block_number=40, attester=STRANGER)
    assert reason(api) is None
    assert reason(api, chainId=31338) == "untrusted_attester"


def test_verified_has_no_reason_even_beside_failing_attestations(api, chain):
    now = timezone.now()
    attest(chain, time=now - timedelta(days=2), revocation_time=now)
    attest(chain, time=now - timedelta(days=1), block_number=999)
    attest(chain, time=now)
    assert reason(api) is None


# --- live: true ------------------------------------------------------------------------------
# What the chain says of the candidates is in test_verify_e2e.py (revoked, reorganised away,
# not final); here the attestations the policy rules out, which no chain is asked about.


@pytest.mark.parametrize(("fields", "expected"), [
    ({"attester": STRANGER}, "untrusted_attester"),
    ({"expiration_time": "past"}, "expired"),
    ({"document_hash": "0x" + "5f" * 32}, "not_found"),
])
def test_live_gives_the_reason_of_what_it_does_not_ask_the_chain_about(
        api, chain, fields, expected):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    fields = {key: timezone.now() - AN_HOUR if value == "past" else value
              for key, value in fields.items()}
    attest(chain, **fields)
    with CaptureQueriesContext(connection) as queries:
        assert reason(api, live=True) == expected
    assert not any("rpcendpoint" in q["sql"] for q in queries)


def test_live_on_an_inactive_chain(api, chain):
    attest(chain)
    chain.set_status(Chain.Status.INACTIVE)
    assert reason(api, live=True) == "chain_inactive"


def test_the_reason_is_documented_in_the_openapi_schema(anon):
    schema = anon.get("/v1/openapi.json").json()
    field = schema["components"]["schemas"]["VerifyResponse"]["properties"]["reason"]
    assert field["nullable"] is True and "precedence" in field["description"]
    refs = {option["$ref"].rsplit("/", 1)[1] for option in field["oneOf"]}
    assert refs == {"VerifyReasonEnum", "NullEnum"}
    assert schema["components"]["schemas"]["VerifyReasonEnum"]["enum"] == list(reasons.REASONS)


def test_the_reason_sql_reads_the_document_hash_index(dataset):  # noqa: F811
    from verification.sql import MISS_SQL

    params = {"document_hash": document("valid"), "chain_id": None, "now": NOW}
    plan = query_plan(MISS_SQL, params)
    # (The Merkle leaves' index: tests/verification/test_verify_merkle.py.)
    for index in ("attestation_document_idx", "offchain_document_idx"):
        assert index in plan, plan
    assert "hashed SubPlan" not in plan, plan


def test_an_attestation_made_valid_between_the_two_queries_answers_verified(
        chain, monkeypatch):
    from verification import services

    attestation = attest(chain)
    # As if the indexer's new head or an administrator's trust landed after the hot query.
    monkeypatch.setattr(services, "earliest_valid", lambda *args, **kwargs: None)
    answer = services.verify_document(HASH)
    assert answer.verified and answer.reason is None
    assert answer.attestation_id == attestation.uid and answer.confirmations == 101

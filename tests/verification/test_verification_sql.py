"""The verification SQL (verification/sql.py) finds what its ORM reference
(verification.services.verification_query) finds: the same row, or none, for a dataset where
each rule decides some document. Runs on PostgreSQL and on SQLite (scripts/test.sh)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import ExecutorFactory, TrustedAttesterFactory
from tests.verification.conftest import attest_by_the_executor, indexed_chain, query_plan
from verification.services import verification_query
from verification.sql import VERIFICATION_SQL, earliest_valid

pytestmark = pytest.mark.django_db

NOW = timezone.now().replace(microsecond=0)
REVOKED = "0x" + "e2" * 20  # an executor whose trust an administrator revoked
REVOKED_BUT_LISTED = "0x" + "e3" * 20  # the same, also listed as a trusted attester
DEREGISTERED = "0x" + "e4" * 20  # out of service, still trusted
LISTED = "0x" + "a1" * 20  # a trusted attester that is no executor
ELSEWHERE = "0x" + "e5" * 20  # an executor of another chain only
UNKNOWN = "0x" + "0b" * 20


def document(name: str) -> str:
    return "0x" + name.encode().hex().ljust(64, "0")


# Each document and whether it verifies at NOW on any chain: the comparison below must not
# pass for want of rows.
EXPECTED = {
    "valid": True,
    "revoked": False,
    "expired": False,
    "expires at now": False,
    "expires later": True,
    "unknown attester": False,
    "trust revoked": False,
    "trust revoked but listed": False,
    "listed attester": True,
    "deregistered executor": True,
    "executor of another chain": False,
    "one confirmation short": False,
    "just final": True,
    "head unknown, none needed": True,
    "past the head, none needed": True,
    "inactive chain": False,
    "data not as its schema says": False,
    "earliest wins": True,
    "never attested": False,
}


@pytest.fixture
def dataset():
    main = indexed_chain(chain_id=31337, short_name="anvil", confirmations=12)
    other = indexed_chain(chain_id=10, short_name="optimism", confirmations=12)
    unindexed = indexed_chain(None, chain_id=777, short_name="unindexed", confirmations=0)
    eager = indexed_chain(chain_id=778, short_name="eager", confirmations=0)
    inactive = indexed_chain(chain_id=5, short_name="goerli", status="inactive", confirmations=0)
    ExecutorFactory(chain=main, address=REVOKED, trust_revoked_at=NOW - timedelta(days=1))
    ExecutorFactory(chain=main, address=REVOKED_BUT_LISTED, trust_revoked_at=NOW)
    TrustedAttesterFactory(chain=main, address=REVOKED_BUT_LISTED)
    ExecutorFactory(chain=main, address=DEREGISTERED, status="deregistered")
    TrustedAttesterFactory(chain=main, address=LISTED)
    ExecutorFactory(chain=other, address=ELSEWHERE)

    def attest(name, chain=main, **fields):
        fields = {"time": NOW - timedelta(days=1), **fields}
        return attest_by_the_executor(chain, document_hash=document(name), **fields)

    attest("valid")
    attest("revoked", revocation_time=NOW - timedelta(hours=1))
    attest("expired", expiration_time=NOW - timedelta(seconds=1))
    attest("expires at now", expiration_time=NOW)
    attest("expires later", expiration_time=NOW + timedelta(hours=1))
    attest("unknown attester", attester=UNKNOWN)
    attest("trust revoked", attester=REVOKED)
    attest("trust revoked but listed", attester=REVOKED_BUT_LISTED)
    attest("listed attester", attester=LISTED)
    attest("deregistered executor", attester=DEREGISTERED)
    attest("executor of another chain", attester=ELSEWHERE)
    attest("one confirmation short", block_number=990)  # 11 of 12
    attest("just final", block_number=989)  # 12 of 12
    attest("head unknown, none needed", chain=unindexed)  # no cursor: 0 of 0
    attest("past the head, none needed", chain=eager, block_number=1005)  # 0 of 0
    attest("inactive chain", chain=inactive)
    attest("data not as its schema says", undecodable=True)
    # Earliest wins: an earlier invalid one, then a tie in time broken by chain, block, log.
    t = NOW - timedelta(days=2)
    attest("earliest wins", time=t - timedelta(seconds=1), revocation_time=NOW)
    attest("earliest wins", time=t - timedelta(seconds=1), undecodable=True)
    attest("earliest wins", chain=main, time=t, block_number=901, log_index=1)
    attest("earliest wins", chain=main, time=t, block_number=900, log_index=7)
    attest("earliest wins", chain=main, time=t, block_number=900, log_index=6)
    attest("earliest wins", chain=other, time=t)
    attest("earliest wins", chain=other, time=t - timedelta(seconds=1), block_number=995)
    attest("earliest wins", chain=eager, time=t + timedelta(seconds=1))
    return {"chains": [None, main.pk, other.pk, unindexed.pk, eager.pk, inactive.pk, 999]}


def orm_row(document_hash, chain_id, now):
    rows = list(verification_query(document_hash, chain_id=chain_id, now=now))
    return rows[0] if rows else None


@pytest.mark.parametrize("now", [NOW, NOW + timedelta(hours=2), NOW - timedelta(days=3)],
                         ids=["now", "later", "before-everything"])
def test_the_sql_finds_the_row_its_orm_reference_finds(dataset, now):
    found = {}
    for name in EXPECTED:
        for chain_id in dataset["chains"]:
            expected = orm_row(document(name), chain_id, now)
            assert earliest_valid(document(name), chain_id=chain_id, now=now) == expected, (
                name, chain_id)
            found[name, chain_id] = expected
    if now == NOW:
        assert {name: found[name, None] is not None for name in EXPECTED} == EXPECTED
        # The chain filter decides, and the tie breaks by chain id, then block, then log.
        earliest = {chain_id: found["earliest wins", chain_id] for chain_id in (None, 10, 31337)}
        assert earliest[None] == earliest[10]
        assert (earliest[31337][2], earliest[31337][6]) == (31337, 900)


def test_the_sql_uses_the_document_hash_index_in_its_order(dataset):
    params = {"document_hash": document("valid"), "chain_id": None, "now": NOW}
    plan = query_plan(VERIFICATION_SQL, params)
    assert "attestation_document_idx" in plan, plan
    assert "hashed SubPlan" not in plan, plan
    assert "Sort" not in plan and "ORDER BY" not in plan, plan

"""The verification SQL (verification/sql.py, built from verification/rules.py) held against a
dataset where each rule decides some document: the hot statement finds a valid row exactly
where the rules say, and the reason's statement ranks each document by its first failing
rule. Runs on PostgreSQL and on SQLite (scripts/test.sh)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from issuers.models import Issuer, IssuerAddress
from tests.factories import ExecutorFactory, TrustedAttesterFactory
from tests.verification.conftest import (
    EXECUTOR,
    attest_by_the_executor,
    indexed_chain,
    query_plan,
)
from verification import rules
from verification.sql import VERIFICATION_SQL, earliest_valid, most_telling

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


# Each document's reason at NOW on any chain (None: it verifies; `not_found`: no row): the
# comparisons below must not pass for want of rows.
REASONS = {
    "valid": None,
    "revoked": rules.REVOKED,
    "expired": rules.EXPIRED,
    "expires at now": rules.EXPIRED,
    "expires later": None,
    "unknown attester": rules.UNTRUSTED_ATTESTER,
    "trust revoked": rules.UNTRUSTED_ATTESTER,
    "trust revoked but listed": rules.UNTRUSTED_ATTESTER,
    "listed attester": None,
    "deregistered executor": None,
    "executor of another chain": rules.UNTRUSTED_ATTESTER,
    "one confirmation short": rules.NOT_FINAL,
    "just final": None,
    "head unknown, none needed": None,
    "past the head, none needed": None,
    "inactive chain": rules.CHAIN_INACTIVE,
    "data not as its schema says": rules.UNDECODABLE,
    "earliest wins": None,
    "never attested": rules.NOT_FOUND,
}
EXPECTED = {name: reason is None for name, reason in REASONS.items()}
# The same later (one expiry passed) and before everything (none has expired yet), and now
# where a proven issuer is required (VERIFY_REQUIRE_PROVEN_ISSUER): the executor's issuer is
# proven on every chain, the listed attester has none, the deregistered executor's lapsed.
AT = {"now": (NOW, REASONS),
      "later": (NOW + timedelta(hours=2), {**REASONS, "expires later": rules.EXPIRED}),
      "before-everything": (NOW - timedelta(days=3),
                            {**REASONS, "expired": None, "expires at now": None}),
      "proven issuer required": (NOW, {**REASONS, "listed attester": rules.UNPROVEN_ISSUER,
                                       "deregistered executor": rules.UNPROVEN_ISSUER})}
# Where each document's attestations are, when not on the main chain only.
HOME = {"head unknown, none needed": 777, "past the head, none needed": 778,
        "inactive chain": 5, "earliest wins": None, "never attested": None}


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
    # Issuers (for the proven-issuer rule): the executor's proven wherever it attests, the
    # deregistered executor's lapsed.
    proven = Issuer.objects.create(name="Proven", domain="proven.example")
    for chain in (main, other, unindexed, eager, inactive):
        IssuerAddress.objects.create(issuer=proven, chain=chain, address=EXECUTOR,
                                     identity="proven")
    lapsed = Issuer.objects.create(name="Lapsed", domain="lapsed.example", identity="lapsed")
    IssuerAddress.objects.create(issuer=lapsed, chain=main, address=DEREGISTERED,
                                 identity="lapsed")

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


def rank_of(reason):
    return rules.VALID if reason is None else rules.RANK[reason]


@pytest.mark.parametrize("at", list(AT))
def test_the_sql_answers_each_document_as_the_rules_say(dataset, at, settings):
    now, reasons = AT[at]
    settings.VERIFY_REQUIRE_PROVEN_ISSUER = at == "proven issuer required"
    for name, reason in reasons.items():
        row = earliest_valid(document(name), chain_id=None, now=now)
        assert (row is not None) is (reason is None), name
        best, has_offchain, asked = most_telling(document(name), chain_id=None, now=now)
        assert asked == (None, None, False), name  # no chain asked: no chain's finality
        assert not has_offchain and (best is None) is (reason == rules.NOT_FOUND), name
        if best is not None:
            assert best.rank == rank_of(reason) and best.root is None, name
            if row is not None:  # the hot statement's row is the reason's valid one
                assert row == best, name
        # The chain filter narrows: only the document's chain answers as any chain does.
        home = HOME.get(name, 31337)
        for chain_id in dataset["chains"][1:]:
            narrowed = earliest_valid(document(name), chain_id=chain_id, now=now)
            if home is not None:
                assert narrowed == (row if chain_id == home else None), (name, chain_id)
            elif narrowed is not None:
                assert narrowed.chain_id == chain_id, (name, chain_id)
    assert {rank_of(reason) for _, each in AT.values() for reason in each.values()} >= {
        rules.VALID, *(rule.rank for rule in rules.RULES if rule.fails is not None)}


def test_the_earliest_valid_row_answers_and_ties_break_by_chain_block_log(dataset):
    earliest = {chain_id: earliest_valid(document("earliest wins"), chain_id=chain_id, now=NOW)
                for chain_id in (None, 10, 31337, 778)}
    t = NOW - timedelta(days=2)
    # The earlier ones are revoked, undecodable, or short of confirmations (block 995).
    assert earliest[None] == earliest[10] and (earliest[10].time, earliest[10].block_number) == (
        t, 900)
    assert (earliest[31337].time, earliest[31337].block_number,
            earliest[31337].log_index) == (t, 900, 6)
    assert earliest[778].time == t + timedelta(seconds=1)


def test_requiring_a_proven_issuer_probes_the_issuers_unique_index(dataset, settings):
    settings.VERIFY_REQUIRE_PROVEN_ISSUER = True
    params = {"document_hash": document("valid"), "chain_id": None, "now": NOW}
    plan = query_plan(VERIFICATION_SQL, params)
    # The unique index of (chain, address): PostgreSQL names it, SQLite its own autoindex.
    assert "attestation_document_idx" in plan, plan
    assert re.search(r"unique_issuer_address|autoindex_issuers_issueraddress", plan), plan
    assert "hashed SubPlan" not in plan and "Sort" not in plan, plan


def test_the_sql_uses_the_document_hash_index_in_its_order(dataset):
    params = {"document_hash": document("valid"), "chain_id": None, "now": NOW}
    plan = query_plan(VERIFICATION_SQL, params)
    assert "attestation_document_idx" in plan, plan
    assert "hashed SubPlan" not in plan, plan
    assert "Sort" not in plan and "ORDER BY" not in plan, plan


def test_every_statement_is_built_from_every_rule():
    from verification import sql

    on_chain = [sql.VERIFICATION_SQL, sql.MISS_SQL, sql.MERKLE_ROOT_SQL, sql.RANKED_SQL,
                *sql.BATCH_SQL.values()]
    for rule in rules.RULES:
        for statement in on_chain:
            assert rule.fails is None or rule.fails in statement, (rule.reason, statement)
        for statement in sql.OFFCHAIN_SQL.values():
            assert rule.offchain is None or rule.offchain in statement, rule.reason
    assert rules.TRUSTED in sql.OFFCHAIN_SQL["postgresql"]  # one trust rule for both kinds

"""Who issued what: the issuer of an attester address, for the verdicts.

A verification is one indexed statement (verification/sql.py); naming the issuer must not
add a second to each. The issuers' addresses are few (one row per attester an
administrator names) and change rarely, so each process keeps them in memory and reads them
again when they changed: at most once per IDENTITY_MEMO_SECONDS it asks whether they did
(their count and latest change, one small query). A check that lapses an identity is seen
by every process within that bound. Saving through this process forgets the memo at once.
"""

import time
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Max

from issuers.models import Issuer, IssuerAddress


@dataclass(frozen=True)
class NamedIssuer:
    """The `issuer` of a verdict: the issuer of the attester, as to this address."""

    name: str
    domain: str
    identity: str
    proofs: tuple  # ({"method", "checked_at"}, ...)


_memo: tuple | None = None  # (asked at, stamp, {(chain_id, address): NamedIssuer})


def forget() -> None:
    global _memo
    _memo = None


def _stamp() -> tuple:
    found = Issuer.objects.aggregate(count=Count("id"), last=Max("updated_at"))
    return found["count"], found["last"], IssuerAddress.objects.count()


def _read() -> dict:
    global _memo
    now, memo, seconds = time.monotonic(), _memo, settings.IDENTITY_MEMO_SECONDS
    if memo is not None and now - memo[0] < seconds:
        return memo[2]
    stamp = _stamp()
    if memo is not None and stamp == memo[1]:
        _memo = (now, stamp, memo[2])
        return memo[2]
    rows = IssuerAddress.objects.select_related("issuer")
    found = {(r.chain_id, r.address): NamedIssuer(r.issuer.name, r.issuer.domain, r.identity,
                                                   tuple(r.proofs()))
             for r in rows}
    _memo = (now, stamp, found)
    return found


def issuer_of(chain_id: int, address: str) -> NamedIssuer | None:
    """The issuer that stands behind `address` on `chain_id`, or None."""
    return _read().get((chain_id, address.lower()))

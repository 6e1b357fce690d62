"""The identity check of an issuer: read what its domain says (DNS TXT, did:web), judge
each of its addresses, keep every check and move the identities.

The network is read first, outside any transaction; the outcome is written in one
transaction that locks the issuer, so two checks at once write one after the other.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core import events
from issuers import directory
from issuers.claims import clip, judge, txt_claim
from issuers.did_web import did_document, did_url
from issuers.dns_txt import txt_records
from issuers.models import Identity, IdentityCheck, Issuer, IssuerAddress, ProofMethod

LAPSED_EVENT = "issuer.identity_lapsed"


@dataclass(frozen=True)
class _Read:
    """What the domain said, by method: (claims, seen, error, dnssec)."""

    dns: tuple
    did_web: tuple


def _read(domain: str) -> _Read:
    txt = txt_records(domain)
    dns = ([c for c in map(txt_claim, txt.records) if c],
           clip("\n".join(txt.records), 2000), txt.error, txt.dnssec)
    did = did_document(domain)
    return _Read(dns, (did.claims, did.seen, did.error, None))


def _checks(issuer: Issuer, row: IssuerAddress, read: _Read, now) -> list[IdentityCheck]:
    found = []
    for method, (claims, seen, error, dnssec) in (
            (ProofMethod.DNS, read.dns), (ProofMethod.DID_WEB, read.did_web)):
        where = (f"a TXT record of {issuer.domain}" if method == ProofMethod.DNS
                 else did_url(issuer.domain))
        proven, reason = (False, error) if error else judge(
            claims, row.chain_id, row.address, where)
        if proven and method == ProofMethod.DNS and not dnssec:
            reason += "; not DNSSEC-authenticated by the resolver"
        found.append(IdentityCheck(
            issuer=issuer, chain_id=row.chain_id, address=row.address, method=method,
            proven=proven, reason=clip(reason, 500), seen=seen, dnssec=dnssec, checked_at=now))
    return found


def summary(identities: list[str]) -> str:
    """The issuer's identity from its addresses': proven when all are, lapsed when one
    lapsed, else unproven (no address: nothing is proven)."""
    if identities and all(i == Identity.PROVEN for i in identities):
        return Identity.PROVEN
    return Identity.LAPSED if Identity.LAPSED in identities else Identity.UNPROVEN


def issuer_check(*, issuer_id: int) -> Issuer | None:
    """Check the issuer's proofs now; None when it no longer exists."""
    issuer = Issuer.objects.filter(pk=issuer_id).first()
    if issuer is None:
        return None
    read = _read(issuer.domain)  # the network, before any lock
    now = timezone.now()
    with transaction.atomic():
        issuer = Issuer.objects.select_for_update().filter(pk=issuer_id).first()
        if issuer is None:
            return None
        rows = list(issuer.addresses.select_for_update())
        checks = []
        for row in rows:
            found = _checks(issuer, row, read, now)
            checks += found
            proven = {c.method: c.checked_at for c in found if c.proven}
            row.dns_proven_at = proven.get(ProofMethod.DNS)
            row.did_web_proven_at = proven.get(ProofMethod.DID_WEB)
            row.identity = (Identity.PROVEN if proven else Identity.UNPROVEN
                            if row.identity == Identity.UNPROVEN else Identity.LAPSED)
        IssuerAddress.objects.bulk_update(
            rows, ["identity", "dns_proven_at", "did_web_proven_at"])
        IdentityCheck.objects.bulk_create(checks)
        before, issuer.identity = issuer.identity, summary([r.identity for r in rows])
        issuer.checked_at = now
        issuer.save(update_fields=["identity", "checked_at", "updated_at"])
        if issuer.identity == Identity.LAPSED and before != Identity.LAPSED:
            _emit_lapsed(issuer, rows, checks, now)
    directory.forget()
    return issuer


def _emit_lapsed(issuer: Issuer, rows: list[IssuerAddress], checks, now) -> None:
    lapsed = [r for r in rows if r.identity == Identity.LAPSED]
    events.emit(LAPSED_EVENT, {
        "issuerId": issuer.pk, "name": issuer.name, "domain": issuer.domain,
        "identity": issuer.identity,
        "addresses": [{"chainId": r.chain_id, "address": r.address,
                       "reasons": [c.reason for c in checks
                                   if (c.chain_id, c.address) == (r.chain_id, r.address)]}
                      for r in lapsed],
    }, occurred_at=now)


def due_issuer_ids(now=None) -> list[int]:
    """The issuers whose last check is older than IDENTITY_CHECK_INTERVAL_SECONDS (or that
    were never checked), oldest first."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.IDENTITY_CHECK_INTERVAL_SECONDS)
    return list(Issuer.objects.filter(checked_at__isnull=True).values_list("pk", flat=True)) + \
        list(Issuer.objects.filter(checked_at__lt=cutoff).order_by("checked_at")
             .values_list("pk", flat=True))


"""Issuers: the organisations behind attester addresses, and the checks that prove it.

An issuer is a display name and a domain; the attester addresses it stands behind are its
`IssuerAddress` rows (chain, address). Whether the domain really stands behind an address is
proven by the domain itself (issuers/proofs.py): a DNS TXT record or a did:web document
naming `eip155:<chainId>:<address>`. Every check is kept (`IdentityCheck`); each address
keeps when each method last proved it, so that a verdict reads the issuer in one join.

An address is `proven` while at least one method proved it at its latest check, `lapsed`
once it was proven and no method proves it any more, `unproven` before it ever was. The
issuer's own `identity` sums up its addresses (issuers/services.py).
"""

from django.db import models
from django.utils import timezone

from core.validators import validate_address
from registry.models import Chain


class Identity(models.TextChoices):
    PROVEN = "proven"
    LAPSED = "lapsed"
    UNPROVEN = "unproven"


class ProofMethod(models.TextChoices):
    DNS = "dns", "DNS TXT"
    DID_WEB = "did_web", "did:web"


class Issuer(models.Model):
    name = models.CharField(max_length=200, help_text="The organisation's display name.")
    domain = models.CharField(
        max_length=253, unique=True,
        help_text="The domain whose DNS TXT records or /.well-known/did.json prove the "
        "addresses (lowercase, no scheme, no port).")
    identity = models.CharField(
        max_length=10, choices=Identity.choices, default=Identity.UNPROVEN,
        help_text="proven: every address is proven by at least one method at its latest "
        "check; lapsed: a proof that held is gone; unproven: never proven.")
    checked_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When its proofs were last checked.")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["checked_at"], name="issuer_checked_idx")]

    def __str__(self):
        return f"{self.name} ({self.domain})"


class IssuerAddress(models.Model):
    """An attester address an issuer stands behind on a chain (a trusted attester's or an
    executor's): one issuer per address and chain."""

    issuer = models.ForeignKey(Issuer, on_delete=models.CASCADE, related_name="addresses")
    chain = models.ForeignKey(Chain, on_delete=models.CASCADE, related_name="issuer_addresses")
    address = models.CharField(max_length=42, validators=[validate_address])
    identity = models.CharField(max_length=10, choices=Identity.choices,
                                default=Identity.UNPROVEN)
    # When each method proved it at the latest check (null: it did not).
    dns_proven_at = models.DateTimeField(null=True, blank=True)
    did_web_proven_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["chain_id", "address"]
        constraints = [
            models.UniqueConstraint(fields=["chain", "address"], name="unique_issuer_address"),
        ]

    def __str__(self):
        return f"{self.address} on {self.chain_id}"

    def proofs(self) -> list[dict]:
        """The methods that prove it now, with when they did (the verdict's `proofs`)."""
        found = [(ProofMethod.DNS, self.dns_proven_at),
                 (ProofMethod.DID_WEB, self.did_web_proven_at)]
        return [{"method": str(method), "checked_at": at} for method, at in found if at]


class IdentityCheck(models.Model):
    """One check of one method for one of an issuer's addresses: what was seen and why it
    did or did not prove the address."""

    issuer = models.ForeignKey(Issuer, on_delete=models.CASCADE, related_name="checks")
    chain_id = models.BigIntegerField()
    address = models.CharField(max_length=42)
    method = models.CharField(max_length=10, choices=ProofMethod.choices)
    proven = models.BooleanField()
    reason = models.CharField(max_length=500, help_text="Why it proves the address, or not.")
    seen = models.TextField(blank=True, help_text="What the method read (clipped).")
    dnssec = models.BooleanField(
        null=True, blank=True,
        help_text="DNS: whether the resolver said the answer was authenticated (AD flag).")
    checked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-checked_at", "-id"]
        indexes = [models.Index(fields=["issuer", "-checked_at"], name="identity_check_idx")]

    def __str__(self):
        return f"{self.method} {self.address}: {'proven' if self.proven else self.reason}"

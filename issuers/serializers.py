"""The issuer's wire shapes: the admin API's (issuers/api/) and the verdicts' `issuer`
(verification), at the app's top so that the Django admin and the verification use them."""

import ipaddress
import re

from django.db import transaction
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.fields import AddressField
from core.serializers import StrictModelSerializer
from issuers import directory
from issuers.models import Identity, IdentityCheck, Issuer, IssuerAddress, ProofMethod
from registry.serializers import ChainRefField

_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
MAX_ADDRESSES = 100


def validate_domain(value: str) -> str:
    """A DNS name, lowercase, no scheme, port, path or trailing dot; not an IP address."""
    domain = value.strip().rstrip(".").lower()
    try:
        ipaddress.ip_address(domain.strip("[]"))
    except ValueError:
        pass
    else:
        raise serializers.ValidationError("Enter a domain name, not an IP address.")
    if len(domain) > 253 or not all(_LABEL.match(label) for label in domain.split(".")):
        raise serializers.ValidationError(
            "Enter a domain name (example.edu): letters, digits and hyphens, no scheme, port "
            "or path.")
    return domain


_PROOFS_SCHEMA = {
    "type": "array", "items": {
        "type": "object",
        "properties": {"method": {"type": "string", "enum": ProofMethod.values},
                       "checkedAt": {"type": "string", "format": "date-time"}},
        "required": ["method", "checkedAt"]},
    "description": "The methods that proved the address at its latest check, and when.",
}


@extend_schema_field(_PROOFS_SCHEMA)
class ProofsField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(read_only=True, source="*", **kwargs)

    def to_representation(self, value):
        return wire_proofs(value.proofs())


def wire_proofs(proofs: list[dict]) -> list[dict]:
    return [{"method": p["method"],
             "checkedAt": serializers.DateTimeField().to_representation(p["checked_at"])}
            for p in proofs]


class IssuerAddressSerializer(StrictModelSerializer):
    chain_id = ChainRefField(source="chain")
    address = AddressField()
    proofs = ProofsField()

    class Meta:
        model = IssuerAddress
        fields = ["chain_id", "address", "identity", "proofs"]
        read_only_fields = ["identity"]
        validators = []  # the issuer's serializer names a taken address


class IssuerSerializer(StrictModelSerializer):
    domain = serializers.CharField(max_length=260, validators=[validate_domain],
                                   help_text=Issuer._meta.get_field("domain").help_text)
    addresses = IssuerAddressSerializer(
        many=True, required=False, max_length=MAX_ADDRESSES,
        help_text="The attester addresses it stands behind, per chain. Given on a PATCH, "
        "the list replaces the previous one (an address kept keeps its proofs).")

    class Meta:
        model = Issuer
        fields = ["id", "name", "domain", "identity", "checked_at", "addresses", "created_at",
                  "updated_at"]
        read_only_fields = ["identity", "checked_at", "created_at", "updated_at"]
        validators = []

    def validate_domain(self, value):
        value = validate_domain(value)
        taken = Issuer.objects.filter(domain=value)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError("An issuer with this domain exists.", code="unique")
        return value

    def validate_addresses(self, value):
        pairs = [(a["chain"].pk, a["address"]) for a in value]
        if len(set(pairs)) != len(pairs):
            raise serializers.ValidationError("An address is listed twice for one chain.")
        taken = IssuerAddress.objects.none()
        for chain_id, address in pairs:
            taken |= IssuerAddress.objects.filter(chain_id=chain_id, address=address)
        if self.instance is not None:
            taken = taken.exclude(issuer=self.instance)
        first = taken.select_related("issuer").first()
        if first is not None:
            raise serializers.ValidationError(
                f"{first.address} on chain {first.chain_id} belongs to issuer "
                f"{first.issuer.domain}.", code="unique")
        return value

    @transaction.atomic
    def create(self, validated_data):
        addresses = validated_data.pop("addresses", [])
        issuer = Issuer.objects.create(**validated_data)
        _set_addresses(issuer, addresses)
        directory.forget()
        return issuer

    @transaction.atomic
    def update(self, instance, validated_data):
        addresses = validated_data.pop("addresses", None)
        issuer = super().update(instance, validated_data)
        if addresses is not None:
            _set_addresses(issuer, addresses)
        directory.forget()
        return issuer


def _set_addresses(issuer: Issuer, wanted: list[dict]) -> None:
    """Make the issuer's addresses `wanted`: the ones kept keep their identity and proofs."""
    pairs = {(a["chain"].pk, a["address"]) for a in wanted}
    current = {(r.chain_id, r.address): r for r in issuer.addresses.all()}
    IssuerAddress.objects.filter(pk__in=[r.pk for k, r in current.items() if k not in pairs]
                                 ).delete()
    IssuerAddress.objects.bulk_create(
        IssuerAddress(issuer=issuer, chain_id=c, address=a)
        for c, a in sorted(pairs - current.keys()))


class IdentityCheckSerializer(serializers.ModelSerializer):
    class Meta:
        model = IdentityCheck
        fields = ["id", "checked_at", "method", "chain_id", "address", "proven", "reason",
                  "seen", "dnssec"]


_VERDICT_ISSUER_SCHEMA = {
    "type": "object", "nullable": True, "required": ["name", "domain", "identity", "proofs"],
    "properties": {
        "name": {"type": "string", "description": "The issuer's display name (set by an "
                 "administrator, not by the executor)."},
        "domain": {"type": "string", "description": "The domain that proves it."},
        "identity": {"type": "string", "enum": Identity.values, "description":
                     "Whether the domain proves this attester address now: proven (a DNS TXT "
                     "record or the did:web document of the domain names it), lapsed (it "
                     "did, no longer), unproven (never did)."},
        "proofs": _PROOFS_SCHEMA,
    },
    "description": "The issuer of the attester that made the attestation (an organisation an "
    "administrator registered, with the domain that proves it), or null: none, or not "
    "verified.",
}


@extend_schema_field(_VERDICT_ISSUER_SCHEMA)
class VerdictIssuerField(serializers.Field):
    """A verdict's `issuer` (issuers.directory.NamedIssuer), written as plain JSON."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, allow_null=True, **kwargs)

    def to_representation(self, value):
        return {"name": value.name, "domain": value.domain, "identity": value.identity,
                "proofs": wire_proofs(value.proofs)}

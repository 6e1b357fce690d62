from django.db import models

from core.validators import validate_address, validate_semver
from registry import abi
from registry.models.chains import Chain


class Category(models.Model):
    """A label that groups contract names (tokens, attestations, bridges, ...)."""

    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["slug"]
        verbose_name_plural = "categories"

    def __str__(self):
        return self.name


class ContractName(models.Model):
    """A base contract configuration: what a contract is, across its versions."""

    name = models.SlugField(max_length=100, unique=True)
    display_name = models.CharField(max_length=200, blank=True)
    category = models.ForeignKey(
        Category, on_delete=models.PROTECT, related_name="contract_names", null=True, blank=True
    )
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.display_name or self.name


class ContractVersion(models.Model):
    """One version of a contract and its ABI. The ABI never changes: a new ABI is a new version."""

    contract_name = models.ForeignKey(ContractName, on_delete=models.PROTECT, related_name="versions")
    version = models.CharField(
        max_length=64, validators=[validate_semver], help_text="Semantic version, e.g. 1.4.0"
    )
    abi = models.JSONField()
    compiler_version = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["contract_name__name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["contract_name", "version"], name="unique_version_per_contract"
            ),
        ]

    def __str__(self):
        return f"{self.contract_name.name}@{self.version}"

    def interface(self) -> dict:
        """Functions, events and errors of the ABI with their selectors and topics."""
        return abi.describe(self.abi)


class Deployment(models.Model):
    """A contract version deployed at an address on a chain."""

    class Kind(models.TextChoices):
        EAS = "eas", "EAS"
        SCHEMA_REGISTRY = "schema_registry", "Schema registry"
        OTHER = "other", "Other"

    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="deployments")
    contract_version = models.ForeignKey(
        ContractVersion, on_delete=models.PROTECT, related_name="deployments"
    )
    address = models.CharField(max_length=42, validators=[validate_address],
                               help_text="0x + 40 hex digits (EIP-55 checksum when mixed case)")
    start_block = models.PositiveBigIntegerField(default=0, help_text="Block to index from.")
    tx_hash = models.CharField(max_length=66, null=True, blank=True, help_text="Deploying transaction, if known.")
    kind = models.CharField(max_length=32, choices=Kind.choices, default=Kind.OTHER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["chain_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["chain", "address"], name="unique_deployment_address"),
        ]
        indexes = [models.Index(fields=["kind", "chain"])]

    def __str__(self):
        return f"{self.contract_version} on {self.chain_id} at {self.address}"

    def clean(self):
        self.address = self.address.lower()  # after the field's validator: stored lowercase

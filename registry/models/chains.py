from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.utils import timezone

from core import events
from core.errors import NotFound
from core.validators import MAX_CHAIN_ID

# The fields import_chains takes from a chain list (ethereum-lists): their provenance is
# kept, so that an import never overwrites what an administrator set (docs/decisions.md).
LISTED_FIELDS = ("name", "short_name", "currency_name", "currency_symbol", "currency_decimals",
                 "explorer_url", "info_url", "is_testnet")


def all_listed_fields() -> list[str]:
    """A chain registered by hand: an administrator set every listed field (the default)."""
    return list(LISTED_FIELDS)


class ChainQuerySet(models.QuerySet):
    def by_ref(self, ref: str) -> "Chain":
        """The chain named by `ref`: its chain id ("31337") or its short name ("anvil").

        Raises Chain.DoesNotExist. Short names are never all digits, so this is unambiguous.
        """
        if ref.isascii() and ref.isdigit():
            return self.get(pk=int(ref)) if int(ref) <= MAX_CHAIN_ID else self.none().get()
        return self.get(short_name=ref)

    def registered(self, ref: str, missing: type[Exception] = NotFound) -> "Chain":
        """`by_ref(ref)`, a chain that is not registered raised as `missing` (a 404 by
        default; a management command passes CommandError)."""
        try:
            return self.by_ref(ref)
        except self.model.DoesNotExist:
            raise missing(f"No chain {ref!r} is registered.") from None


class Chain(models.Model):
    """A blockchain network, identified by its EIP-155 chain id (the primary key)."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        INACTIVE = "inactive"

    class BindingMode(models.TextChoices):
        """How executors bind a claimed batch of documents on this chain (bindings/modes.py)."""

        SINGLE = "single"  # one EAS attest transaction per document
        MULTI = "multi"  # one multiAttest transaction per claimed batch
        MERKLE = "merkle"  # one attestation of the Merkle root of the batch's documents

    class Finality(models.TextChoices):
        """When a record on this chain counts as final (docs/decisions.md "Finality")."""

        CONFIRMATIONS = "confirmations"  # `confirmations` blocks on top of it, its own included
        SAFE = "safe"  # at or below the node's `safe` block
        FINALIZED = "finalized"  # at or below the node's `finalized` block

    class ExecutorTrust(models.TextChoices):
        """Whether a newly registered executor is trusted here (docs/security.md)."""

        APPROVAL = "approval"  # untrusted until an administrator approves it (or an allow-list)
        AUTOMATIC = "automatic"  # trusted once it proved its address (a deliberate choice)

    class Source(models.TextChoices):
        ADMIN = "admin"  # registered by an administrator (admin API, Django admin, a script)
        IMPORT = "import"  # created by import_chains from a chain list

    chain_id = models.PositiveBigIntegerField(primary_key=True, verbose_name="chain id")
    name = models.CharField(max_length=200)
    short_name = models.SlugField(max_length=64, unique=True)
    currency_name = models.CharField(max_length=100, default="Ether")
    currency_symbol = models.CharField(max_length=16, default="ETH")
    currency_decimals = models.PositiveSmallIntegerField(default=18)
    explorer_url = models.URLField(max_length=500, blank=True)
    info_url = models.URLField(max_length=500, blank=True)
    is_testnet = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    confirmations = models.PositiveIntegerField(
        default=12, help_text="Blocks on top of a record before it counts as final."
    )
    finality = models.CharField(
        max_length=16, choices=Finality.choices, default=Finality.CONFIRMATIONS,
        db_default=Finality.CONFIRMATIONS,
        help_text="When a record counts as final: `confirmations` (that many blocks on top "
        "of it), `safe` or `finalized` (at or below the node's block of that tag).")
    stall_blocks = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(1_000_000)],
        help_text="No new head for this many block times (or the finality block not "
        "advancing for as long past its usual lag): the chain is stalled. Empty: the "
        "service's default (CHAIN_STALL_BLOCKS).")
    offchain_unanchored = models.BooleanField(
        default=False, db_default=False,
        help_text="Offchain attestations on this chain verify without an on-chain timestamp "
        "of their uid (default: only timestamped ones do; the signed time is the attester's "
        "claim).")
    binding_mode = models.CharField(
        max_length=8, choices=BindingMode.choices, default=BindingMode.SINGLE,
        db_default=BindingMode.SINGLE,
        help_text="How executors bind documents here: `single` (an attest transaction per "
        "document), `multi` (a multiAttest per claimed batch), `merkle` (an attestation of "
        "the Merkle root of each claimed batch).")
    source = models.CharField(
        max_length=8, choices=Source.choices, default=Source.ADMIN, editable=False,
        help_text="Who registered the chain: an administrator, or import_chains.")
    edited_fields = models.JSONField(
        default=all_listed_fields, editable=False,
        help_text="The chain-list fields an administrator set or edited: import_chains leaves "
        "them as they are (unless --overwrite).")
    # The executors' fee policy (executor_client; docs/decisions.md, "Executors' transactions").
    # They learn it from each heartbeat's answer, so a change reaches them within one interval.
    max_fee_per_gas_cap = models.PositiveBigIntegerField(
        null=True, blank=True, verbose_name="max fee per gas cap",
        validators=[MinValueValidator(1)],
        help_text="The most an executor offers per gas here, in wei (1 gwei = 10^9 wei): "
        "above it, it holds (blocked_by_fees) until fees fall. Empty: no cap.")
    replace_after_blocks = models.PositiveIntegerField(
        default=3, db_default=3, validators=[MinValueValidator(1), MaxValueValidator(10_000)],
        help_text="Blocks an executor waits for its transaction to be mined before it "
        "replaces it with higher fees.")
    low_funds_batches = models.PositiveIntegerField(
        default=10, db_default=10, validators=[MaxValueValidator(1_000_000)],
        help_text="An executor whose balance pays for fewer batches than this at the current "
        "fees reports low_funds (0: never).")
    # Who may attest here (executors/trust.py, docs/security.md).
    executor_trust = models.CharField(
        max_length=16, choices=ExecutorTrust.choices, default=ExecutorTrust.APPROVAL,
        db_default=ExecutorTrust.APPROVAL,
        help_text="`approval`: a new executor is untrusted (its attestations do not verify) "
        "until an administrator approves it, unless its key's allow-list names its address; "
        "`automatic`: an executor is trusted once it proved it holds its address's key.")
    untrusted_executor_jobs = models.BooleanField(
        default=False, db_default=False,
        help_text="Executors not trusted here may claim binding jobs (their attestations "
        "verify only once they are trusted). Default: they hold a lease but take no jobs.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ChainQuerySet.as_manager()

    class Meta:
        ordering = ["chain_id"]
        indexes = [models.Index(fields=["status"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(chain_id__gt=0, chain_id__lte=MAX_CHAIN_ID),
                name="chain_id_in_eip2294_range",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.chain_id})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def save(self, *args, **kwargs):
        """Save; a change of status (through the admin API, its status action or the Django
        admin) is told to core.events (the webhooks' outbox) in the same transaction."""
        if self._state.adding:
            return super().save(*args, **kwargs)
        with transaction.atomic():
            before = Chain.objects.filter(pk=self.pk).values_list("status", flat=True).first()
            super().save(*args, **kwargs)
            if before is not None and before != self.status:
                events.emit("chain.status_changed", {
                    "chainId": self.chain_id, "shortName": self.short_name,
                    "from": before, "to": self.status,
                }, occurred_at=timezone.now(), chain_id=self.chain_id)

    def note_edited(self, fields) -> None:
        """Record that an administrator set these fields (by model field name; those an
        import does not write are ignored): import_chains leaves them alone from now on."""
        edited = set(self.edited_fields) | set(fields)
        self.edited_fields = [name for name in LISTED_FIELDS if name in edited]

    def set_status(self, status: str) -> bool:
        """Activate or deactivate; returns whether anything changed."""
        if self.status == status:
            return False
        self.status = status
        self.save(update_fields=["status", "updated_at"])
        return True

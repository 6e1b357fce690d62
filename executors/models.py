import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.utils import timezone

from core import events
from core.db import run_hot
from core.errors import NotFound, PermissionDenied
from core.masking import mask_url
from core.models import StateChange
from core.validators import MAX_CHAIN_ID, validate_address
from registry.models import Chain, KeyScope


class ExecutorStatus(models.TextChoices):
    HEALTHY = "healthy"  # lease valid
    STALE = "stale"  # lease expired, within grace
    OFFLINE = "offline"  # past grace
    DRAINING = "draining"  # says so itself; takes no new work
    DEREGISTERED = "deregistered"  # removed by an administrator
    # Said by the executor itself (it alone sees its balance, the fees and its signer):
    LOW_FUNDS = "low_funds"  # its balance pays for fewer batches than the chain asks
    BLOCKED_BY_FEES = "blocked_by_fees"  # fees above the chain's cap (or unreadable): holds
    SIGNER_ERROR = "signer_error"  # its signer refused, timed out or signed wrongly: holds


# Statuses whose executor holds a lease: past it, they read as stale (see current_status).
LIVE_STATUSES = (ExecutorStatus.HEALTHY, ExecutorStatus.DRAINING, ExecutorStatus.LOW_FUNDS,
                 ExecutorStatus.BLOCKED_BY_FEES, ExecutorStatus.SIGNER_ERROR)

# Statuses in which an executor is handed jobs: low funds is a warning (it still pays for
# some batches, and claims only what it can pay for); the others hold.
CLAIMING_STATUSES = (ExecutorStatus.HEALTHY, ExecutorStatus.LOW_FUNDS)

# What an executor may say of itself in a heartbeat, and the status it means.
REPORTED_STATUS = {
    "ok": ExecutorStatus.HEALTHY,
    "busy": ExecutorStatus.HEALTHY,
    "draining": ExecutorStatus.DRAINING,
    "low_funds": ExecutorStatus.LOW_FUNDS,
    "blocked_by_fees": ExecutorStatus.BLOCKED_BY_FEES,
    "signer_error": ExecutorStatus.SIGNER_ERROR,
}


# The lease rule, once. A heartbeat at `at` holds the lease until lease_end(at), by the
# server's clock. A healthy or draining executor whose lease has ended (lease_expires_at <=
# now) is stale: it reads so at once (current_status, ExecutorQuerySet.showing) and the
# sweep records it. A stale one whose lease ended at or before offline_cutoff(now), the
# grace being over too, goes offline at the next sweep, unless that sweep holds its chain
# back (SelfPreservation, executors/sweep.py).


def lease_seconds() -> int:
    return settings.EXECUTOR_LEASE_SECONDS


def heartbeat_interval_seconds() -> int:
    # Three heartbeats per lease: one lost packet does not make an executor stale.
    return max(1, lease_seconds() // 3)


def lease_end(at: datetime) -> datetime:
    return at + timedelta(seconds=lease_seconds())


def offline_cutoff(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.EXECUTOR_GRACE_SECONDS)


@dataclass(frozen=True)
class Heartbeat:
    """What a heartbeat answers (HeartbeatResponseSerializer): the lease, and the chain's fee
    policy for its executors (registry Chain), so that a change reaches them within one
    heartbeat interval."""

    status: str
    lease_expires_at: datetime
    max_fee_per_gas_cap: int | None
    replace_after_blocks: int
    low_funds_batches: int

    @property
    def heartbeat_interval_seconds(self) -> int:
        return heartbeat_interval_seconds()


class TrustBasis(models.TextChoices):
    """What made an executor trusted (executors/trust.py)."""

    APPROVAL = "approval"  # an administrator approved it
    ALLOW_LIST = "allow_list"  # its key's standing allow-list names its address
    AUTOMATIC = "automatic"  # its chain's executorTrust policy is `automatic`
    ADMIN_KEY = "admin_key"  # an admin key registered it (an administrator's own act)


class TrustState(models.TextChoices):
    TRUSTED = "trusted"
    PENDING = "pending"  # never trusted yet: waits for an administrator's approval
    REVOKED = "revoked"  # was trusted; an administrator (or its key's revocation) ended it


class ExecutorQuerySet(models.QuerySet):
    def trusted(self):
        return self.filter(trust_revoked_at__isnull=True)

    def showing(self, *statuses: str, now=None):
        """Executors whose current_status() is one of `statuses`: the same rule, as a query."""
        now = now or timezone.now()
        shown = models.Q(pk__in=[])
        for status in statuses:
            if status == ExecutorStatus.STALE:
                lapsed = models.Q(status__in=LIVE_STATUSES, lease_expires_at__lte=now)
                shown |= models.Q(status=status) | lapsed
            elif status in LIVE_STATUSES:
                shown |= models.Q(status=status, lease_expires_at__gt=now)
            else:
                shown |= models.Q(status=status)
        return self.filter(shown)


class Executor(models.Model):
    """A document-binding executor of one chain, kept alive by heartbeats (a lease).

    `status` is stored because every change of it is recorded (ExecutorStatusChange); what
    can be derived is: a healthy or draining executor whose lease has run out reads as
    stale before the sweep records it.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # No index of its own: unique (chain, address) leads with chain. Nor are status and
    # lease_expires_at indexed (see Meta): a heartbeat or a sweep that changes no indexed
    # column is a heap-only (HOT) update, which writes no index entry at all.
    chain = models.ForeignKey(Chain, on_delete=models.PROTECT, related_name="executors",
                              db_index=False)
    address = models.CharField(max_length=42, validators=[validate_address],
                               help_text="0x + 40 lowercase hex digits")
    name = models.CharField(max_length=100, blank=True)
    endpoint_url = models.CharField(max_length=500, blank=True)
    version = models.CharField(max_length=64, blank=True)
    capabilities = models.JSONField(default=list, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    registered_by = models.CharField(max_length=100, help_text="Prefix of the key that registered it.")

    status = models.CharField(max_length=16, choices=ExecutorStatus.choices, default=ExecutorStatus.HEALTHY)
    status_changed_at = models.DateTimeField(default=timezone.now)
    registered_at = models.DateTimeField(default=timezone.now)
    last_heartbeat_at = models.DateTimeField(null=True, blank=True)
    lease_expires_at = models.DateTimeField()
    pending_jobs = models.PositiveIntegerField(null=True, blank=True)
    head_block = models.PositiveBigIntegerField(null=True, blank=True)
    # Decimal digits: a balance outgrows a bigint (100 ether is 10^20 wei), and on SQLite a
    # numeric column that large is kept as a float.
    balance_wei = models.CharField(max_length=78, null=True, blank=True,
                                   help_text="Its balance in wei, as its last heartbeat said.")
    # Trust (executors/trust.py). The verification reads trust_revoked_at alone (NULL:
    # trusted): it is set from registration until an approval, or from a revocation.
    trust_revoked_at = models.DateTimeField(
        null=True, blank=True,
        help_text="Set while it is not trusted: from its registration until it is approved "
        "(unless its key's allow-list or its chain's policy trusted it), or since its trust "
        "was revoked.")
    trusted_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When it was last made trusted.")
    trust_basis = models.CharField(max_length=16, choices=TrustBasis.choices, blank=True,
                                   default="", db_default="",
                                   help_text="What made it trusted, last time it was.")
    trust_changed_by = models.CharField(
        max_length=100, blank=True, default="", db_default="",
        help_text="Who last approved or revoked its trust: an admin key's prefix, "
        "user:<name>, or the service (a revoked key).")
    trust_reason = models.CharField(max_length=200, blank=True, default="", db_default="",
                                    help_text="Why its trust last changed.")

    objects = ExecutorQuerySet.as_manager()

    class Meta:
        ordering = ["chain_id", "registered_at"]
        constraints = [
            models.UniqueConstraint(fields=["chain", "address"], name="unique_executor_address"),
        ]
        # No index on status or lease_expires_at: every heartbeat renews the lease and a
        # sweep may move every row at once, and both are heap-only updates (HOT: no index
        # entry written, far less WAL) only when no indexed column changes and the page has
        # room (fillfactor 50 on PostgreSQL, migration 0002). What reads by status (sweeps,
        # per-chain counts, the admin's filter) scans the table: ~10 ms per 100,000 rows.
        indexes = []

    def __str__(self):
        return f"{self.name or self.address} on {self.chain_id}"

    @property
    def masked_endpoint_url(self) -> str:
        return mask_url(self.endpoint_url) if self.endpoint_url else ""

    @property
    def is_trusted(self) -> bool:
        return self.trust_revoked_at is None

    @property
    def trust(self) -> str:
        if self.trust_revoked_at is None:
            return TrustState.TRUSTED
        return TrustState.PENDING if self.trusted_at is None else TrustState.REVOKED

    def make_trusted(self, *, basis: str, by: str, reason: str, now) -> None:
        """Trust it; the caller saves (trust_fields) in its transaction."""
        self.trust_revoked_at, self.trusted_at, self.trust_basis = None, now, basis
        self.trust_changed_by, self.trust_reason = by[:100], reason[:200]

    def make_untrusted(self, *, by: str, reason: str, now) -> None:
        self.trust_revoked_at = now
        self.trust_changed_by, self.trust_reason = by[:100], reason[:200]

    def current_status(self, now=None) -> str:
        """The status as of now: a healthy or draining executor past its lease is stale,
        even before the sweep records it."""
        now = now or timezone.now()
        lapsed = self.lease_expires_at <= now
        if self.status in LIVE_STATUSES and lapsed:
            return ExecutorStatus.STALE
        return self.status

    def transition(self, to_status: str, *, cause: str, now) -> bool:
        """Move to `to_status`, recording the change; the caller saves the executor (in the
        same transaction)."""
        if to_status == self.status:
            return False
        ExecutorStatusChange.objects.create(
            executor=self, from_status=self.status, to_status=to_status, cause=cause, created_at=now
        )
        emit_status_changed(self.pk, self.chain_id, self.address, self.status, to_status,
                            cause, now, self.balance_wei)
        self.status = to_status
        self.status_changed_at = now
        return True

    def renew_lease(self, now) -> None:
        self.last_heartbeat_at = now
        self.lease_expires_at = lease_end(now)

    def check_owner(self, holder) -> None:
        """Only the key that registered the executor, or an admin key, speaks for it."""
        if holder.scope != KeyScope.ADMIN and self.registered_by != holder.prefix:
            raise PermissionDenied("This executor was registered with another key.")

    @classmethod
    def heartbeat(cls, *, chain_ref: str, holder, executor_id, reported: str,
                  pending_jobs: int | None = None, head_block: int | None = None,
                  balance_wei: int | None = None, now=None) -> Heartbeat:
        """Renew the lease of executor `executor_id` of the chain `chain_ref` (its id or
        short name) for `holder` (a KeyHolder), recording any change of the status that
        `reported` (a REPORTED_STATUS key) means.

        The usual heartbeat changes nothing but the lease: one conditional UPDATE, with no
        read of the row or the chain first. If the status must change (or the sweep got
        there first), the locked path below records it, and it also tells an unknown
        executor (404) from another key's (403).
        """
        target = REPORTED_STATUS[reported]
        reports = {"pending_jobs": pending_jobs, "head_block": head_block,
                   "balance_wei": None if balance_wei is None else str(balance_wei)}
        at = now or timezone.now()
        policy = _renew_lease(chain_ref, holder, executor_id, target, at, reports)
        if policy is not None:
            return Heartbeat(target, lease_end(at), *policy)

        chain = Chain.objects.registered(chain_ref)
        with transaction.atomic():
            executor = cls.objects.select_for_update().filter(pk=executor_id, chain=chain).first()
            if executor is None or executor.status == ExecutorStatus.DEREGISTERED:
                raise NotFound("No executor with this id on this chain: register it (again).")
            executor.check_owner(holder)
            # The clock is read under the lock: concurrent heartbeats then record their
            # transitions in the order they made them (read before, a later one could be
            # stamped earlier than the change it followed).
            at = now or timezone.now()
            executor.renew_lease(at)
            for field, value in reports.items():
                setattr(executor, field, value)
            executor.transition(target, cause=f"heartbeat: {reported}", now=at)
            executor.save()
        return Heartbeat(executor.status, executor.lease_expires_at, chain.max_fee_per_gas_cap,
                         chain.replace_after_blocks, chain.low_funds_batches)

    @classmethod
    def deregister(cls, executor_id, *, now=None) -> "Executor":
        """Take an executor out of service (an administrator's decision). It keeps its
        trust: what it bound stays bound. Registering again brings it back."""
        with transaction.atomic():
            executor = cls.objects.select_for_update().get(pk=executor_id)
            at = now or timezone.now()  # under the lock, as in heartbeat()
            executor.transition(ExecutorStatus.DEREGISTERED, cause="deregistered", now=at)
            executor.save()
        return executor

    @classmethod
    def set_trust(cls, executor_id, *, trusted: bool, by: str = "", reason: str = "",
                  now=None) -> "Executor":
        """Approve (or restore) or revoke its trust, an administrator's decision (`by`
        names who: an admin key's prefix or user:<name>; the audit trail records the
        change): an untrusted executor's attestations do not verify."""
        now = now or timezone.now()
        with transaction.atomic():
            executor = cls.objects.select_for_update().get(pk=executor_id)
            if trusted != executor.is_trusted:
                if trusted:
                    executor.make_trusted(basis=TrustBasis.APPROVAL, by=by, now=now,
                                          reason=reason or "approved by an administrator")
                else:
                    executor.make_untrusted(by=by, now=now,
                                            reason=reason or "revoked by an administrator")
                executor.save(update_fields=TRUST_FIELDS)
        return executor


TRUST_FIELDS = ["trust_revoked_at", "trusted_at", "trust_basis", "trust_changed_by",
                "trust_reason"]


# The usual heartbeat's one statement, written in SQL because the ORM takes longer to build
# it than the database to run it: it renews the lease of the executor if it is in the status
# the heartbeat means already, on the chain named by id or by short name (the other one
# NULL), and registered by `owner` (NULL for an admin key); it returns the chain's fee
# policy (scalar subqueries by primary key: SQLite's RETURNING takes no joined table).
_POLICY = ("max_fee_per_gas_cap", "replace_after_blocks", "low_funds_batches")
_RENEWAL = """UPDATE executors_executor
SET last_heartbeat_at = %(at)s, lease_expires_at = %(lease_end)s,
    pending_jobs = %(pending_jobs)s, head_block = %(head_block)s, balance_wei = %(balance_wei)s
{commit_mode}
WHERE id = %(id)s AND status = %(status)s
  AND chain_id = COALESCE(%(chain_id)s,
                          (SELECT chain_id FROM registry_chain WHERE short_name = %(short_name)s))
  AND (registered_by = %(owner)s OR %(owner)s IS NULL)
RETURNING """ + ", ".join(
    f"(SELECT {column} FROM registry_chain WHERE chain_id = executors_executor.chain_id)"
    for column in _POLICY)
RENEWAL_SQL = _RENEWAL.format(commit_mode="")
# PostgreSQL, outside a transaction, where the UPDATE is the whole transaction: a one-row
# FROM item, evaluated once, makes its commit asynchronous (docs/decisions.md). Inside one,
# the caller's commit decides.
RENEWAL_SQL_ASYNC_COMMIT = _RENEWAL.format(
    commit_mode="FROM (SELECT set_config('synchronous_commit', 'off', true)) AS commit_mode")


def _renew_lease(chain_ref, holder, executor_id, status, at, reports) -> tuple | None:
    """Run the renewal; the chain's fee policy (as _POLICY), or None if no row matched."""
    by_id = chain_ref.isascii() and chain_ref.isdigit()  # as Chain.objects.by_ref
    if by_id and int(chain_ref) > MAX_CHAIN_ID:
        return None  # no such chain (and past what the column holds)
    db = connections[DEFAULT_DB_ALIAS]  # once: each access through the proxy costs
    adapt = db.ops.adapt_datetimefield_value
    params = {
        "at": adapt(at), "lease_end": adapt(lease_end(at)), **reports,
        "id": Executor._meta.pk.get_db_prep_value(executor_id, db), "status": status,
        "chain_id": int(chain_ref) if by_id else None,
        "short_name": None if by_id else chain_ref,
        "owner": None if holder.scope == KeyScope.ADMIN else holder.prefix,
    }
    asynchronous = db.vendor == "postgresql" and not db.in_atomic_block
    return run_hot(RENEWAL_SQL_ASYNC_COMMIT if asynchronous else RENEWAL_SQL, params,
                   fetch=True)


def emit_status_changed(executor_id, chain_id: int, address: str, from_status: str,
                        to_status: str, cause: str, now, balance_wei: str | None) -> None:
    """Tell core.events (the webhooks' outbox) of a change of status, in its transaction."""
    events.emit("executor.status_changed", {
        "executorId": str(executor_id), "chainId": chain_id, "address": address,
        "from": from_status or None, "to": to_status, "cause": cause,
        "balanceWei": balance_wei,
    }, occurred_at=now, chain_id=chain_id)


class ExecutorStatusChange(StateChange):
    """One transition of an executor's status, with its cause."""

    state_fields = ("from_status", "to_status")

    # Indexed by executor_change_recent_idx (executor first), not twice: a sweep can write
    # a hundred thousand of these at once.
    executor = models.ForeignKey(Executor, on_delete=models.CASCADE, related_name="status_changes",
                                 db_index=False)
    from_status = models.CharField(max_length=16, choices=ExecutorStatus.choices, blank=True)
    to_status = models.CharField(max_length=16, choices=ExecutorStatus.choices)
    cause = models.CharField(max_length=64)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["executor", "-created_at"], name="executor_change_recent_idx")]


class TrustedAttester(models.Model):
    """An address whose attestations count on a chain, besides the chain's executors."""

    chain = models.ForeignKey(Chain, on_delete=models.CASCADE, related_name="trusted_attesters")
    address = models.CharField(max_length=42, validators=[validate_address])
    note = models.CharField(max_length=200, blank=True)
    added_by = models.CharField(max_length=100, blank=True)
    proven_at = models.DateTimeField(
        null=True, blank=True,
        help_text="When the address proved it holds its key (an EIP-4361 proof sent with it).")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["chain_id", "address"]
        constraints = [
            models.UniqueConstraint(fields=["chain", "address"], name="unique_trusted_attester"),
        ]

    def __str__(self):
        return f"{self.address} on {self.chain_id}"

    def clean(self):
        self.address = self.address.lower()  # after the field's validator: stored lowercase


class SelfPreservation(models.Model):
    """A chain whose lease sweep is holding back: too many executors would go offline at
    once, which more likely means the registry lost its network than that they all died.
    The row exists while the hold lasts."""

    chain = models.OneToOneField(Chain, on_delete=models.CASCADE, primary_key=True,
                                 related_name="self_preservation")
    since = models.DateTimeField(default=timezone.now)
    would_go_offline = models.PositiveIntegerField()
    executors = models.PositiveIntegerField(help_text="Executors not offline when it was checked.")
    checked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["chain_id"]
        verbose_name = "self-preservation hold"

    def __str__(self):
        return f"chain {self.chain_id}: holding {self.would_go_offline} of {self.executors}"


class AddressChallenge(models.Model):
    """A challenge to prove that the caller holds an address's key: an EIP-4361 message the
    service wrote, for one key, chain, address and purpose; single use (a conditional
    UPDATE of used_at in the transaction that uses it) and short-lived (executors/proofs.py)."""

    class Purpose(models.TextChoices):
        REGISTER = "register", "registering an executor"
        TRUSTED_ATTESTER = "trusted_attester", "adding a trusted attester"

    nonce = models.CharField(max_length=32, primary_key=True)
    purpose = models.CharField(max_length=16, choices=Purpose.choices)
    chain = models.ForeignKey(Chain, on_delete=models.CASCADE, related_name="+", db_index=False)
    address = models.CharField(max_length=42, validators=[validate_address])
    key_prefix = models.CharField(max_length=100, help_text="The key it was issued to.")
    message = models.TextField(help_text="The EIP-4361 message to sign, as issued.")
    issued_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-issued_at"]
        # A key's open challenges are counted at each new one (proofs.MAX_OPEN_CHALLENGES).
        indexes = [models.Index(fields=["key_prefix", "expires_at"],
                                name="challenge_key_open_idx")]

    def __str__(self):
        return f"{self.purpose} {self.address} on {self.chain_id} ({self.nonce})"

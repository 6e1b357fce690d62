"""Who is trusted to attest: an executor proved it holds its address's key when it registered
(executors/proofs.py); whether it is trusted is decided here. docs/security.md is the table.

A new executor is untrusted (its attestations do not verify) until an administrator approves
it, unless, at its registration:
- an admin key registers it (an administrator's own act), or
- its key's standing allow-list (`allowedAddresses`, set by an administrator) names its
  address, or
- its chain's `executorTrust` policy is `automatic` (an explicit choice, default `approval`).
A revoked executor stays revoked until an administrator restores it: registering again does
not bring its trust back. Whether an untrusted one may claim jobs is its chain's
`untrustedExecutorJobs` (bindings/jobs.py).
"""

from django.db import transaction

from executors.models import TRUST_FIELDS, Executor, TrustBasis, TrustState
from registry.authentication import KeyHolder
from registry.models import ApiKey, Chain, KeyScope


def standing_trust(*, chain: Chain, holder: KeyHolder, address: str) -> tuple[str, str] | None:
    """(basis, reason) when `address`, registered by `holder` on `chain`, is trusted without
    waiting for an approval; None when it waits."""
    if holder.scope == KeyScope.ADMIN:
        return TrustBasis.ADMIN_KEY, f"registered by admin key {holder.prefix}"
    if holder.key_id is not None:
        allowed = (ApiKey.objects.filter(pk=holder.key_id)
                   .values_list("allowed_addresses", flat=True).first()) or []
        if address in allowed:
            return TrustBasis.ALLOW_LIST, f"on the allow-list of key {holder.prefix}"
    if chain.executor_trust == Chain.ExecutorTrust.AUTOMATIC:
        return TrustBasis.AUTOMATIC, f"chain {chain.chain_id} trusts executors automatically"
    return None


def trust_on_registration(executor: Executor, *, holder: KeyHolder, created: bool,
                          now) -> None:
    """Set the trust of an executor being registered (the caller saves it): a new one, or
    one still pending approval, takes standing trust if it has any; a new one without it
    waits for an approval. A trusted or revoked one stays as it is."""
    if not created and executor.trust != TrustState.PENDING:
        return
    standing = standing_trust(chain=executor.chain, holder=holder, address=executor.address)
    if standing is not None:
        basis, reason = standing
        executor.make_trusted(basis=basis, by=holder.prefix, reason=reason, now=now)
    elif created:
        executor.make_untrusted(by="", reason="waiting for an administrator's approval", now=now)


def end_trust_of_keys(*, prefixes: list[str], now) -> None:
    """A revoked (or deleted) key's executors lose their trust (registry/holdings.py): those
    an administrator moved to another key (executor_transfer) are no longer its."""
    for executor in Executor.objects.select_for_update().filter(
            registered_by__in=prefixes, trust_revoked_at__isnull=True):
        executor.make_untrusted(by="service", now=now,
                                reason=f"its key {executor.registered_by} was revoked")
        executor.save(update_fields=TRUST_FIELDS)


def executor_transfer(executor_id, *, to_key: ApiKey) -> Executor:
    """Move an executor to another executor key (an administrator's act, audited): from now
    on that key speaks for it, and the revocation of its former key leaves its trust."""
    with transaction.atomic():
        executor = Executor.objects.select_for_update().get(pk=executor_id)
        executor.registered_by = to_key.display_prefix
        executor.save(update_fields=["registered_by"])
    return executor

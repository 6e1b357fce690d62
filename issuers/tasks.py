"""The identity checks: one per issuer when it is saved, and the periodic sweep that queues
the issuers due for their next check (Celery beat; `manage.py check_issuers` too)."""

from celery import shared_task
from django.db import transaction

from issuers.services import due_issuer_ids, issuer_check


@shared_task(name="issuers.check_issuer")
def check_issuer(issuer_id: int) -> str | None:
    issuer = issuer_check(issuer_id=issuer_id)
    return issuer and issuer.identity


@shared_task(name="issuers.check_issuers")
def check_issuers() -> int:
    """Periodic: queue a check of each issuer whose last one is older than
    IDENTITY_CHECK_INTERVAL_SECONDS."""
    due = due_issuer_ids()
    for issuer_id in due:
        check_issuer.delay(issuer_id)
    return len(due)


def queue_check(issuer_id: int) -> None:
    """Check the issuer after the current transaction commits (its save's)."""
    transaction.on_commit(lambda: check_issuer.delay(issuer_id))

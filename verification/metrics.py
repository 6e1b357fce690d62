"""The verification's own counter; /metrics (ops/metrics.py) publishes it with the rest."""

from functools import cache

from prometheus_client import Counter

VERIFY_OUTCOMES = Counter("verify_outcomes", "Document verifications, by outcome.", ["outcome"])


def count_verify(outcome: str) -> None:
    """Count one verification answered with `outcome` (e.g. verified, not_found, revoked)."""
    _child(outcome).inc()


@cache  # a few outcomes: looking the labelled child up costs more than counting
def _child(outcome: str):
    return VERIFY_OUTCOMES.labels(outcome=outcome)

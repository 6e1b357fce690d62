"""The verification's own counter; /metrics (ops/metrics.py) publishes it with the rest."""

from functools import cache

from prometheus_client import Counter

VERIFY_OUTCOMES = Counter("verify_outcomes", "Document verifications, by outcome.", ["outcome"])


def count_verify(outcome: str, count: int = 1) -> None:
    """Count `count` verifications answered with `outcome` (verified, not_verified)."""
    if count:
        _child(outcome).inc(count)


@cache  # a few outcomes: looking the labelled child up costs more than counting
def _child(outcome: str):
    return VERIFY_OUTCOMES.labels(outcome=outcome)

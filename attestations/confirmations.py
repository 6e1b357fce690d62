"""Confirmations, counted once: the blocks from a record's block to the head, both included
(a record in the head block has 1), and 0 while the head is behind the record's block.
verification/sql.py spells the same rule in SQL for the hot path."""

from django.db.models import Value
from django.db.models.functions import Greatest


def confirmations(head: int, block: int) -> int:
    return max(0, head - block + 1)


def confirmations_expression(head, block):
    """confirmations() as an ORM expression over two integer expressions."""
    return Greatest(head - block + 1, Value(0))

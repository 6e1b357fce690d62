"""One budget per HTTP request to /trpc (issue 34, item 5): a batch must not multiply what
one call may cost. Each call costs the items it asks for: a mutation the array items of its
input (a `verify.batch` its document hashes; at least 1), a list query the rows of its page
(`limit`, else the default page), any other query 1. A request whose calls cost more than
TRPC_BATCH_BUDGET in all is refused as a whole before any of them runs: tRPC's 400
BAD_REQUEST, JSON-RPC's -32600."""

from django.conf import settings

from core.pagination import LimitOffsetPagination
from core.parsers import BodyLimits, json_size
from trpc.dispatch import QUERY, Procedure
from trpc.errors import RpcError

# What the body (or a query's `input`) of one whole request may hold: the calls' inputs
# together. Each call's input then meets its REST endpoint's own limits.
BODY_LIMITS = BodyLimits(keys=10_000, items=5_000)


def cost(procedure: Procedure | None, data) -> int:
    """The items a call asks for (`data`: its input, as the procedure takes it)."""
    if procedure is None:  # no such procedure: it fails at once
        return 1
    if procedure.kind != QUERY:
        return max(1, json_size(data)[1])
    if not procedure.paged:
        return 1
    limit = data.get("limit") if isinstance(data, dict) else None
    if isinstance(limit, str) and limit.isdigit():
        limit = int(limit)
    if type(limit) is not int or limit < 1:  # absent (or refused by the list itself)
        return LimitOffsetPagination.default_limit
    return min(limit, LimitOffsetPagination.max_limit)


def check(calls) -> None:
    """RpcError 400 when the calls, (procedure or None, input) pairs, cost more than the
    budget in all."""
    total = sum(cost(procedure, data) for procedure, data in calls)
    if total > settings.TRPC_BATCH_BUDGET:
        raise RpcError(400, f"This request asks for {total} items in all (document hashes and "
                       "other array items of its inputs, rows of its lists' pages); a request "
                       f"may ask for {settings.TRPC_BATCH_BUDGET} at most: send fewer calls "
                       "at once.")

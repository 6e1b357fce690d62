"""JSON-RPC 2.0 on POST /trpc: `{"jsonrpc": "2.0", "method": "attestations.list",
"params": {...}, "id": 1}` or an array of them, the procedures being /trpc's.

Errors: -32700 the body is not JSON, -32600 not a valid request, -32601 no such method,
-32602 invalid params (any 400 of the procedure: its problem document names the fields),
else tRPC's code of the procedure's status (-32004 not found, -32009 conflict, ...), each
with `data` {code, httpStatus, problem}; -32600 with id null for a batch over
TRPC_MAX_BATCH_SIZE calls or over the request's budget (trpc/budget.py), nothing run. A notification (no `id`) runs and gets no answer.
HTTP status: a single request's (200, or its error's), 200 for a batch, 204 when nothing is
answered, and 401/403 with `id` null when the key fails (nothing runs then).
"""

import json

from django.conf import settings
from django.http import HttpResponse

from trpc import budget, dispatch
from trpc.errors import RpcError
from trpc.procedures import PROCEDURES

INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32600, -32601, -32602
_ABSENT = object()


def answer(request, holder, body) -> HttpResponse:
    """The answer to a parsed body (an object or an array of them)."""
    items = body if isinstance(body, list) else [body]
    try:
        if not items:
            raise RpcError(400, "The batch is empty.")
        if len(items) > settings.TRPC_MAX_BATCH_SIZE:
            raise RpcError(400, f"A batch holds at most {settings.TRPC_MAX_BATCH_SIZE} calls.")
        budget.check([_procedure_and_params(item) for item in items])
    except RpcError as refusal:
        return respond(error(None, refusal, INVALID_REQUEST))
    if isinstance(body, list):
        replies = [reply for reply in (_run(request, holder, item) for item in body) if reply]
        bodies = [reply_body for reply_body, _headers in replies]
        return respond(bodies, 200) if bodies else HttpResponse(status=204)
    reply = _run(request, holder, body)
    if reply is None:
        return HttpResponse(status=204)
    return respond(reply[0], headers=reply[1])


def error(request_id, rpc_error: RpcError, number: int | None = None) -> dict:
    shape = rpc_error.shape(None)
    if number is not None:
        shape["code"] = number
    return {"jsonrpc": "2.0", "error": shape, "id": request_id}


def respond(reply, status: int | None = None, headers: dict | None = None) -> HttpResponse:
    if status is None:  # a single reply: its error's status
        status = reply["error"]["data"]["httpStatus"] if "error" in reply else 200
    response = HttpResponse(json.dumps(reply), status=status, content_type="application/json")
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _procedure_and_params(item) -> tuple:
    """A request object's procedure (None for none) and params, for the budget."""
    if not isinstance(item, dict):
        return None, None
    method = item.get("method")
    return PROCEDURES.get(method) if isinstance(method, str) else None, item.get("params")


def _run(request, holder, item) -> tuple[dict, dict] | None:
    """The reply to one request object and its HTTP headers; None for a notification."""
    if not isinstance(item, dict):
        return error(None, RpcError(400, "A request is a JSON object."), INVALID_REQUEST), {}
    request_id = item.get("id", _ABSENT)
    valid_id = request_id is _ABSENT or request_id is None or (
        isinstance(request_id, (str, int, float)) and not isinstance(request_id, bool))
    reply_id = request_id if valid_id and request_id is not _ABSENT else None
    problem = _invalid(item) if valid_id else "The id must be a string, a number or null."
    if problem:
        return error(reply_id, RpcError(400, problem), INVALID_REQUEST), {}
    procedure = PROCEDURES.get(item["method"])
    params = item.get("params")
    try:
        if procedure is None:
            raise RpcError(404, f'No method "{item["method"]}".')
        if isinstance(params, list):
            raise RpcError(400, "The params must be an object (named parameters).")
        result = dispatch.call(procedure, request, holder, params)
    except RpcError as exc:
        if request_id is _ABSENT:
            return None
        number = METHOD_NOT_FOUND if procedure is None else INVALID_PARAMS if exc.status == 400 else None
        return error(reply_id, exc, number), exc.headers
    except Exception:
        crash = dispatch.crashed(request, item["method"])
        return None if request_id is _ABSENT else (error(reply_id, crash), {})
    if request_id is _ABSENT:
        return None
    return {"jsonrpc": "2.0", "result": result, "id": request_id}, {}


def _invalid(item: dict) -> str | None:
    if item.get("jsonrpc") != "2.0":
        return 'The member "jsonrpc" must be "2.0".'
    if not isinstance(item.get("method"), str):
        return 'The member "method" must be a string.'
    if set(item) - {"jsonrpc", "method", "params", "id"}:
        return "Only jsonrpc, method, params and id are members of a request."
    if "params" in item and not isinstance(item["params"], (dict, list)):
        return 'The member "params" must be an object or an array.'
    return None

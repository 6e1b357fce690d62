"""The two views of /trpc: tRPC's HTTP protocol on /trpc/{paths}, JSON-RPC 2.0 on POST /trpc.
Plain Django views (not DRF's): every answer, errors included, is an envelope."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import ParseError

from core.parsers import loads_strict
from core.problems import problem
from trpc import dispatch, jsonrpc
from trpc.errors import RpcError
from trpc.procedures import PROCEDURES
from trpc.wire import Outcome, Wire

PREFIX = "/trpc"
_ALLOWED = "GET, POST"


@csrf_exempt
def trpc(request, paths: str):
    wire = Wire(request, paths)
    if request.method in ("HEAD", "OPTIONS"):  # as tRPC: nothing to say (CORS answers preflights)
        response = HttpResponse(status=204)
        response["Allow"] = f"{_ALLOWED}, HEAD, OPTIONS"
        return response
    try:
        if request.method not in ("GET", "POST"):
            raise RpcError(405, f"{request.method} is not supported; queries are GET, mutations POST.",
                           headers={"Allow": _ALLOWED})
        if len(wire.paths) > settings.TRPC_MAX_BATCH_SIZE:
            raise RpcError(400, f"A batch holds at most {settings.TRPC_MAX_BATCH_SIZE} calls.")
        holder = dispatch.authenticate(request)
        inputs = _inputs(request, wire)
    except RpcError as error:
        return wire.refuse(error)
    return wire.answer([_call(request, holder, wire, path, inputs.get(index))
                        for index, path in enumerate(wire.paths)])


@csrf_exempt
def json_rpc(request):
    try:
        if request.method != "POST":
            raise RpcError(405, "JSON-RPC requests are POSTed.", headers={"Allow": "POST"})
        holder = dispatch.authenticate(request)
        body = loads_strict(_body_text(request))
    except ParseError as exc:
        return jsonrpc.respond(jsonrpc.error(None, RpcError(400, str(exc.detail), parse_error=True)))
    except RpcError as error:
        return jsonrpc.respond(jsonrpc.error(None, error), headers=error.headers)
    return jsonrpc.answer(request, holder, body)


def error_response(request, status: int, detail: str | None = None) -> HttpResponse:
    """The envelope for an error found outside these views (a body too large, a crash, an
    unknown path under /trpc): what config.middleware answers instead of a problem document."""
    error = RpcError(status, detail or _default_message(status))
    if request.path_info == PREFIX:
        return jsonrpc.respond(jsonrpc.error(None, error))
    return Wire(request, request.path_info[len(PREFIX) + 1:]).refuse(error)


def _call(request, holder, wire: Wire, path: str, raw_input) -> Outcome:
    procedure = PROCEDURES.get(path)
    try:
        if procedure is None:
            raise RpcError(404, f'No procedure found on path "{path}".')
        if procedure.method != request.method:
            raise RpcError(405, f'Unsupported {request.method}-request to {procedure.kind} '
                           f'procedure at path "{path}".', headers={"Allow": procedure.method})
        return Outcome(path, data=dispatch.call(procedure, request, holder, wire.decode(raw_input)))
    except RpcError as error:
        return Outcome(path, error=error)
    except Exception:
        return Outcome(path, error=dispatch.crashed(request, path))


def _inputs(request, wire: Wire) -> dict:
    """The raw input of each call, by index; absent for a call without one."""
    text = request.GET.get("input", "") if request.method == "GET" else _body_text(request)
    if not text:
        return {}
    try:
        raw = loads_strict(text, "The input")
    except ParseError as exc:
        raise RpcError(400, str(exc.detail), parse_error=True) from exc
    if not wire.batch:
        return {0: raw}
    if not isinstance(raw, dict):
        raise RpcError(400, 'The input of a batch is an object {"0": ..., "1": ...}.')
    return {index: raw[str(index)] for index in range(len(wire.paths)) if str(index) in raw}


def _body_text(request) -> str:
    try:
        body = request.body
    except RequestDataTooBig:
        raise RpcError(413, "The request body is too large.") from None
    content_type = request.content_type.lower()
    if body and content_type != "application/json":
        raise RpcError(415, f'The body must be application/json, not "{content_type}".')
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RpcError(400, f"The request body is not UTF-8: {exc}", parse_error=True) from None


def _default_message(status: int) -> str:
    return problem(status)["detail"]

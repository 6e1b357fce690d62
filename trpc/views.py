"""The two views of /trpc: tRPC's HTTP protocol on /trpc/{paths}, JSON-RPC 2.0 on POST /trpc.
Plain Django views (not DRF's): every answer, errors included, is an envelope."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import ParseError

from core.parsers import loads_strict
from core.problems import problem
from trpc import budget, dispatch, jsonrpc
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
        _check_request(request, wire)
    except RpcError as error:
        return wire.reject(error)
    try:
        if request.method not in ("GET", "POST"):
            raise RpcError(405, f"{request.method} is not supported; queries are GET, mutations POST.",
                           headers={"Allow": _ALLOWED})
        holder = dispatch.authenticate(request)
    except RpcError as error:
        return wire.refuse(error)
    inputs = _inputs(request, wire)
    try:
        budget.check([(PROCEDURES.get(path), None if isinstance(data, RpcError) else data)
                      for path, data in zip(wire.paths, inputs)])
    except RpcError as error:
        return wire.reject(error)
    return wire.answer([_call(request, holder, path, data)
                        for path, data in zip(wire.paths, inputs)])


@csrf_exempt
def json_rpc(request):
    try:
        if request.method != "POST":
            raise RpcError(405, "JSON-RPC requests are POSTed.", headers={"Allow": "POST"})
        holder = dispatch.authenticate(request)
        body = loads_strict(_body_text(request), limits=budget.BODY_LIMITS)
    except ParseError as exc:
        not_json = exc.get_codes() == "parse_error"
        refusal = RpcError(400, str(exc.detail), problem(400, code=exc.get_codes(), detail=str(exc.detail)),
                           parse_error=not_json)
        return jsonrpc.respond(jsonrpc.error(None, refusal, None if not_json else jsonrpc.INVALID_REQUEST))
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


def _call(request, holder, path: str, data) -> Outcome:
    procedure = PROCEDURES.get(path)
    try:
        if procedure is None:
            raise RpcError(404, f'No procedure found on path "{path}".')
        if procedure.method != request.method:
            raise RpcError(405, f'Unsupported {request.method}-request to {procedure.kind} '
                           f'procedure at path "{path}".', headers={"Allow": procedure.method})
        if isinstance(data, RpcError):  # its input's fault, told once its procedure is known
            raise data
        return Outcome(path, data=dispatch.call(procedure, request, holder, data))
    except RpcError as error:
        return Outcome(path, error=error)
    except Exception:
        return Outcome(path, error=dispatch.crashed(request, path))


def _check_request(request, wire: Wire) -> None:
    """What tRPC refuses of a request as a whole, before its key and body are read (each a
    single envelope without a path, as @trpc/server v11 answers them)."""
    if len(wire.paths) > settings.TRPC_MAX_BATCH_SIZE:
        raise RpcError(400, f"A batch holds at most {settings.TRPC_MAX_BATCH_SIZE} calls.")
    content_type = request.content_type.lower()
    if (request.method == "POST" and content_type != "application/json"
            and request.META.get("CONTENT_LENGTH") not in (None, "", "0")):
        raise RpcError(415, f'The body must be application/json, not "{content_type}".')
    kinds = {PROCEDURES[path].kind for path in wire.paths if path in PROCEDURES}
    if len(kinds) > 1:
        raise RpcError(400, "A batch holds queries or mutations, not both: "
                       f"{', '.join(sorted(kinds))}.")


def _inputs(request, wire: Wire) -> list:
    """Each call's input as its procedure takes it (None without one), or the RpcError that
    refuses it: tRPC reads a call's input after finding its procedure, so a call to no
    procedure is a 404 whatever the input."""
    try:
        raw = _raw_inputs(request, wire)
    except RpcError as error:
        return [error] * len(wire.paths)
    inputs = []
    for index in range(len(wire.paths)):
        try:
            inputs.append(wire.decode(raw.get(index)))
        except RpcError as error:
            inputs.append(error)
    return inputs


def _raw_inputs(request, wire: Wire) -> dict:
    """The raw input of each call, by index; absent for a call without one."""
    try:
        text = request.GET.get("input", "") if request.method == "GET" else _body_text(request)
        raw = loads_strict(text, "The input", limits=budget.BODY_LIMITS) if text else None
    except ParseError as exc:  # tRPC's BAD_REQUEST (its PARSE_ERROR is for other things)
        detail = str(exc.detail)
        raise RpcError(400, detail, problem(400, code=exc.get_codes(), detail=detail)) from exc
    if not text:
        return {}
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
        raise ParseError(f"The request body is not UTF-8: {exc}") from None


def _default_message(status: int) -> str:
    return problem(status)["detail"]

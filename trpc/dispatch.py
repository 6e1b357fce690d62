"""A procedure is a REST route: calling one runs that route's DRF view in-process, with the
input as query parameters (queries) or as the JSON body (mutations), so that serializers,
services, permissions, throttles, filters and pagination are the REST endpoint's own.

The key is checked once per HTTP request (`authenticate`); the inner requests carry the
holder it found (DRF's forced authentication), and each view still checks its permissions.
"""

import io
import json
import logging
from dataclasses import dataclass
from functools import cache
from http import HTTPStatus
from urllib.parse import urlencode

from django.core.handlers.wsgi import WSGIRequest
from django.core.signals import got_request_exception
from django.urls import NoReverseMatch, get_resolver, get_script_prefix, resolve, reverse
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings

from core.errors import camel_attr
from core.problems import problem
from core.replicas import run_read
from trpc.errors import KEPT_HEADERS, RpcError

logger = logging.getLogger("trpc")
QUERY, MUTATION = "query", "mutation"
# Request headers the inner request does not inherit: they describe the outer one.
_OUTER_ONLY = ("HTTP_TRPC_ACCEPT", "HTTP_TRPC_BATCH_MODE", "HTTP_ACCEPT", "HTTP_CONTENT_LENGTH")


@dataclass(frozen=True)
class Procedure:
    kind: str  # QUERY (GET) or MUTATION (POST)
    url_name: str  # the REST route it runs
    renamed: tuple = ()  # (URL parameter, input field) where the field is not its camelCase

    @property
    def method(self) -> str:
        return "GET" if self.kind == QUERY else "POST"

    @property
    def paged(self) -> bool:
        """A query of a list route (DRF's router names them `<basename>-list`): a page."""
        return self.kind == QUERY and self.url_name.endswith("-list")

    def input_field(self, param: str) -> str:
        return dict(self.renamed).get(param) or camel_attr(param)


def query(url_name: str, **renamed: str) -> Procedure:
    """A query running the GET of route `url_name`; `pk="workflowId"` fills the URL
    parameter `pk` from the input field `workflowId` (by default, `chain_id` from `chainId`)."""
    return Procedure(QUERY, url_name, tuple(renamed.items()))


def mutation(url_name: str, **renamed: str) -> Procedure:
    """A mutation running the POST of route `url_name` (URL parameters as for `query`)."""
    return Procedure(MUTATION, url_name, tuple(renamed.items()))


def invalid_input(attr: str, detail: str) -> RpcError:
    """A 400 naming an input field, shaped like the REST validation errors."""
    errors = [{"attr": attr, "code": "invalid", "detail": detail}]
    document = problem(400, code="validation_error", detail=f"{attr}: {detail}", errors=errors)
    return RpcError(400, document["detail"], document)


def authenticate(request):
    """The key holder of a request, by the API's default authentication and permission
    classes (X-API-Key of scope api or admin); RpcError 401/403 with the REST problem."""
    drf_request = Request(
        request, authenticators=[cls() for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES]
    )
    try:
        holder = drf_request.auth
        for permission_class in api_settings.DEFAULT_PERMISSION_CLASSES:
            permission = permission_class()
            if not permission.has_permission(drf_request, None):
                if holder is None:
                    raise exceptions.NotAuthenticated()
                raise exceptions.PermissionDenied(getattr(permission, "message", None))
    except exceptions.APIException as exc:
        response = api_settings.EXCEPTION_HANDLER(exc, {"view": None, "request": drf_request})
        headers = {}
        if response.status_code == 401:
            headers["WWW-Authenticate"] = drf_request.authenticators[0].authenticate_header(request)
        raise RpcError(response.status_code, response.data["detail"], response.data, headers) from exc
    return holder


def crashed(request, name: str) -> RpcError:
    """The 500 of a call that raised: logged with its traceback and told to error trackers
    (as config.middleware does for a whole request), never shown."""
    logger.exception("The call of %s failed", name)
    got_request_exception.send(sender=Procedure, request=request)
    return RpcError(500, "The server failed to handle this call; it has been logged.")


def call(procedure: Procedure, request, holder, data):
    """Run `procedure` for `data` (its input, None for none) on behalf of `request`'s key
    holder; the REST answer's JSON, or RpcError with the REST problem document."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RpcError(400, "The input must be a JSON object (or absent).")
    rest = dict(data)
    kwargs = {}
    for param in path_params(procedure.url_name):
        attr = procedure.input_field(param)
        value = rest.pop(attr, None)
        if value is None:
            raise invalid_input(attr, "This field is required.")
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise invalid_input(attr, "Expected a string or an integer.")
        kwargs[param] = value
    try:
        path = reverse(procedure.url_name, kwargs=kwargs)
    except NoReverseMatch:
        raise RpcError(404, "No record matches this input.") from None
    if procedure.kind == QUERY:
        query_string, body = _query_string(rest), b""
    else:
        query_string, body = "", json.dumps(rest).encode()
    inner = _inner_request(request, procedure.method, path, query_string, body, holder)
    match = resolve(inner.path_info)
    # On a read replica when the route's reads go there (core/replicas.py), as over HTTP.
    response = run_read(procedure.url_name, procedure.method,
                        lambda: match.func(inner, *match.args, **match.kwargs))
    if (window := getattr(inner, "rate_limit", None)) is not None:
        request.rate_limit = window  # the key's budget after this call: the outer headers'
    if hasattr(response, "render"):
        response.render()
    return _outcome(response)


@cache
def _route(url_name: str) -> tuple[str, tuple[str, ...]]:
    """A route's path as a format string (`chains/%(chain_id)s`) and its URL parameters."""
    possibilities = get_resolver().reverse_dict.getlist(url_name)
    if not possibilities:
        raise LookupError(f"No route is named {url_name!r}.")
    template, params = possibilities[0][0][0]
    return template, tuple(params)


def path_params(url_name: str) -> tuple[str, ...]:
    """The URL parameters of a route (`chain_id` of /chains/{chain_id}), in order."""
    return _route(url_name)[1]


def path_template(url_name: str) -> str:
    """A route's path with its parameters in braces: /chains/{chain_id}."""
    template, params = _route(url_name)
    return "/" + template % {param: f"{{{param}}}" for param in params}


def _query_string(data: dict) -> str:
    pairs = []
    for key, value in data.items():
        for item in value if isinstance(value, list) else [value]:
            if item is None:
                continue
            if isinstance(item, bool):
                item = "true" if item else "false"
            elif isinstance(item, (int, float)):
                item = json.dumps(item)
            elif not isinstance(item, str):
                raise invalid_input(key, "Expected a string, a number, a boolean or a list of them.")
            pairs.append((key, item))
    return urlencode(pairs)


def _inner_request(request, method: str, path: str, query_string: str, body: bytes, holder):
    environ = {key: value for key, value in request.META.items() if key not in _OUTER_ONLY}
    environ.update({
        "REQUEST_METHOD": method,
        "PATH_INFO": path[len(get_script_prefix()) - 1:],
        "QUERY_STRING": query_string,
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
    })
    inner = WSGIRequest(environ)
    inner.request_id = getattr(request, "request_id", None)
    # DRF's Request authenticates with these instead of the headers (checked once already).
    inner._force_auth_user = inner._force_auth_token = holder
    return inner


def _outcome(response):
    content = response.content
    if response.status_code < 400:
        return json.loads(content) if content else None
    try:
        document = json.loads(content)
    except ValueError:
        document = None
    if not isinstance(document, dict) or "status" not in document:
        document = None
    try:
        phrase = HTTPStatus(response.status_code).phrase
    except ValueError:
        phrase = "Error"
    message = document["detail"] if document else phrase
    headers = {name: response[name] for name in KEPT_HEADERS if name in response}
    raise RpcError(response.status_code, message, document, headers)

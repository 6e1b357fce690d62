"""The API's routes, found by walking the URL resolver: a route added later is tested
(auth matrix, OpenAPI) without anyone listing it by hand."""

import re
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authentication import SessionAuthentication
from rest_framework.views import APIView

from core.schema_hooks import schema_path
from registry.authentication import BearerKeyAuthentication
from registry.permissions import ScopePermission

# DRF views anyone may call: the schema and its docs pages.
PUBLIC_PATHS = {"/v1/openapi.json", "/v1/docs", "/v1/docs/try"}
# Methods that every view answers the same way (HEAD as GET, OPTIONS as metadata).
_IMPLIED_METHODS = {"head", "options"}
_REGEX_PARAM = re.compile(r"\(\?P<(\w+)>[^)]*\)")
_ROUTE_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


@dataclass(frozen=True)
class Route:
    method: str  # lowercase, as the test client's method names
    path: str  # concrete, with "1" for each parameter
    template: str  # as the OpenAPI schema writes it: /v1/admin/chains/{chainId}
    view: type[APIView]

    def __str__(self):
        return f"{self.method.upper()} {self.path}"

    @property
    def uses_bearer(self) -> bool:
        classes = self.view.authentication_classes
        return any(issubclass(cls, BearerKeyAuthentication) for cls in classes)

    @property
    def scope(self) -> str | None:
        """The key scope the route needs; None for a public route."""
        scopes = [p.scope for p in self.view.permission_classes if issubclass(p, ScopePermission)]
        return scopes[0] if scopes else None


def _patterns(patterns, prefix=""):
    for entry in patterns:
        text = prefix + str(entry.pattern).lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            yield from _patterns(entry.url_patterns, text)
        elif isinstance(entry, URLPattern):
            yield text, entry.callback


def _methods(callback) -> list[str]:
    view = callback.cls
    actions = getattr(callback, "actions", None)  # a ViewSet: {"get": "list", ...}
    # The router maps PUT even where http_method_names refuses it (405): not a route.
    names = set(actions) if actions else {m for m in view.http_method_names if hasattr(view, m)}
    return sorted(names & set(view.http_method_names) - _IMPLIED_METHODS)


def _by_session(view) -> bool:
    """The issuer pages' JSON (issuance/api/): a browser's session and CSRF token, no key."""
    return any(issubclass(cls, SessionAuthentication) for cls in view.authentication_classes)


def api_routes(urlconf: str = "config.urls") -> list[Route]:
    """Every method of every DRF route of the keyed API (the Django admin site, plain views
    and the issuer pages' session-authenticated JSON left out)."""
    routes = []
    for text, callback in _patterns(get_resolver(urlconf).url_patterns):
        view = getattr(callback, "cls", None)
        if (view is None or not issubclass(view, APIView) or text.startswith("admin/")
                or _by_session(view)):
            continue
        path = "/" + _ROUTE_PARAM.sub("1", _REGEX_PARAM.sub("1", text))
        template = schema_path("/" + _ROUTE_PARAM.sub(r"{\1}", _REGEX_PARAM.sub(r"{\1}", text)))
        routes.extend(Route(method, path, template, view) for method in _methods(callback))
    return routes


def scoped_routes() -> list[Route]:
    return [route for route in api_routes() if route.scope is not None]

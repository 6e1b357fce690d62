"""Key authentication: `Authorization: Bearer <key>` on /v1/admin, `X-API-Key` elsewhere.

Both return a `KeyHolder` as request.user and request.auth; permissions check its scope.
"""

import hmac
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from registry.models.api_keys import KeyScope, find_cached, key_digest


@dataclass(frozen=True)
class KeyHolder:
    """Who made the request: a stored key, or one of the keys set in the environment."""

    scope: str
    name: str
    prefix: str
    key_id: int | None = None

    is_authenticated = True
    is_anonymous = False

    @property
    def pk(self):
        return self.key_id if self.key_id is not None else self.prefix

    def grants(self, scope: str) -> bool:
        return self.scope in (scope, KeyScope.ADMIN)


@lru_cache(maxsize=8)
def _environment_keys(admin_key: str, api_key: str, pepper: str) -> tuple[tuple[str, KeyHolder], ...]:
    keys = []
    if admin_key:
        keys.append((key_digest(admin_key), KeyHolder(KeyScope.ADMIN, "ADMIN_API_KEY", "env:admin")))
    if api_key:
        keys.append((key_digest(api_key), KeyHolder(KeyScope.API, "API_KEY", "env:api")))
    return tuple(keys)


def authenticate_key(raw_key: str) -> KeyHolder:
    """The holder of `raw_key`, asked of the environment's keys, then of the shared cache
    (then the database); AuthenticationFailed when it is unknown, expired or revoked."""
    digest = key_digest(raw_key)
    env_keys = _environment_keys(
        settings.ADMIN_API_KEY, settings.API_KEY, settings.API_KEY_PEPPER or settings.SECRET_KEY
    )
    for env_digest, holder in env_keys:
        if hmac.compare_digest(digest, env_digest):
            return holder
    key = find_cached(raw_key, digest)
    if key is None:
        raise exceptions.AuthenticationFailed("Invalid API key.", code="invalid_key")
    if key.is_revoked:
        raise exceptions.AuthenticationFailed("This API key has been revoked.", code="revoked_key")
    now = timezone.now()
    if key.is_expired(now):
        raise exceptions.AuthenticationFailed("This API key has expired.", code="expired_key")
    key.touch(now)
    return KeyHolder(key.scope, key.name, key.display_prefix, key.pk)


def _authenticated(raw_key: str, empty: str):
    """DRF's (user, auth) pair for a key sent in a header: both the KeyHolder."""
    raw_key = raw_key.strip()
    if not raw_key:
        raise exceptions.AuthenticationFailed(empty, code="invalid_key")
    holder = authenticate_key(raw_key)
    return holder, holder


def not_authenticated(request) -> exceptions.NotAuthenticated:
    """The 401 of a request that sent no key the route reads: it names the header the
    route reads, and says so when the key came in the other one (an api key as Bearer, an
    admin key as X-API-Key), which the route does not read."""
    for authenticator in getattr(request, "authenticators", None) or ():
        if hasattr(authenticator, "missing_key"):
            return exceptions.NotAuthenticated(authenticator.missing_key(request))
    return exceptions.NotAuthenticated()


class BearerKeyAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bearer <key>` (the administration endpoints)."""

    def missing_key(self, request) -> str:
        if request.META.get("HTTP_X_API_KEY") is not None:
            return ("This route reads the key from the Authorization header "
                    "(Authorization: Bearer <key>), not from X-API-Key.")
        return ("Authentication credentials were not provided: send an admin key as "
                "Authorization: Bearer <key>.")

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer":
            raise exceptions.AuthenticationFailed(
                "Use the Authorization header with the Bearer scheme.", code="invalid_scheme"
            )
        return _authenticated(token, "The bearer token is empty.")

    def authenticate_header(self, request):
        return 'Bearer realm="admin"'


class ApiKeyHeaderAuthentication(authentication.BaseAuthentication):
    """`X-API-Key: <key>` (every other endpoint)."""

    def missing_key(self, request) -> str:
        if request.META.get("HTTP_AUTHORIZATION"):
            return ("This route reads the key from the X-API-Key header "
                    "(X-API-Key: <key>), not from Authorization.")
        return ("Authentication credentials were not provided: send the key as "
                "X-API-Key: <key>.")

    def authenticate(self, request):
        raw_key = request.META.get("HTTP_X_API_KEY")
        if raw_key is None:
            return None
        return _authenticated(raw_key, "The X-API-Key header is empty.")

    def authenticate_header(self, request):
        return 'ApiKey realm="api", header="X-API-Key"'


class BearerKeyScheme(OpenApiAuthenticationExtension):
    target_class = BearerKeyAuthentication
    name = "AdminBearer"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": (
            "An API key of scope admin as `Authorization: Bearer <key>` (the admin API, "
            "/v1/admin). Keys look like `crk_0123456789ab.<secret>`.")}


class ApiKeyHeaderScheme(OpenApiAuthenticationExtension):
    target_class = ApiKeyHeaderAuthentication
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "X-API-Key", "description": (
            "An API key in the `X-API-Key` header: of scope api (the queries, verification, "
            "workflows, /trpc), executor (/v1/chain-registry) or admin (any of them).")}

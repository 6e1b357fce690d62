from rest_framework.permissions import BasePermission

from registry.authentication import not_authenticated
from registry.models.api_keys import KeyScope


class ScopePermission(BasePermission):
    """The key must carry `scope` (an admin key carries every scope)."""

    scope: str

    def has_permission(self, request, view):
        holder = request.auth
        if holder is None:  # a 401 with WWW-Authenticate, naming the header to use
            raise not_authenticated(request)
        if not holder.grants(self.scope):
            self.message = f"A key of scope '{holder.scope}' cannot do this; it needs '{self.scope}'."
            return False
        return True


class HasAdminScope(ScopePermission):
    scope = KeyScope.ADMIN


class HasApiScope(ScopePermission):
    scope = KeyScope.API


class HasExecutorScope(ScopePermission):
    scope = KeyScope.EXECUTOR

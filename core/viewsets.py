"""The bases of the API's ViewSets.

Which key opens the administration ones is the project's choice, named in settings
(ADMIN_AUTHENTICATION_CLASSES, ADMIN_PERMISSION_CLASSES) as DRF's defaults are: the ground
floor imports no app.
"""

from django.conf import settings
from django.urls import reverse
from django.utils.module_loading import import_string
from rest_framework import viewsets

from core.conditional import ConditionalMixin


def _classes(setting: str) -> list[type]:
    return [import_string(path) for path in getattr(settings, setting)]


def created_headers(url_name: str, **kwargs) -> dict[str, str]:
    """The headers of a 201: `Location`, the absolute path of what was created (a path, not
    a URL: it holds behind any proxy, whatever Host the request came with)."""
    return {"Location": reverse(url_name, kwargs=kwargs)}


class CreatedLocationMixin:
    """`Location` on the 201 of CreateModelMixin: the created record's `{basename}-detail`
    route. (DRF's own would copy a `url` field, which is an RPC endpoint's URL here.)"""

    def get_success_headers(self, data):
        kwarg = self.lookup_url_kwarg or self.lookup_field
        value = data["id" if self.lookup_field == "pk" else self.lookup_field]
        return created_headers(f"{self.basename}-detail", **{kwarg: value})


class AdminAccess:
    """The admin key check, for an admin ViewSet that is not a full ModelViewSet."""

    authentication_classes = _classes("ADMIN_AUTHENTICATION_CLASSES")
    permission_classes = _classes("ADMIN_PERMISSION_CLASSES")


class AdminViewSet(AdminAccess, CreatedLocationMixin, ConditionalMixin, viewsets.ModelViewSet):
    # Administration endpoints: Bearer admin key; PATCH, never PUT. Each write is one
    # validated save, so a failed request writes nothing. Creates answer Location, item
    # reads an ETag, and writes honour If-Match. (A comment, not a docstring:
    # drf-spectacular would publish it as every operation's description.)

    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

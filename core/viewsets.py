"""The base of the administration ViewSets.

Which key opens them is the project's choice, named in settings (ADMIN_AUTHENTICATION_CLASSES,
ADMIN_PERMISSION_CLASSES) as DRF's defaults are: the ground floor imports no app.
"""

from django.conf import settings
from django.utils.module_loading import import_string
from rest_framework import viewsets


def _classes(setting: str) -> list[type]:
    return [import_string(path) for path in getattr(settings, setting)]


class AdminAccess:
    """The admin key check, for an admin ViewSet that is not a full ModelViewSet."""

    authentication_classes = _classes("ADMIN_AUTHENTICATION_CLASSES")
    permission_classes = _classes("ADMIN_PERMISSION_CLASSES")


class AdminViewSet(AdminAccess, viewsets.ModelViewSet):
    # Administration endpoints: Bearer admin key; PATCH, never PUT. Each write is one
    # validated save, so a failed request writes nothing. (A comment, not a docstring:
    # drf-spectacular would publish it as every operation's description.)

    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

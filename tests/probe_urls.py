"""Test-only URLs: the real ones, plus views that crash, raise Django's own 4xx exceptions,
or need a scope other than admin (no such route exists yet). Tests switch to them with
`settings.ROOT_URLCONF = "tests.probe_urls"`."""

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import IntegrityError
from django.http import Http404
from django.urls import include, path
from rest_framework.response import Response
from rest_framework.views import APIView

from registry.permissions import HasApiScope, HasExecutorScope

# Put into every crash, so that a test can tell whether the exception leaked.
SECRET_IN_THE_EXCEPTION = "do-not-show-this-connection-string"


class Crash(RuntimeError):
    pass


def plain_crash(request):
    raise Crash(SECRET_IN_THE_EXCEPTION)


class DrfCrash(APIView):
    authentication_classes = []
    permission_classes = []

    def get(self, request):
        raise Crash(SECRET_IN_THE_EXCEPTION)


# Exceptions from outside DRF that DRF views meet (get_object_or_404, a unique constraint,
# Django's own checks), by the status they must become.
DJANGO_EXCEPTIONS = {
    "not-found": (Http404, 404, "not_found"),
    "permission-denied": (PermissionDenied, 403, "permission_denied"),
    "integrity-error": (IntegrityError, 409, "duplicate"),
    "data-too-big": (RequestDataTooBig, 413, "payload_too_large"),
}


class DrfRaise(APIView):
    authentication_classes = []
    permission_classes = []

    def get(self, request, name):
        raise DJANGO_EXCEPTIONS[name][0]("raised by a test view")


def plain_not_found(request):
    raise Http404("no such thing")


def plain_forbidden(request):
    raise PermissionDenied


class ApiScopeProbe(APIView):
    """Default authentication (X-API-Key) and an api scope, like the public endpoints."""

    permission_classes = [HasApiScope]

    def get(self, request):
        return Response({"scope": request.auth.scope, "name": request.auth.name})


class ExecutorScopeProbe(ApiScopeProbe):
    permission_classes = [HasExecutorScope]


urlpatterns = [
    path("probe/crash", plain_crash),
    path("probe/drf-crash", DrfCrash.as_view()),
    path("probe/drf-raise/<str:name>", DrfRaise.as_view()),
    path("probe/not-found", plain_not_found),
    path("probe/forbidden", plain_forbidden),
    path("probe/api-scope", ApiScopeProbe.as_view()),
    path("probe/executor-scope", ExecutorScopeProbe.as_view()),
    path("", include("config.urls")),
]

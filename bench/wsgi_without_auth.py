"""Benchmark only, never deployed: the service with GET /v1/admin/chains open to anyone, so
that bench/auth.py can compare the same endpoint with and without authentication."""

from rest_framework.permissions import AllowAny

from config.wsgi import application  # noqa: F401  (sets Django up)
from registry.api.views import ChainViewSet

ChainViewSet.authentication_classes = []
ChainViewSet.permission_classes = [AllowAny]

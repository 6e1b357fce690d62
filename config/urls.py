from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from config import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("v1/openapi.json", SpectacularAPIView.as_view(), name="openapi"),
    path("v1/docs", SpectacularRedocView.as_view(url_name="openapi"), name="docs"),
    path("v1/admin/", include("registry.api.urls")),
    path("admin/", admin.site.urls),
]

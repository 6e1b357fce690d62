from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerView

from core.api_docs import RedocView
from issuance.api import urls as issuance_api_urls
from ops import health
from ops.metrics import metrics_view
from verification import pages as verification_pages
from verification.api import urls as verification_urls

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    # The busiest routes early: Django tries the patterns in order.
    *verification_urls.urlpatterns,
    path("v1/", include("executors.api.urls")),
    # The public verification page (HTML), before the catch-alls of the includes below.
    path("", verification_pages.home, name="home"),
    path("verify", verification_pages.verify_form, name="verify-page"),
    path("verify/<str:document_hash>", verification_pages.verify_verdict, name="verify-verdict"),
    # The issuer pages (HTML, behind a login) and their JSON.
    path("", include("issuance.urls")),
    *issuance_api_urls.urlpatterns,
    # The JSON view: the plain one renders YAML first, and our negotiation ignores Accept.
    path("v1/openapi.json", SpectacularJSONAPIView.as_view(), name="openapi"),
    # Redoc, loading nothing from the internet (core/api_docs.py).
    path("v1/docs", RedocView.as_view(url_name="openapi"), name="docs"),
    # Swagger UI, to try the operations from a browser with a key ("Authorize").
    path("v1/docs/try", SpectacularSwaggerView.as_view(url_name="openapi"), name="docs-try"),
    path("v1/admin/", include("registry.api.urls")),
    path("v1/admin/", include("executors.api.admin_urls")),
    path("v1/admin/", include("issuers.api.urls")),
    path("", include("attestations.api.urls")),
    path("", include("bindings.api.urls")),
    path("", include("webhooks.api.urls")),
    path("", include("trpc.urls")),
    path("admin/", admin.site.urls),
]

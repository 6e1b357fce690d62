from rest_framework.routers import SimpleRouter

from issuers.api import views

# /v1/admin/...
router = SimpleRouter(trailing_slash=False)
router.register("issuers", views.IssuerViewSet, basename="issuer")
urlpatterns = router.urls

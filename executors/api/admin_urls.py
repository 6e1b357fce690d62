from rest_framework.routers import SimpleRouter

from executors.api import views

# /v1/admin/...
router = SimpleRouter(trailing_slash=False)
router.register("executors", views.ExecutorAdminViewSet, basename="executor")
router.register("trusted-attesters", views.TrustedAttesterViewSet, basename="trusted-attester")
urlpatterns = router.urls

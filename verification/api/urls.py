from rest_framework.routers import SimpleRouter

from verification.api import views

# /v1/verify
router = SimpleRouter(trailing_slash=False)
router.register("verify", views.VerifyViewSet, basename="verify")
urlpatterns = router.urls

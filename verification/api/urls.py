from rest_framework.routers import SimpleRouter

from verification.api import views

# /v1/verify, listed at the top of config/urls.py itself: one pattern to match, not an
# include's two levels, on the busiest route.
router = SimpleRouter(trailing_slash=False)
router.register("v1/verify", views.VerifyViewSet, basename="verify")
urlpatterns = router.urls

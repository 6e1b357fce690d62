from rest_framework.routers import SimpleRouter

from executors.api import views

# /v1/chain-registry/{chain}/...
router = SimpleRouter(trailing_slash=False)
router.register("chain-registry", views.ChainRegistryViewSet, basename="chain-registry")
urlpatterns = router.urls

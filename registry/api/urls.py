from rest_framework.routers import SimpleRouter

from registry.api import views

router = SimpleRouter(trailing_slash=False)
# rpc/health before rpc/{id}: the id pattern is numeric, so they cannot collide anyway.
router.register("rpc/health", views.ProviderHealthViewSet, basename="provider-health")
router.register("chains", views.ChainViewSet, basename="chain")
router.register("categories", views.CategoryViewSet, basename="category")
router.register("contract-names", views.ContractNameViewSet, basename="contract-name")
router.register("contract-versions", views.ContractVersionViewSet, basename="contract-version")
router.register("deployments", views.DeploymentViewSet, basename="deployment")
router.register("rpc", views.RpcEndpointViewSet, basename="rpc-endpoint")
router.register("api-keys", views.ApiKeyViewSet, basename="api-key")

urlpatterns = router.urls

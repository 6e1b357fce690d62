from rest_framework.routers import SimpleRouter

from bindings.api import jobs, views

router = SimpleRouter(trailing_slash=False)
# /workflows, beside /attestations and /chains (no version prefix, SPEC section 5).
router.register("workflows", views.WorkflowViewSet, basename="workflow")
# /v1/chain-registry/{chain}/jobs/..., beside the executor registry's own actions (same
# paths and route names as when the registry served them).
router.register("v1/chain-registry", jobs.JobViewSet, basename="chain-registry")
urlpatterns = router.urls

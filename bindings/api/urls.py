from rest_framework.routers import SimpleRouter

from verification.api import workflow_views

# /workflows, beside /attestations and /chains (no version prefix, SPEC section 5).
router = SimpleRouter(trailing_slash=False)
router.register("workflows", workflow_views.WorkflowViewSet, basename="workflow")
urlpatterns = router.urls

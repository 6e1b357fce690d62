from rest_framework.routers import SimpleRouter

from attestations.api import views

# The attestation worker's paths carry no version prefix (SPEC): /chains, ...
router = SimpleRouter(trailing_slash=False)
router.register("chains", views.ChainViewSet, basename="public-chain")
router.register("schemas", views.SchemaViewSet, basename="public-schema")
router.register("attestations", views.AttestationViewSet, basename="public-attestation")
urlpatterns = router.urls

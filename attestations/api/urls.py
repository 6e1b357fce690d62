from rest_framework.routers import SimpleRouter

from attestations.api import views

# The attestation worker's paths carry no version prefix (SPEC): /chains, ...
router = SimpleRouter(trailing_slash=False)
router.register("chains", views.ChainViewSet, basename="public-chain")
router.register("schemas", views.SchemaViewSet, basename="public-schema")
# Before /attestations: its {uid} would take "offchain" for a UID.
router.register("attestations/offchain", views.OffchainAttestationViewSet,
                basename="public-offchain-attestation")
router.register("attestations", views.AttestationViewSet, basename="public-attestation")
router.register("timestamps", views.TimestampViewSet, basename="public-timestamp")
router.register("offchain-revocations", views.OffchainRevocationViewSet,
                basename="public-offchain-revocation")
urlpatterns = router.urls

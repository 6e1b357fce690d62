from rest_framework.routers import SimpleRouter

from webhooks.api import views

router = SimpleRouter(trailing_slash=False)
router.register("v1/webhooks", views.SubscriptionViewSet, basename="webhook")
router.register(r"v1/webhooks/(?P<subscription_id>[^/.]+)/deliveries",
                views.DeliveryViewSet, basename="webhook-delivery")
router.register("v1/watches", views.WatchViewSet, basename="watch")
urlpatterns = router.urls

from django.urls import path

from config.trpc import views

urlpatterns = [
    path("trpc", views.json_rpc, name="jsonrpc"),
    path("trpc/<path:paths>", views.trpc, name="trpc"),
]

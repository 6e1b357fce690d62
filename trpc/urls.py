from django.urls import path

from trpc import views

urlpatterns = [
    path("trpc", views.json_rpc, name="jsonrpc"),
    path("trpc/<path:paths>", views.trpc, name="trpc"),
]

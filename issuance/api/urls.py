from django.urls import path

from issuance.api import views

urlpatterns = [
    path("issue/api/runs", views.RunsView.as_view(), name="issue-api-runs"),
    path("issue/api/runs/<uuid:run_id>/documents", views.RunDocumentsView.as_view(),
         name="issue-api-documents"),
    path("issue/api/runs/<uuid:run_id>/progress", views.RunProgressView.as_view(),
         name="issue-api-progress"),
]

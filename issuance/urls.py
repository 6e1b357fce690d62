"""The issuer pages' routes (HTML); their JSON is issuance/api/urls.py."""

from django.urls import path

from issuance import pages

urlpatterns = [
    path("issue", pages.issue_page, name="issue-page"),
    path("issue/login", pages.IssuerLoginView.as_view(), name="issue-login"),
    path("issue/logout", pages.IssuerLogoutView.as_view(), name="issue-logout"),
    path("issue/runs/<uuid:run_id>", pages.run_page, name="issue-run"),
    path("issue/runs/<uuid:run_id>/retry", pages.run_retry_view, name="issue-retry"),
    path("issue/runs/<uuid:run_id>/receipt.json", pages.receipt_view, {"kind": "json"},
         name="issue-receipt-json"),
    path("issue/runs/<uuid:run_id>/receipt.csv", pages.receipt_view, {"kind": "csv"},
         name="issue-receipt-csv"),
    path("issue/runs/<uuid:run_id>/slips.zip", pages.slips_zip_view, name="issue-slips"),
    path("issue/runs/<uuid:run_id>/documents/<str:document_hash>/qr.svg", pages.qr_view,
         name="issue-qr"),
    path("issue/runs/<uuid:run_id>/documents/<str:document_hash>/slip", pages.slip_view,
         name="issue-slip"),
]

from django.contrib import admin

from issuance.models import Membership


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """Which tenant (API key) each user binds for on the issuer pages (/issue)."""

    list_display = ["user", "api_key"]
    search_fields = ["user__username", "api_key__name", "api_key__prefix"]
    autocomplete_fields = ["user"]
    raw_id_fields = ["api_key"]

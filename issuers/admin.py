from django import forms
from django.contrib import admin, messages
from rest_framework.exceptions import ValidationError as ApiValidationError

from issuers.models import IdentityCheck, Issuer, IssuerAddress
from issuers.serializers import validate_domain
from issuers.services import issuer_check
from issuers.tasks import queue_check


class IssuerForm(forms.ModelForm):
    class Meta:
        model = Issuer
        fields = ["name", "domain"]

    def clean_domain(self):
        try:  # the API's rule and message
            return validate_domain(self.cleaned_data["domain"])
        except ApiValidationError as exc:
            raise forms.ValidationError(exc.detail[0]) from None


class AddressForm(forms.ModelForm):
    class Meta:
        model = IssuerAddress
        fields = ["chain", "address"]

    def clean_address(self):
        return self.cleaned_data["address"].lower()  # stored lowercase, as the API stores it


class AddressInline(admin.TabularInline):
    model = IssuerAddress
    form = AddressForm
    fields = ["chain", "address", "identity", "dns_proven_at", "did_web_proven_at"]
    readonly_fields = ["identity", "dns_proven_at", "did_web_proven_at"]
    extra = 1


class CheckInline(admin.TabularInline):
    model = IdentityCheck
    fields = ["checked_at", "method", "chain_id", "address", "proven", "reason", "dnssec"]
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    ordering = ["-checked_at", "-id"]

    def get_queryset(self, request):
        return super().get_queryset(request).order_by("-checked_at", "-id")


@admin.register(Issuer)
class IssuerAdmin(admin.ModelAdmin):
    form = IssuerForm
    list_display = ["name", "domain", "identity", "checked_at"]
    list_filter = ["identity"]
    search_fields = ["name", "domain", "addresses__address"]
    readonly_fields = ["identity", "checked_at", "created_at"]
    inlines = [AddressInline, CheckInline]
    actions = ["check_now"]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        queue_check(form.instance.pk)  # its proofs, once the save is committed

    @admin.action(description="Check the identity proofs now")
    def check_now(self, request, queryset):
        for issuer in queryset:
            issuer = issuer_check(issuer_id=issuer.pk)
            if issuer is not None:
                self.message_user(request, f"{issuer.domain}: {issuer.identity}",
                                  messages.SUCCESS)

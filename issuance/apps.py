from django.apps import AppConfig


class IssuanceConfig(AppConfig):
    name = "issuance"
    verbose_name = "Issuer pages"
    default_auto_field = "django.db.models.BigAutoField"

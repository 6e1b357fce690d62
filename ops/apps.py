from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running the service: health and readiness, metrics, the access log, the audit trail."""

    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        from ops.audit import connect_actor, install_admin, register_models

        register_models()
        connect_actor()
        install_admin()

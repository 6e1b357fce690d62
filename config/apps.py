from django.apps import AppConfig


class ProjectConfig(AppConfig):
    """The project's own wiring, an app only so that its management commands are found."""

    name = "config"
    verbose_name = "Project"

import sys

from django.apps import AppConfig

PYTHON_DEFAULT_RECURSION_LIMIT = 1000


class ProjectConfig(AppConfig):
    """The project's own wiring, an app for its management commands and start-up."""

    name = "config"
    verbose_name = "Project"

    def ready(self):
        # py_ecc (imported by web3 through eth_account) raises the recursion limit to
        # 100,000 for BLS code we never run. On CPython 3.11 deep recursion in C - json of
        # a hostile request body or RPC answer - then overflows the stack and kills the
        # process instead of raising RecursionError. Import it once now, and restore.
        import py_ecc  # noqa: F401

        sys.setrecursionlimit(PYTHON_DEFAULT_RECURSION_LIMIT)

        from config.audit import connect_actor, install_admin, register_models

        register_models()
        connect_actor()
        install_admin()

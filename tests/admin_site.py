"""What the Django admin-site tests of every app share."""

from functools import partial

from django.urls import reverse


def admin_url(app: str, model: str, view: str, *args) -> str:
    return reverse(f"admin:{app}_{model}_{view}", args=args)


def admin_urls_of(app: str):
    """`admin_url` for one app: `admin_urls_of("registry")("chain", "changelist")`."""
    return partial(admin_url, app)

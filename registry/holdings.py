"""What an API key holds beyond itself, ended with it.

An executor key's executors hold trust, an api or admin key's webhook subscriptions receive
events: both live in apps above this one. Each registers here, when it starts
(AppConfig.ready), what revoking (or deleting) a key ends; ApiKey's revoke and delete call
them in their own transaction, so every way of revoking a key (the Django admin, the admin
API, the model) ends it all at once, or nothing when the transaction rolls back. (The shape
of core.events: this module is the whole coupling, and registry imports no app above it.)
"""

from collections.abc import Callable
from datetime import datetime

# ender(prefixes=[display prefixes, "crk_..."], now=...): ends what those keys held.
Ender = Callable[..., None]

_enders: list[Ender] = []


def on_key_ended(ender: Ender) -> None:
    """Register `ender` (once: AppConfig.ready may run again in tests)."""
    if ender not in _enders:
        _enders.append(ender)


def end(prefixes: list[str], *, now: datetime) -> None:
    """End what the keys of `prefixes` held. Call inside the revoking transaction."""
    if prefixes:
        for ender in _enders:
            ender(prefixes=prefixes, now=now)

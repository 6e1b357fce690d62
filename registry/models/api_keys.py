import hmac
import re
import secrets
from datetime import datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone

from registry import holdings, key_cache

KEY_PATTERN = re.compile(r"crk_(?P<prefix>[0-9a-f]{12})\.(?P<secret>[A-Za-z0-9_-]{43})")
TOUCH_INTERVAL = timedelta(seconds=key_cache.USE_INTERVAL_SECONDS)


class KeyScope(models.TextChoices):
    ADMIN = "admin"
    API = "api"
    EXECUTOR = "executor"


def key_digest(raw_key: str) -> str:
    """HMAC-SHA256 of a key under the server's pepper: what we store and compare."""
    pepper = (settings.API_KEY_PEPPER or settings.SECRET_KEY).encode()
    return hmac.digest(pepper, raw_key.encode(), "sha256").hex()  # one-shot, in OpenSSL


def _matching(key, raw_key: str, digest: str | None = None):
    # Constant-time on the secret part; the prefix is public.
    if key and hmac.compare_digest(key.digest, digest or key_digest(raw_key)):
        return key
    return None


class KeyState:
    """What a key's fields say of it: the same for the model and for its cached copy."""

    __slots__ = ()

    @property
    def display_prefix(self) -> str:
        return f"crk_{self.prefix}"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def is_expired(self, now=None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())


class _CachedKeyFields(NamedTuple):
    pk: int
    prefix: str
    digest: str
    scope: str
    name: str
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None


class CachedKey(_CachedKeyFields, KeyState):
    """What authentication needs of a stored key, as the cache holds it (a tuple: a model
    instance costs every request several times more to unpickle)."""

    __slots__ = ()

    @classmethod
    def of(cls, key: "ApiKey") -> "CachedKey":
        return cls(key.pk, key.prefix, key.digest, key.scope, key.name, key.expires_at,
                   key.revoked_at, key.last_used_at)

    def touch(self, now=None) -> None:
        """Record use, at most once a minute, so that authentication rarely writes."""
        now = now or timezone.now()
        if self.last_used_at is not None and now - self.last_used_at < TOUCH_INTERVAL:
            return
        if not key_cache.records_use(self.prefix):  # another request did, this minute
            return
        stale = models.Q(last_used_at__isnull=True) | models.Q(last_used_at__lt=now - TOUCH_INTERVAL)
        ApiKey.objects.filter(stale, pk=self.pk).update(last_used_at=now)


def find_cached(raw_key: str, digest: str | None = None) -> CachedKey | None:
    """The stored key matching `raw_key` (as ApiKey.objects.find), read through the shared
    cache (registry/key_cache.py) as a CachedKey. `digest`: key_digest(raw_key), when the
    caller has it already."""
    match = KEY_PATTERN.fullmatch(raw_key)
    if match is None:
        return None
    digest = digest or key_digest(raw_key)

    def load():
        found = _matching(ApiKey.objects.filter(prefix=match["prefix"]).first(), raw_key, digest)
        return CachedKey.of(found) if found is not None else False

    return _matching(key_cache.read_through(digest, load), raw_key, digest)


class ApiKeyQuerySet(models.QuerySet):
    def find(self, raw_key: str):
        """The stored key matching `raw_key`, or None, read from the database."""
        match = KEY_PATTERN.fullmatch(raw_key)
        if match is None:
            return None
        return _matching(self.filter(prefix=match["prefix"]).first(), raw_key)

    def revoke(self) -> int:
        """Revoke these keys, and end what they held (registry/holdings.py: their
        executors' trust, their webhook subscriptions; their allow-lists), in one
        transaction. Each key is saved (the audit trail records it; save() forgets it)."""
        now = timezone.now()
        with transaction.atomic():
            keys = list(self.filter(revoked_at__isnull=True).select_for_update())
            for key in keys:
                key.revoked_at, key.allowed_addresses = now, []
                key.save(update_fields=["revoked_at", "allowed_addresses"])
            holdings.end([key.display_prefix for key in keys], now=now)
        return len(keys)

    def delete(self):
        # A deleted key ends what it held as a revoked one does (the same transaction).
        with transaction.atomic():
            keys = list(self.values_list("prefix", "digest"))
            holdings.end([f"crk_{prefix}" for prefix, _ in keys], now=timezone.now())
            key_cache.forget([digest for _, digest in keys])
            return super().delete()


class ApiKey(KeyState, models.Model):
    """An API key. Only its HMAC is stored; the key itself is shown once, at creation."""

    name = models.CharField(max_length=100)
    scope = models.CharField(max_length=16, choices=KeyScope.choices)
    prefix = models.CharField(max_length=12, unique=True, editable=False)
    digest = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    # An executor key's standing allow-list (executors/trust.py): an executor it registers at
    # one of these addresses is trusted without waiting for an administrator's approval.
    allowed_addresses = models.JSONField(
        default=list, blank=True,
        help_text="Addresses (0x + 40 lowercase hex) this executor key's executors are trusted "
        "at without an administrator's approval. Emptied when the key is revoked.")

    objects = ApiKeyQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API key"

    def __str__(self):
        return f"{self.name} ({self.display_prefix})"

    @classmethod
    def issue(cls, *, name: str, scope: str, expires_at=None) -> tuple["ApiKey", str]:
        """Create a key; returns it with the raw key, which is never stored."""
        key = cls(name=name, scope=scope, expires_at=expires_at)
        raw_key = key.generate()
        key.save()
        return key, raw_key

    def generate(self) -> str:
        """Give this (unsaved) key fresh random material; returns the raw key."""
        self.prefix = secrets.token_hex(6)
        raw_key = f"crk_{self.prefix}.{secrets.token_urlsafe(32)}"
        self.digest = key_digest(raw_key)
        return raw_key

    def save(self, *args, **kwargs):
        changed = not self._state.adding  # a new key's digest was never asked for
        super().save(*args, **kwargs)
        if changed:
            key_cache.forget([self.digest])

    def delete(self, *args, **kwargs):
        with transaction.atomic():
            holdings.end([self.display_prefix], now=timezone.now())
            key_cache.forget([self.digest])
            return super().delete(*args, **kwargs)

    def revoke(self) -> None:
        """As ApiKeyQuerySet.revoke: what the key held ends with it."""
        if self.revoked_at is None:
            ApiKey.objects.filter(pk=self.pk).revoke()
            self.refresh_from_db(fields=["revoked_at", "allowed_addresses"])


import hmac
import re
import secrets
import time
from datetime import datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed
from django.db import models, transaction
from django.dispatch import receiver
from django.utils import timezone

from registry import holdings

KEY_PATTERN = re.compile(r"crk_(?P<prefix>[0-9a-f]{12})\.(?P<secret>[A-Za-z0-9_-]{43})")
TOUCH_INTERVAL = timedelta(minutes=1)
# Authentication reads a key through the cache, at most once a minute from the database;
# saving, revoking or deleting a key drops its entry (in every process, with a shared cache).
CACHE_SECONDS = 60


def _cache_key(prefix: str) -> str:
    return f"api-key:v2:{prefix}"  # (generation, CachedKey | False)


def _generation_key(prefix: str) -> str:
    return f"api-key-generation:{prefix}"


def forget_cached(prefixes) -> None:
    """Drop cached keys now and again after the transaction commits.

    A request that read the row before the change may write it back into the cache after
    both (its database read raced the revocation): each entry is tagged with the key's
    generation as it was before that read, and each change starts a new generation, so such
    a late write is never taken. The same for this process's memo (forget_recent)."""
    names = [_cache_key(prefix) for prefix in prefixes]

    def forget():
        cache.set_many({_generation_key(prefix): secrets.token_hex(8) for prefix in prefixes},
                       timeout=None)
        cache.delete_many(names)
        forget_recent(prefixes)

    forget()
    transaction.on_commit(forget)


# Keys this process authenticated in the last API_KEY_MEMO_SECONDS: raw key -> (what it
# authenticates as, its CachedKey (None for a key set in the environment), until when, by
# time.monotonic()). Such a key is not looked up again meanwhile: no HMAC, no cache read
# (a Redis round trip in production). Only keys that authenticated are kept, so clients
# cannot fill it; saving, revoking or deleting a key drops it here at once, and from the
# memo of other processes within API_KEY_MEMO_SECONDS (docs/decisions.md).
_recent: dict[str, tuple[object, "CachedKey | None", float]] = {}
RECENT_LIMIT = 1024
# Moves on whenever keys are forgotten: a lookup that started before does not remember.
_memo_generation = 0


def memo_generation() -> int:
    return _memo_generation


def recent(raw_key: str) -> tuple[object, "CachedKey | None"] | None:
    """(holder, key) remembered for `raw_key`, if it is still fresh."""
    found = _recent.get(raw_key)
    if found is None or found[2] <= time.monotonic():
        return None
    return found[0], found[1]


def remember_recent(raw_key: str, holder, key: "CachedKey | None", generation: int) -> None:
    """Remember what a lookup that started at memo `generation` found, unless some key was
    forgotten since (it may have been this one, revoked while the lookup ran)."""
    seconds = settings.API_KEY_MEMO_SECONDS
    if seconds <= 0 or generation != _memo_generation:
        return
    if len(_recent) >= RECENT_LIMIT:
        _recent.clear()  # a burst of distinct keys: start over rather than track age
    _recent[raw_key] = (holder, key, time.monotonic() + seconds)


def forget_recent(prefixes=None) -> None:
    """Drop the remembered keys of `prefixes` (all of them when None)."""
    global _memo_generation
    _memo_generation += 1
    if prefixes is None:
        _recent.clear()
        return
    dropped = set(prefixes)
    for raw_key, (_, key, _) in list(_recent.items()):
        if key is not None and key.prefix in dropped:
            _recent.pop(raw_key, None)


@receiver(setting_changed)
def _settings_changed(setting, **kwargs):
    # Tests switch the environment's keys and the pepper: what was remembered may be wrong.
    if setting in ("ADMIN_API_KEY", "API_KEY", "API_KEY_PEPPER", "SECRET_KEY",
                   "API_KEY_MEMO_SECONDS"):
        forget_recent()


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


# prefix -> until when (time.monotonic()) this process leaves recording its use to others
_recorded_elsewhere: dict[str, float] = {}


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
        # The cached copy may hold an old last_used_at: this flag lets one request a minute
        # through to the database (across processes, when the cache is shared). A process
        # that found the flag set does not ask again for a minute.
        if _recorded_elsewhere.get(self.prefix, 0) > time.monotonic():
            return
        if not cache.add(f"api-key-used:{self.prefix}", True, TOUCH_INTERVAL.total_seconds()):
            _recorded_elsewhere[self.prefix] = time.monotonic() + TOUCH_INTERVAL.total_seconds()
            return
        stale = models.Q(last_used_at__isnull=True) | models.Q(last_used_at__lt=now - TOUCH_INTERVAL)
        ApiKey.objects.filter(stale, pk=self.pk).update(last_used_at=now)


def find_cached(raw_key: str, digest: str | None = None) -> CachedKey | None:
    """The stored key matching `raw_key` (as ApiKey.objects.find), read through the cache
    as a CachedKey; unknown prefixes are cached too, as False. `digest`: key_digest(raw_key),
    when the caller has it already."""
    match = KEY_PATTERN.fullmatch(raw_key)
    if match is None:
        return None
    name, generation_name = _cache_key(match["prefix"]), _generation_key(match["prefix"])
    cached = cache.get_many([name, generation_name])  # one round trip
    generation = cached.get(generation_name)
    entry = cached.get(name)
    if entry is not None and entry[0] == generation:
        key = entry[1]
    else:  # missing, or written back by a lookup that a change overtook (forget_cached)
        found = ApiKey.objects.filter(prefix=match["prefix"]).first()
        key = CachedKey.of(found) if found is not None else False
        cache.set(name, (generation, key), CACHE_SECONDS)
    return _matching(key, raw_key, digest)


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
            prefixes = list(self.values_list("prefix", flat=True))
            holdings.end([f"crk_{prefix}" for prefix in prefixes], now=timezone.now())
            forget_cached(prefixes)
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
        super().save(*args, **kwargs)
        forget_cached([self.prefix])

    def delete(self, *args, **kwargs):
        with transaction.atomic():
            holdings.end([self.display_prefix], now=timezone.now())
            forget_cached([self.prefix])
            return super().delete(*args, **kwargs)

    def revoke(self) -> None:
        """As ApiKeyQuerySet.revoke: what the key held ends with it."""
        if self.revoked_at is None:
            ApiKey.objects.filter(pk=self.pk).revoke()
            self.refresh_from_db(fields=["revoked_at", "allowed_addresses"])


"""Reading configuration from the environment: every bad value names its variable."""

import ipaddress

import environ
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}
POSTGRESQL = "django.db.backends.postgresql"
RATE_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60,
                "h": 3600, "hour": 3600, "d": 86400, "day": 86400}


def parse_resolvers(values: list[str]) -> list[tuple[str, int]]:
    """IDENTITY_DNS_RESOLVERS: "ip", "ip:port", "[ipv6]:port" -> [(ip, port)]."""
    found = []
    for value in values:
        host, port = value, "53"
        if value.startswith("["):
            host, _, rest = value[1:].partition("]")
            port = rest.removeprefix(":") or "53"
        elif value.count(":") == 1:
            host, port = value.split(":")
        try:
            found.append((str(ipaddress.ip_address(host)), int(port)))
        except ValueError:
            raise ImproperlyConfigured(
                f"IDENTITY_DNS_RESOLVERS: {value!r} is not an IP address with an optional "
                "port") from None
        if not 0 < found[-1][1] < 65536:
            raise ImproperlyConfigured(f"IDENTITY_DNS_RESOLVERS: {value!r} has no valid port")
    return found


class Env(environ.Env):
    """django-environ, but a value that fails to parse says which variable it came from."""

    def get_value(self, var, cast=None, default=environ.Env.NOTSET, parse_default=False):
        try:
            return super().get_value(var, cast=cast, default=default, parse_default=parse_default)
        except ImproperlyConfigured:
            raise
        except Exception as exc:  # a cast failed: int("abc"), a bad URL, ...
            raise ImproperlyConfigured(f"{var} has an invalid value: {exc}") from exc

    def strict_bool(self, var, default):
        # environ's bool() reads any unknown word as False; a typo in DEBUG should not.
        raw = self.str(var, default=str(default)).strip().lower()
        if raw in TRUE_WORDS:
            return True
        if raw in FALSE_WORDS:
            return False
        raise ImproperlyConfigured(f"{var} must be one of true/false/1/0/yes/no, not {raw!r}")

    def positive_int(self, var, default):
        value = self.int(var, default=default)
        if value <= 0:
            raise ImproperlyConfigured(f"{var} must be a positive integer, not {value}")
        return value

    def non_negative_int(self, var, default):
        value = self.int(var, default=default)
        if value < 0:
            raise ImproperlyConfigured(f"{var} must be 0 or a positive integer, not {value}")
        return value

    def int_between(self, var, default, low, high):
        value = self.int(var, default=default)
        if not low <= value <= high:
            raise ImproperlyConfigured(f"{var} must be an integer from {low} to {high}, not {value}")
        return value

    def api_key(self, var):
        # A key from the environment is compared like a generated one, so it must be as
        # hard to guess: "admin" in ADMIN_API_KEY would open the whole registry.
        value = self.str(var, default="").strip()
        if value and len(value) < 32:
            raise ImproperlyConfigured(
                f"{var} must be at least 32 characters (a random key), or unset; "
                f"it has {len(value)}."
            )
        return value

    def rate(self, var, default):
        """`"600/min"` -> (600, 60); `"none"` -> None (unlimited)."""
        value = self.str(var, default=default).strip().lower()
        if value in ("none", "off", "unlimited"):
            return None
        count, _, period = value.partition("/")
        if not count.isdigit() or int(count) <= 0 or period not in RATE_PERIODS:
            raise ImproperlyConfigured(
                f"{var} must look like 600/min (a positive count per s, min, hour or day) "
                f"or 'none', not {value!r}"
            )
        return int(count), RATE_PERIODS[period]

    def replica_databases(self, var, primary: dict, *, prepared_statements: bool) -> dict:
        """The read replicas' DATABASES entries (replica1, replica2, ...) from a list of URLs:
        PostgreSQL replicas of a PostgreSQL primary, configured as it is (kept connections,
        health checks, prepared statements per connection), plus a short connect timeout
        (a replica that is down must not hold a request up) unless the URL sets one."""
        replicas = {}
        for index, url in enumerate(self.list(var, default=[]), start=1):
            try:
                replica = self.db_url_config(url.strip())
            except Exception as exc:
                raise ImproperlyConfigured(f"{var} has an invalid URL: {exc}") from exc
            if POSTGRESQL != replica["ENGINE"] or POSTGRESQL != primary["ENGINE"]:
                raise ImproperlyConfigured(f"{var} are PostgreSQL streaming replicas of a "
                                           "PostgreSQL DATABASE_URL.")
            replica.setdefault("CONN_MAX_AGE", primary.get("CONN_MAX_AGE", 0))
            replica["CONN_HEALTH_CHECKS"] = primary.get("CONN_HEALTH_CHECKS", False)
            options = replica.setdefault("OPTIONS", {})
            options.setdefault("connect_timeout", 2)
            if prepared_statements:
                options.setdefault("prepare_threshold", 0)
            replica["TEST"] = {"MIRROR": "default"}  # tests read the test database through it
            replicas[f"replica{index}"] = replica
        return replicas

    @staticmethod
    def secret_weakness(secret: str, development_key: str) -> str | None:
        """Why `secret` is not fit for production, or None (Django's own rules, and ours)."""
        if secret == development_key or secret.startswith("django-insecure"):
            return "a published development key"
        if len(secret) < 50 or len(set(secret)) < 5:
            return f"{len(secret)} characters, {len(set(secret))} distinct; 50 and 5 needed"
        return None

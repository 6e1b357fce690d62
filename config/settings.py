"""Settings, all from the environment (and a `.env` file beside manage.py).

The embedded default needs nothing else: SQLite, an in-process cache, and Celery tasks run
in-process. Production sets DATABASE_URL, CELERY_BROKER_URL and CACHE_URL (see README).
"""

import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import Env, parse_resolvers
from core.document_hash import DEFAULT_ALGORITHMS, parse_algorithms

BASE_DIR = Path(__file__).resolve().parent.parent
env = Env()
Env.read_env(BASE_DIR / ".env")  # does not override variables already set

DEBUG = env.strict_bool("DEBUG", default=False)
DEVELOPMENT_SECRET_KEY = "insecure-development-key-do-not-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set the SECRET_KEY environment variable (the setup scripts write one to .env)."
        )
    SECRET_KEY = DEVELOPMENT_SECRET_KEY
elif not DEBUG and (weakness := env.secret_weakness(SECRET_KEY, DEVELOPMENT_SECRET_KEY)):
    # Sessions of the Django admin and stored API key digests hang on it.
    raise ImproperlyConfigured(
        f"SECRET_KEY is insecure ({weakness}); set a random one of 50 characters, e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "drf_standardized_errors",
    "django_celery_beat",
    "auditlog",
    "config",
    "registry",
    "executors",
    "attestations",
    "verification",
    "ops",
    "bindings",
    "webhooks",
    "issuance",
    "issuers",
]

MIDDLEWARE = [
    "config.middleware.RequestIdMiddleware",
    "ops.observability.AccessLogMiddleware",
    "corsheaders.middleware.CorsMiddleware",  # early, so that error responses carry CORS too
    # Outside ProblemDetailsMiddleware: a converted error keeps the rate-limit headers.
    "config.middleware.KeyedResponseMiddleware",
    "config.middleware.ProblemDetailsMiddleware",
    "config.middleware.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "ops.audit.AuditMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost: it sees the resolved route, and runs a read again when a replica failed it.
    "core.replicas.ReplicaReadMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# The hot statements (heartbeat, verify) as PostgreSQL prepared statements (core/db.py);
# off behind a transaction-mode pooler that does not keep them.
DB_PREPARED_STATEMENTS = env.bool("DB_PREPARED_STATEMENTS", default=True)
if DB_PREPARED_STATEMENTS and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 0)
# Read replicas (core/replicas.py, docs/scaling.md): the aliases replica1, ...
_replicas = env.replica_databases("DATABASE_REPLICA_URLS", DATABASES["default"],
                                  prepared_statements=DB_PREPARED_STATEMENTS)
DATABASES.update(_replicas)
DATABASE_REPLICAS = list(_replicas)
DATABASE_ROUTERS = ["core.replicas.ReplicaRouter"] if DATABASE_REPLICAS else []
# A replica further behind than this is skipped (the primary answers); checked at most once
# a second per process.
DATABASE_REPLICA_MAX_LAG_SECONDS = env.float("DATABASE_REPLICA_MAX_LAG_SECONDS", default=5.0)
if DATABASE_REPLICA_MAX_LAG_SECONDS < 0:
    raise ImproperlyConfigured("DATABASE_REPLICA_MAX_LAG_SECONDS must be 0 or more.")
# (URL name, method): the reads a replica answers (core/replicas.py routes them; the ground
# floor names no app). POST /v1/verify and /batch change nothing: they are reads sent as POST
# for their bodies. Not listed, on purpose: the offchain attestations (GET
# /attestations/offchain/{uid} is how a submitter reads back what it just POSTed) and POST
# /schemas/validate (no database).
REPLICA_READ_ROUTES = frozenset({
    ("verify-list", "POST"),  # POST /v1/verify
    ("verify-batch", "POST"),  # POST /v1/verify/batch
    ("verify-verdict", "GET"),  # the public page's verdict, /verify/0x<hash>
    ("public-chain-list", "GET"),
    ("public-chain-detail", "GET"),
    ("public-schema-list", "GET"),
    ("public-schema-detail", "GET"),
    ("public-attestation-list", "GET"),
    ("public-attestation-detail", "GET"),
    ("public-timestamp-list", "GET"),
    ("public-timestamp-detail", "GET"),
    ("public-offchain-revocation-list", "GET"),
})
# Read on the primary even inside a listed read: an API key made a moment ago must work.
PRIMARY_READ_MODELS = frozenset({"registry.ApiKey"})
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (runserver, run_scheduler, a command) and threads share the file.
    # WAL: readers never wait for the writer, nor it for them; writers take turns, each
    # waiting up to SQLITE_TIMEOUT seconds for the lock (IMMEDIATE: a transaction takes it
    # when it begins, so it waits there rather than failing half-way), and each writes in
    # short transactions (docs/decisions.md, "SQLite").
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        "timeout": env.float("SQLITE_TIMEOUT", default=20.0),
        "transaction_mode": "IMMEDIATE",
    })
    # Tests on a file too, as the service runs: on Django's default in-memory test database
    # the live server's threads share one connection, and concurrent requests trip over
    # each other's savepoints, which never happens to the service itself.
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", f"{DATABASES['default']['NAME']}-test")
# A PostgreSQL that does not answer holds no worker for long (core/postgresql/base.py,
# docs/security.md, "A hung dependency"): a connection waits at most
# DB_CONNECT_TIMEOUT_SECONDS (libpq counts at least 2); a statement runs at most
# DB_STATEMENT_TIMEOUT_SECONDS (0: no limit, for `migrate` and bulk loads) and the client
# waits a second more for any answer; then this process refuses that database at once for
# DB_BREAKER_SECONDS. PgBouncer refuses the statement timeout as a startup option:
# DB_SERVER_STATEMENT_TIMEOUT=false there, and the timeout set on the role (docs/scaling.md).
DB_CONNECT_TIMEOUT_SECONDS = env.positive_int("DB_CONNECT_TIMEOUT_SECONDS", default=3)
DB_STATEMENT_TIMEOUT_SECONDS = env.non_negative_int("DB_STATEMENT_TIMEOUT_SECONDS", default=10)
DB_SERVER_STATEMENT_TIMEOUT = env.strict_bool("DB_SERVER_STATEMENT_TIMEOUT", default=True)
DB_BREAKER_SECONDS = env.positive_int("DB_BREAKER_SECONDS", default=5)
for _database in DATABASES.values():
    if _database["ENGINE"] == "django.db.backends.postgresql":
        _database["ENGINE"] = "core.postgresql"  # Django's, with those bounds
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
# Redis is served without while it does not answer (core/cache.py): each operation waits
# at most CACHE_TIMEOUT_SECONDS, and one that did not answer opens the cache's breaker: for
# CACHE_BREAKER_SECONDS this process does without it, asking nothing.
CACHE_TIMEOUT_SECONDS = env.float("CACHE_TIMEOUT_SECONDS", default=1.0)
CACHE_BREAKER_SECONDS = env.positive_int("CACHE_BREAKER_SECONDS", default=5)
if CACHE_TIMEOUT_SECONDS <= 0:
    raise ImproperlyConfigured("CACHE_TIMEOUT_SECONDS must be more than 0.")
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "core.cache.FailSoftRedisCache"
    CACHES["default"].setdefault("OPTIONS", {}).update(
        {"socket_connect_timeout": CACHE_TIMEOUT_SECONDS,
         "socket_timeout": CACHE_TIMEOUT_SECONDS, "retry_on_timeout": False}
    )
elif CACHES["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache":
    CACHES["default"]["BACKEND"] = "core.cache.LocMemCache"  # the same, keys unchecked

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Serve the admin's static files straight from the apps: no collectstatic needed to start.
WHITENOISE_USE_FINDERS = True

# Requests: a body larger than this is refused with 413 before it is read.
MAX_REQUEST_BODY_BYTES = env.positive_int("MAX_REQUEST_BODY_BYTES", default=1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES

# Security headers; HSTS and the TLS redirect only make sense behind TLS.
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
if env.strict_bool("BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.strict_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.strict_bool("SECURE_HSTS_PRELOAD", default=False)
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    # Plain HTTP is redirected to HTTPS, except the probes and metrics that load balancers
    # and scrapers call on the internal network.
    SECURE_SSL_REDIRECT = env.strict_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
# Joining the browsers' HSTS preload list is a commitment for the whole domain: opt-in
# (SECURE_HSTS_PRELOAD), so `check --deploy` is not asked to warn about it.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# CORS: the API is called from browsers of the origins listed here.
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_ALLOW_HEADERS = [
    "accept",
    "authorization",
    "content-type",
    "user-agent",
    "x-api-key",
    "x-request-id",
    "idempotency-key",
    "if-match",
    "if-none-match",
    "trpc-accept",
    "trpc-batch-mode",
    "x-trpc-source",
]
CORS_EXPOSE_HEADERS = ["x-request-id", "retry-after", "www-authenticate", "location", "etag",
                       "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]
CORS_PREFLIGHT_MAX_AGE = 3600

# API keys (SPEC section 2). Keys are stored as HMACs under API_KEY_PEPPER (or SECRET_KEY).
API_KEY_PEPPER = env.str("API_KEY_PEPPER", default="")
ADMIN_API_KEY = env.api_key("ADMIN_API_KEY")
API_KEY = env.api_key("API_KEY")

# Executors (SPEC section 4).
EXECUTOR_LEASE_SECONDS = env.positive_int("EXECUTOR_LEASE_SECONDS", default=30)
EXECUTOR_GRACE_SECONDS = env.positive_int("EXECUTOR_GRACE_SECONDS", default=60)
# Proof of possession (executors/proofs.py): the origin its EIP-4361 challenges name
# (https://registry.example.com; empty: the origin each request was made to) and how long
# a challenge may be used.
SERVICE_ORIGIN = env.str("SERVICE_ORIGIN", default="").rstrip("/")
if SERVICE_ORIGIN and not re.fullmatch(r"https?://[^/\s?#@]+", SERVICE_ORIGIN):
    raise ImproperlyConfigured(
        f"SERVICE_ORIGIN must be an origin (https://host[:port]), not {SERVICE_ORIGIN!r}")
ADDRESS_PROOF_SECONDS = env.int_between("ADDRESS_PROOF_SECONDS", 300, 10, 3600)
# The reference executor's signer (manage.py run_executor): a remote signer's URL, or for
# development a file holding the key (a Docker secret); never the key itself here.
EXECUTOR_SIGNER_URL = env.str("EXECUTOR_SIGNER_URL", default="")
EXECUTOR_KEY_FILE = env.str("EXECUTOR_KEY_FILE", default="")
EXECUTOR_ADDRESS = env.str("EXECUTOR_ADDRESS", default="")
EXECUTOR_JOURNAL = env.str("EXECUTOR_JOURNAL", default="")
EAS_ARTIFACTS_DIR = env.str("EAS_ARTIFACTS_DIR", default=str(BASE_DIR / ".tools/eas"))
# Self-preservation: a sweep that would take more than this share of a chain's live
# executors offline at once holds back (not for chains with fewer executors than the
# minimum), for at most EXECUTOR_SELF_PRESERVATION_MAX_SECONDS.
EXECUTOR_SELF_PRESERVATION_SHARE = env.float("EXECUTOR_SELF_PRESERVATION_SHARE", default=0.15)
EXECUTOR_SELF_PRESERVATION_MIN_EXECUTORS = env.positive_int(
    "EXECUTOR_SELF_PRESERVATION_MIN_EXECUTORS", default=3
)
EXECUTOR_SELF_PRESERVATION_MAX_SECONDS = env.positive_int(
    "EXECUTOR_SELF_PRESERVATION_MAX_SECONDS", default=900
)
if not 0 < EXECUTOR_SELF_PRESERVATION_SHARE <= 1:
    raise ImproperlyConfigured("EXECUTOR_SELF_PRESERVATION_SHARE must be in (0, 1].")

# Document-binding workflows (bindings/workflows.py).
WORKFLOW_MAX_ATTEMPTS = env.positive_int("WORKFLOW_MAX_ATTEMPTS", default=3)
WORKFLOW_RETRY_BACKOFF_SECONDS = env.positive_int("WORKFLOW_RETRY_BACKOFF_SECONDS", default=30)
WORKFLOW_CLAIM_DEADLINE_SECONDS = env.positive_int("WORKFLOW_CLAIM_DEADLINE_SECONDS", default=3600)
WORKFLOW_DISPATCH_TIMEOUT_SECONDS = env.positive_int("WORKFLOW_DISPATCH_TIMEOUT_SECONDS",
                                                     default=600)
WORKFLOW_TX_MISSING_GRACE_SECONDS = env.positive_int("WORKFLOW_TX_MISSING_GRACE_SECONDS",
                                                     default=60)

# RPC monitoring (the probes and the health model, registry/probes.py).
RPC_PROBE_CONCURRENCY = env.positive_int("RPC_PROBE_CONCURRENCY", default=256)
RPC_PROBE_FAILURES_TO_DOWN = env.positive_int("RPC_PROBE_FAILURES_TO_DOWN", default=3)
RPC_PROBE_SUCCESSES_TO_HEALTHY = env.positive_int("RPC_PROBE_SUCCESSES_TO_HEALTHY", default=2)
RPC_MAX_LAG_BLOCKS = env.positive_int("RPC_MAX_LAG_BLOCKS", default=5)
RPC_PROBE_RETENTION_HOURS = env.positive_int("RPC_PROBE_RETENTION_HOURS", default=48)
# What RPC endpoints may be reached (registry/rpc_transport.py): link-local and cloud
# metadata addresses never; loopback and private ranges (self-hosted nodes) unless false.
RPC_ALLOW_PRIVATE = env.strict_bool("RPC_ALLOW_PRIVATE", default=True)
# An RPC answer longer than this is refused, read no further (probes, indexer, verification).
RPC_RESPONSE_MAX_BYTES = env.positive_int("RPC_RESPONSE_MAX_BYTES", default=10 * 1024 * 1024)

# The chain indexer (attestations/indexer). Blocks per getLogs adapt between 1 and
# INDEXER_MAX_RANGE, aiming at INDEXER_TARGET_LOGS logs per range (one transaction each);
# getAttestation calls go INDEXER_CALL_BATCH_SIZE to a JSON-RPC batch. Block hashes are kept
# for max(2 x the chain's confirmations, INDEXER_MIN_REORG_WINDOW) blocks.
INDEXER_MAX_RANGE = env.positive_int("INDEXER_MAX_RANGE", default=10_000)
INDEXER_TARGET_LOGS = env.positive_int("INDEXER_TARGET_LOGS", default=2_000)
INDEXER_CALL_BATCH_SIZE = env.positive_int("INDEXER_CALL_BATCH_SIZE", default=200)
INDEXER_MIN_REORG_WINDOW = env.positive_int("INDEXER_MIN_REORG_WINDOW", default=64)
INDEXER_RPC_TIMEOUT_SECONDS = env.positive_int("INDEXER_RPC_TIMEOUT_SECONDS", default=10)
# A process's index runs of a chain share its chain client (the endpoints' order read once,
# HTTP connections kept) for this long at most; a run that fails drops it (0: one per run).
INDEXER_CLIENT_SECONDS = env.non_negative_int("INDEXER_CLIENT_SECONDS", default=10)
# A chain is stalled (attestations/finality.py) when no new head was seen for its
# `stall_blocks` block times (this default when it has none), and never sooner than
# CHAIN_STALL_MIN_SECONDS; or when its `safe`/`finalized` block did not advance for as long
# past its usual lag.
CHAIN_STALL_BLOCKS = env.positive_int("CHAIN_STALL_BLOCKS", default=10)
CHAIN_STALL_MIN_SECONDS = env.positive_int("CHAIN_STALL_MIN_SECONDS", default=60)

# What a documentHash is the hash of a file's bytes with (core/document_hash.py): the
# algorithms accepted, the default first. Shown in GET /chains; the verify_document command
# tries each.
try:
    DOCUMENT_HASH_ALGORITHMS = parse_algorithms(
        env.str("DOCUMENT_HASH_ALGORITHMS", default=DEFAULT_ALGORITHMS))
except ValueError as exc:
    raise ImproperlyConfigured(f"DOCUMENT_HASH_ALGORITHMS {exc}") from exc

# The public verification page (/verify, verification/pages.py): no API key, limited per
# client address ("COUNT/PERIOD" or "none"); PUBLIC_VERIFICATION=false answers 404 there.
PUBLIC_VERIFICATION = env.strict_bool("PUBLIC_VERIFICATION", default=True)
PUBLIC_VERIFICATION_RATE = env.rate("PUBLIC_VERIFICATION_RATE", default="60/min")
# How many proxies in front set X-Forwarded-For (1 behind docker-compose.yml's nginx): the
# limit counts the address the outermost one saw; 0 counts REMOTE_ADDR.
PUBLIC_VERIFICATION_PROXIES = env.non_negative_int("PUBLIC_VERIFICATION_PROXIES", default=0)
# An IPv6 client is counted by its network of this prefix length (a /64 is one subscriber's
# as a rule, and each of them has 2**64 addresses): 128 counts each address.
PUBLIC_VERIFICATION_IPV6_PREFIX = env.int_between("PUBLIC_VERIFICATION_IPV6_PREFIX", 64, 1, 128)

# /trpc (trpc/): superjson-wrapped inputs and outputs for clients created with
# `transformer: superjson`; the most calls one batch may hold, and the most items (document
# hashes and other array items of the inputs, rows of the lists' pages) all its calls may
# ask for together (trpc/budget.py).
TRPC_SUPERJSON = env.strict_bool("TRPC_SUPERJSON", default=False)
TRPC_MAX_BATCH_SIZE = env.positive_int("TRPC_MAX_BATCH_SIZE", default=100)
TRPC_BATCH_BUDGET = env.positive_int("TRPC_BATCH_BUDGET", default=1000)

# Webhooks (webhooks/). Subscribers' URLs must be https to public addresses unless
# WEBHOOKS_ALLOW_PRIVATE (then http and loopback/private addresses too: tests, one network).
# An attempt (connection, request and the whole answer) ends after WEBHOOKS_TIMEOUT_SECONDS
# whatever the receiver does; failed ones are retried with an exponential back-off (from
# WEBHOOKS_RETRY_BASE_SECONDS, at most WEBHOOKS_RETRY_MAX_DELAY_SECONDS apart, with jitter)
# for WEBHOOKS_RETRY_HOURS, then the subscription is disabled. A key has at most
# WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY subscriptions. Secrets are encrypted under
# WEBHOOKS_SECRET_KEY (else SECRET_KEY): set it so that rotating SECRET_KEY keeps the
# subscriptions' secrets readable.
WEBHOOKS_ALLOW_PRIVATE = env.strict_bool("WEBHOOKS_ALLOW_PRIVATE", default=False)
WEBHOOKS_SECRET_KEY = env.str("WEBHOOKS_SECRET_KEY", default="")
WEBHOOKS_TIMEOUT_SECONDS = env.positive_int("WEBHOOKS_TIMEOUT_SECONDS", default=10)
WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY = env.positive_int("WEBHOOKS_MAX_SUBSCRIPTIONS_PER_KEY",
                                                      default=25)
WEBHOOKS_RETRY_BASE_SECONDS = env.positive_int("WEBHOOKS_RETRY_BASE_SECONDS", default=10)
WEBHOOKS_RETRY_MAX_DELAY_SECONDS = env.positive_int("WEBHOOKS_RETRY_MAX_DELAY_SECONDS",
                                                    default=3600)
WEBHOOKS_RETRY_HOURS = env.positive_int("WEBHOOKS_RETRY_HOURS", default=24)
# A worker holds a subscription's queue this long from each attempt's start; one killed
# mid-delivery lets the next sweep redeliver after it. By default three attempts' deadlines;
# never less than one deadline and a margin for recording the attempt (or a second worker
# could send the same event while the first still waits for its answer).
WEBHOOKS_CLAIM_MARGIN_SECONDS = 1
WEBHOOKS_CLAIM_SECONDS = env.positive_int("WEBHOOKS_CLAIM_SECONDS",
                                          default=3 * WEBHOOKS_TIMEOUT_SECONDS)
# A process asks at most this often whether the subscriptions changed, and reads them again
# when they did (0: read them for every event); one made in another process starts within it.
WEBHOOKS_MEMO_SECONDS = env.non_negative_int("WEBHOOKS_MEMO_SECONDS", default=2)
WEBHOOKS_RETENTION_DAYS = env.positive_int("WEBHOOKS_RETENTION_DAYS", default=30)
if WEBHOOKS_CLAIM_SECONDS < WEBHOOKS_TIMEOUT_SECONDS + WEBHOOKS_CLAIM_MARGIN_SECONDS:
    raise ImproperlyConfigured(
        f"WEBHOOKS_CLAIM_SECONDS must be at least WEBHOOKS_TIMEOUT_SECONDS + "
        f"{WEBHOOKS_CLAIM_MARGIN_SECONDS} (an attempt's deadline and the time to record it).")

# Issuers' identity proofs (issuers/). DNS TXT records are read from IDENTITY_DNS_RESOLVERS
# ("ip" or "ip:port", IPv6 as "[ip]:port"; empty: the system's resolvers) within
# IDENTITY_DNS_TIMEOUT_SECONDS. did:web documents are fetched from https://<domain>/... (port
# IDENTITY_HTTPS_PORT: tests) at public addresses only unless IDENTITY_ALLOW_PRIVATE (tests,
# one network), at most IDENTITY_DID_WEB_MAX_BYTES within IDENTITY_DID_WEB_TIMEOUT_SECONDS,
# certificates checked against IDENTITY_HTTPS_CA_BUNDLE (a PEM file that replaces the system's
# authorities) when set. Each issuer is checked again IDENTITY_CHECK_INTERVAL_SECONDS after
# its last check. VERIFY_REQUIRE_PROVEN_ISSUER: `verified` also needs the attester's issuer
# to be proven.
IDENTITY_DNS_RESOLVERS = parse_resolvers(env.list("IDENTITY_DNS_RESOLVERS", default=[]))
IDENTITY_DNS_TIMEOUT_SECONDS = env.positive_int("IDENTITY_DNS_TIMEOUT_SECONDS", default=5)
IDENTITY_ALLOW_PRIVATE = env.strict_bool("IDENTITY_ALLOW_PRIVATE", default=False)
IDENTITY_HTTPS_PORT = env.positive_int("IDENTITY_HTTPS_PORT", default=443)
IDENTITY_HTTPS_CA_BUNDLE = env.str("IDENTITY_HTTPS_CA_BUNDLE", default="")
IDENTITY_DID_WEB_MAX_BYTES = env.positive_int("IDENTITY_DID_WEB_MAX_BYTES", default=100 * 1024)
IDENTITY_DID_WEB_TIMEOUT_SECONDS = env.positive_int("IDENTITY_DID_WEB_TIMEOUT_SECONDS",
                                                    default=10)
IDENTITY_CHECK_INTERVAL_SECONDS = env.positive_int("IDENTITY_CHECK_INTERVAL_SECONDS",
                                                   default=6 * 3600)
# A process reads the issuers again when they changed, asking at most this often
# (issuers/directory.py): a lapse shows in every verdict within it.
IDENTITY_MEMO_SECONDS = env.non_negative_int("IDENTITY_MEMO_SECONDS", default=2)
VERIFY_REQUIRE_PROVEN_ISSUER = env.strict_bool("VERIFY_REQUIRE_PROVEN_ISSUER", default=False)

# Celery: without a broker, tasks run in-process (the embedded default).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or None)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Per-chain work has queues of its own, so that workers can be given to it apart and one
# kind of work never waits behind another (README, "Queues and workers"): indexing (one
# task per chain and head) on `index`, RPC probes (one per chain) on `probe`, webhook
# fan-outs and deliveries (waiting on subscribers' servers) on `webhooks`, everything else
# (tracking, leases, the sweeps, the periodic fan-outs) on `default`.
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "attestations.index_chain": {"queue": "index"},
    "registry.probe_chain": {"queue": "probe"},
    "webhooks.fan_out": {"queue": "webhooks"},
    "webhooks.deliver": {"queue": "webhooks"},
}
# A message a killed worker took but never acknowledged goes back to the queue after this
# many seconds (Redis broker). Longer than the longest task, or a slow task runs twice.
# A broker that does not answer: a publish (the web's after a commit, readyz's ping) or a
# connection waits at most CELERY_BROKER_TIMEOUT_SECONDS per try (kombu: without a socket
# timeout a publish waits forever on a connection the server stopped answering). The
# workers' BRPOP is not bounded by it (kombu checks that connection itself).
CELERY_BROKER_TIMEOUT_SECONDS = env.float("CELERY_BROKER_TIMEOUT_SECONDS", default=2.0)
if CELERY_BROKER_TIMEOUT_SECONDS <= 0:
    raise ImproperlyConfigured("CELERY_BROKER_TIMEOUT_SECONDS must be more than 0.")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.positive_int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    "socket_timeout": CELERY_BROKER_TIMEOUT_SECONDS,
    "socket_connect_timeout": CELERY_BROKER_TIMEOUT_SECONDS,
}
# A pool child killed mid-task (OOM, SIGKILL) requeues its message instead of acking it.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Beat writes each task's last_run_at as it sends it (not every 3 minutes): /readyz and
# `manage.py check_beat` judge beat by it.
CELERY_BEAT_SYNC_EVERY = 1
CELERY_TIMEZONE = TIME_ZONE
# Worker and beat log through LOGGING below (config/celery.py), not Celery's own handler.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Celery's Django fix-up closes the database connections before and after every task unless
# DB_REUSE_MAX is set: a new PostgreSQL session per task, which cost an index run more than
# its queries. Workers keep theirs as the web does (CONN_MAX_AGE, the health check before
# reuse: config/celery.py); the fix-up closes them every DB_REUSE_MAX tasks as well.
CELERY_DB_REUSE_MAX = 1000
# The periodic tasks' results are read by no one: not stored. A caller that waits for one
# asks for it per message (send_task(..., ignore_result=False)), and it is stored in
# CELERY_RESULT_BACKEND for CELERY_RESULT_EXPIRES seconds.
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_EXPIRES = env.positive_int("CELERY_RESULT_EXPIRES", default=3600)
# Time limits (prefork pool): at the soft limit the task gets SoftTimeLimitExceeded and
# stops (each unit of work is its own transaction, so what is done stays done); at the hard
# limit the pool kills it. An index run has limits of its own (attestations/tasks.py): it
# catches up from a cursor, and the next run resumes where it stopped. Keep them below
# CELERY_VISIBILITY_TIMEOUT, or Redis hands a task still running to a second worker.
CELERY_TASK_SOFT_TIME_LIMIT = env.positive_int("CELERY_TASK_SOFT_TIME_LIMIT", default=240)
CELERY_TASK_TIME_LIMIT = env.positive_int("CELERY_TASK_TIME_LIMIT", default=300)
INDEXER_SOFT_TIME_LIMIT = env.positive_int("INDEXER_SOFT_TIME_LIMIT", default=1500)
INDEXER_TIME_LIMIT = env.positive_int("INDEXER_TIME_LIMIT", default=1800)
for _soft, _hard in ((CELERY_TASK_SOFT_TIME_LIMIT, CELERY_TASK_TIME_LIMIT),
                     (INDEXER_SOFT_TIME_LIMIT, INDEXER_TIME_LIMIT)):
    if not _soft < _hard:
        raise ImproperlyConfigured("Celery time limits: each soft limit below its hard limit.")

# Rate limits per key, by scope (core/throttling.py): "COUNT/PERIOD" or "none".
API_RATE_LIMITS = {
    "admin": env.rate("RATE_LIMIT_ADMIN", default="1200/min"),
    "api": env.rate("RATE_LIMIT_API", default="1200/min"),
    "executor": env.rate("RATE_LIMIT_EXECUTOR", default="6000/min"),
}

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["djangorestframework_camel_case.render.CamelCaseJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "core.negotiation.JSONOnlyNegotiation",
    "DEFAULT_AUTHENTICATION_CLASSES": ["registry.authentication.ApiKeyHeaderAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["registry.permissions.HasApiScope"],
    "DEFAULT_THROTTLE_CLASSES": ["core.throttling.KeyRateThrottle"],
    "DEFAULT_METADATA_CLASS": "core.metadata.MinimalMetadata",
    "DEFAULT_FILTER_BACKENDS": ["core.filtering.FilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "core.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "drf_standardized_errors.handler.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "core.schema.AutoSchema",
    "DATETIME_FORMAT": "%Y-%m-%dT%H:%M:%SZ",
    "UNAUTHENTICATED_USER": None,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
# The key check of the administration endpoints (core/viewsets.py): a Bearer admin key.
ADMIN_AUTHENTICATION_CLASSES = ["registry.authentication.BearerKeyAuthentication"]
ADMIN_PERMISSION_CLASSES = ["registry.permissions.HasAdminScope"]
JSON_CAMEL_CASE = {
    # Keys inside these values are data, not field names: left as they are (an ABI, an
    # executor's metadata, attestation data keyed by its schema's field names).
    "JSON_UNDERSCOREIZE": {"ignore_fields": ("abi", "decoded", "metadata", "data")},
}
DRF_STANDARDIZED_ERRORS = {
    "EXCEPTION_HANDLER_CLASS": "core.errors.ProblemExceptionHandler",
    "EXCEPTION_FORMATTER_CLASS": "core.errors.ProblemFormatter",
    "ENABLE_IN_DEBUG_FOR_UNHANDLED_EXCEPTIONS": True,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Chain registry and document verification API",
    "DESCRIPTION": "Registry of chains and contracts, executors, EAS attestations and "
    "document verification. Errors are RFC 9457 problem documents "
    "(`application/problem+json`, the `Problem` schema).\n\n"
    "**Keys.** The admin API (`/v1/admin/...`) takes an admin key as `Authorization: Bearer "
    "<key>` (scheme `AdminBearer`); every other keyed path takes a key in the `X-API-Key` "
    "header (scheme `ApiKey`): an api key, an executor key under `/v1/chain-registry`, or an "
    "admin key anywhere. Each operation names its scheme, so a generated client sends the "
    "key the way that operation wants it.\n\n"
    "**Conventions** (the whole guide is docs/api.md in the repository): camelCase JSON, "
    "lists paginated with `limit` and `offset` (or `cursor`), unknown query parameters and "
    "body fields refused with 400, `ETag`/`If-Match` on the admin API's records, "
    "`RateLimit-*` headers on every keyed answer, `X-Request-ID` on every answer. Generated "
    "clients: `clients/` in the repository.",
    "VERSION": "1.0.0",
    # "/": the service that serves this schema (a client sets its own base URL).
    "SERVERS": [{"url": "/", "description": "This service"},
                {"url": "http://127.0.0.1:8000", "description": "scripts/run.sh on this machine"}],
    # No license has been chosen for the service: its terms are its operator's.
    "LICENSE": {"name": "Proprietary"},
    "CONTACT": {"name": "The operator of this service"},
    # The areas, in the order of the docs; an operation's tag is its URL's area
    # (core/schema_names.py). A new area shows without a description until listed here.
    "TAGS": [
        {"name": "verification", "description": "Is a document attested? `POST /v1/verify`."},
        {"name": "chains", "description": "The supported chains."},
        {"name": "schemas", "description": "EAS schemas, and checking a schema string."},
        {"name": "attestations", "description": "EAS attestations, as indexed."},
        {"name": "workflows", "description": "Binding documents to a chain."},
        {"name": "executors", "description": "Executors: registration, heartbeats, jobs "
                                              "(executor keys)."},
        {"name": "admin", "description": "The registry's administration (admin keys)."},
        {"name": "trpc", "description": "tRPC and JSON-RPC 2.0 over the REST operations."},
        {"name": "webhooks", "description": "Signed webhooks: subscriptions, their deliveries, "
                                             "watched documents."},
        {"name": "ops", "description": "Health probes and metrics (no key)."},
    ],
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page's JavaScript is served by us, not a CDN: it works offline too.
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "drf_spectacular.contrib.djangorestframework_camel_case.camelize_serializer_fields",
        "core.schema_hooks.camel_case_path_parameters",  # before the tRPC paths, which use them
        "trpc.openapi.add_trpc_paths",
        "ops.openapi.add_ops_paths",
        "core.schema_hooks.type_nullable_references",
        "core.schema_hooks.integer_path_parameters",
    ],
    "CAMELIZE_NAMES": False,
    "ENUM_NAME_OVERRIDES": {
        "ChainStatusEnum": "registry.models.chains.Chain.Status",
        "ChainSourceEnum": "registry.models.chains.Chain.Source",
        "ChainFinalityEnum": "registry.models.chains.Chain.Finality",
        "ProbeStatusEnum": "registry.models.rpc.ProbeStatus",
        "OverrideStatusEnum": "registry.models.rpc.OverrideStatus",
        "VerifyReasonEnum": "verification.rules.REASONS",
        "ExecutorStatusEnum": "executors.models.ExecutorStatus",
        "RpcSummaryStatusEnum": "attestations.api.serializers.RPC_SUMMARY_STATUSES",
        "WorkflowStateEnum": "bindings.models.WorkflowState",
        "DeliveryStateEnum": "webhooks.models.DeliveryState",
        "WebhookEventTypeEnum": "webhooks.models.EventType",
    },
}

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
ACCESS_LOG = env.strict_bool("ACCESS_LOG", default=True)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "core.request_id.RequestIdLogFilter"},
        "mask_secrets": {"()": "core.log.MaskSecretsFilter"},
        "runserver_request_lines": {"()": "core.log.OmitRunserverRequestLines"},
    },
    "formatters": {
        # Both formats mask secrets in the whole line, tracebacks included (core/log.py).
        "text": {"()": "core.log.MaskingFormatter",
                 "fmt": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        # One JSON object a line; extra fields (the access log's method, route, status,
        # latency_ms, key_prefix) become keys of their own.
        "json": {
            "()": "core.log.MaskingJsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            "timestamp": False,
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id", "mask_secrets"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # One line per request, the access log's (ops/observability.py): runserver's request
    # line (scripts/run.sh) and Django's warning for each 4xx would repeat it. runserver's
    # other lines (a request it could not parse) and Django's 5xx errors stay.
    "loggers": {
        "django.server": {"handlers": ["console"], "propagate": False,
                          "filters": ["runserver_request_lines"]},
        "django.request": {"level": "ERROR"},
    },
}

# Audit trail (ops/audit.py): the request id as each entry's correlation id, RPC URLs
# masked in recorded changes.
AUDITLOG_CID_GETTER = "ops.audit.request_id"
AUDITLOG_MASK_CALLABLE = "ops.audit.mask_value"
AUDITLOG_DISABLE_REMOTE_ADDR = False

# Prometheus metrics at /metrics (ops/metrics.py): open when METRICS_TOKEN is empty (bind
# it to an internal network), else only with `Authorization: Bearer <METRICS_TOKEN>`.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

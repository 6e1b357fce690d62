"""The Celery app of the worker and beat, wired to Django's settings and logging."""

import logging.config
import os

from celery import Celery, signals
from django.db import close_old_connections

from core.request_id import request_id_var

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("chain_registry")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The message header that carries the request id of the HTTP request that queued a task.
REQUEST_ID_HEADER = "request_id"


@signals.setup_logging.connect
def use_django_logging(loglevel=None, **_):
    """Worker and beat log as the web does (LOGGING: LOG_FORMAT, the request id and
    secret-masking filters): a receiver here stops Celery from installing its own root
    handler and format. The root level is the command's --loglevel (Celery's default:
    WARNING), as an operator reading the command expects."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)


@signals.celeryd_init.connect
def capture_warnings(**_):
    """Python warnings as log lines: the worker warns (running as root, ...) before it sets
    up logging, by then configured by django.setup()."""
    logging.captureWarnings(True)


@signals.task_prerun.connect
@signals.task_postrun.connect
def reuse_database_connections(task=None, **_):
    """A worker's database connections live as the web's do between requests: closed when
    broken or older than CONN_MAX_AGE, health-checked before reuse (settings,
    CELERY_DB_REUSE_MAX). An eager task runs in its caller's connection and leaves it be."""
    if task is not None and not getattr(task.request, "is_eager", False):
        close_old_connections()


@signals.before_task_publish.connect
def add_request_id(headers=None, **_):
    request_id = request_id_var.get()
    if headers is not None and request_id != "-":  # "-": queued outside a request (beat)
        headers.setdefault(REQUEST_ID_HEADER, request_id)


@signals.task_prerun.connect
def enter_request_id(task=None, **_):
    """The task's log lines carry the request id its message brought (custom headers are
    attributes of task.request); a task run eagerly keeps the one it runs under."""
    request_id = getattr(task.request, REQUEST_ID_HEADER, None) if task else None
    if request_id:
        task.request.request_id_token = request_id_var.set(request_id)


@signals.task_postrun.connect
def leave_request_id(task=None, **_):
    token = getattr(task.request, "request_id_token", None) if task else None
    if token is not None:
        request_id_var.reset(token)
        task.request.request_id_token = None

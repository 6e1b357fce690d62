"""gunicorn settings, read from the working folder (`gunicorn config.wsgi:application`).
Every setting can be changed without rebuilding the image: the environment variables below,
or GUNICORN_CMD_ARGS. With PROMETHEUS_MULTIPROC_DIR set, each worker writes its metrics
there and /metrics adds them up (ops/metrics.py)."""

import multiprocessing
import os
import shutil

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# Sync workers: each serves one request at a time, so nginx (deploy/nginx.conf) in front
# buffers slow clients. gunicorn's own advice: 2 x cores + 1.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
# A request longer than this is a stuck worker: killed and replaced (nginx waits 60 s).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# On SIGTERM (a deploy), requests in flight get this long to finish.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
# Keep-alive connections from nginx (its upstream keepalive) stay open this long.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "75"))
# Workers are replaced after this many requests (jittered so they do not all restart at
# once): whatever a long-lived process accumulates is given back.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "10000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "1000"))
# The application is loaded once in the master and each worker is a fork of it: a worker
# starts (and is replaced after max_requests) in milliseconds instead of the ~2 s of CPU that
# importing Django, DRF and web3 costs, and the workers share those pages. New code needs a
# restart of the master (a deploy does that), not a HUP.
preload_app = os.environ.get("GUNICORN_PRELOAD", "true").lower() in ("1", "true", "yes")
# X-Forwarded-Proto is believed from these addresses (the proxy on compose's network).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")
# One access line per request: the app's own (ops.observability, JSON with the request
# id); gunicorn's is off. Errors go to stderr.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")


def on_starting(server):
    # Files of a previous run would be added to this one's counters.
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)


def post_fork(server, worker):
    # Nothing is connected at import, but a connection the master opened anyway must not be
    # shared by its forks.
    if server.cfg.preload_app:
        from django.db import connections

        connections.close_all()


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)

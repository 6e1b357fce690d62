"""gunicorn settings, read from the working folder. With PROMETHEUS_MULTIPROC_DIR set, each
worker writes its metrics there and /metrics adds them up (config/metrics.py)."""

import os
import shutil


def on_starting(server):
    # Files of a previous run would be added to this one's counters.
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker):
    # Import every view now (the URLs load them lazily), then take everything loaded so far
    # out of the garbage collector's reach (gc.freeze): its full collections would walk the
    # whole framework, tens of milliseconds every few thousand requests, which cost a
    # verification more than its database statement (docs/decisions.md, "Hot requests").
    import gc

    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports the URL configuration)
    gc.collect()
    gc.freeze()

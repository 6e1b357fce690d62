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

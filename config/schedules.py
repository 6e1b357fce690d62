"""The periodic tasks (Celery beat) and their default intervals in seconds.

`manage.py setup_periodic_tasks` writes them into django-celery-beat's tables, where
operators change them in the Django admin; later runs keep what operators changed.
"""

PERIODIC_TASKS = {
    "Expire executor leases": {"task": "executors.expire_leases", "every": 10},
    # Each endpoint has its own interval (monitoring.intervalSeconds); this is how often
    # the task looks for endpoints that are due.
    "Probe RPC endpoints": {"task": "registry.probe_rpcs", "every": 5},
    # Each chain is read up to its head every run; a run still busy with a chain holds its
    # lock and the next one skips it.
    "Index chains": {"task": "attestations.index_chains", "every": 5},
    # Expiry, abandoned jobs, receipts of submitted workflows, reorganisations.
    "Track workflows": {"task": "verification.track_workflows", "every": 5},
}

"""The periodic tasks (Celery beat) and their default intervals in seconds.

`manage.py setup_periodic_tasks` writes them into django-celery-beat's tables, where
operators change them in the Django admin; later runs keep what operators changed.
"""

PERIODIC_TASKS = {
    "Expire executor leases": {"task": "executors.expire_leases", "every": 10},
}

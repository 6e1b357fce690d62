"""The id of the request being answered (or of the task a request sent), for log lines,
audit entries and Celery messages. RequestIdMiddleware (config) sets it per request."""

import contextvars
import logging

request_id_var = contextvars.ContextVar("request_id", default="-")


class RequestIdLogFilter(logging.Filter):
    def filter(self, record):
        # Django logs each 4xx/5xx ("django.request") after the middleware has returned,
        # outside the context variable, but it passes the request along.
        request = getattr(record, "request", None)
        record.request_id = getattr(request, "request_id", None) or request_id_var.get()
        return True

"""Log filters and formatters of the console handler: secrets never reach a log line."""

import logging
import re

from django.conf import settings
from pythonjsonlogger.json import JsonFormatter

from core.masking import MASK, mask_text

# A stored key keeps its public prefix (it identifies the key); the secret part goes.
_STORED_KEY = re.compile(r"\b(crk_[0-9a-f]{12})\.[A-Za-z0-9_-]{43}")


def mask_secrets(text: str) -> str:
    """URLs with credentials, API keys, and the keys set in the environment, masked."""
    text = mask_text(text)
    if "crk_" in text:
        text = _STORED_KEY.sub(rf"\1.{MASK}", text)
    for env_key in (settings.ADMIN_API_KEY, settings.API_KEY):
        if env_key and env_key in text:
            text = text.replace(env_key, MASK)
    return text


def _masked(value):
    if isinstance(value, str):
        return mask_secrets(value)
    if isinstance(value, list | tuple):
        return [_masked(item) for item in value]
    if isinstance(value, dict):
        return {name: _masked(item) for name, item in value.items()}
    return value


class MaskSecretsFilter(logging.Filter):
    """Mask secrets in every log message, whoever logs it: web3 and urllib3 write full RPC
    URLs (keys included) at DEBUG, and no one should ever log an API key, but if one does,
    the key does not reach the log. The formatters below mask the whole line besides (extra
    fields, tracebacks): the filter keeps the message masked for any other handler."""

    def filter(self, record):
        message = record.getMessage()
        masked = mask_secrets(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


class OmitRunserverRequestLines(logging.Filter):
    """Leaves out runserver's line per request (`"GET / HTTP/1.1" 200 12`, logger
    django.server): the access log has written one already, with the request id."""

    def filter(self, record):
        return record.msg != '"%s" %s %s'  # http.server's log_request


class MaskingFormatter(logging.Formatter):
    """The text format, masked as a whole: the filter above masks the message, but a
    traceback (a requests error names the URL it failed on) is formatted afterwards."""

    def format(self, record):
        return mask_secrets(super().format(record))


class MaskingJsonFormatter(JsonFormatter):
    """The JSON format: every string in the object masked (message, traceback, stack and
    the extra fields alike)."""

    def process_log_record(self, log_data):
        return {name: _masked(value) for name, value in super().process_log_record(log_data).items()}


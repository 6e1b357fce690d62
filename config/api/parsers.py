import json
import math

from django.conf import settings
from djangorestframework_camel_case.parser import CamelCaseJSONParser
from djangorestframework_camel_case.util import underscoreize
from rest_framework.exceptions import ParseError

# Deeper bodies are refused: the recursive code after the parser (camelCase conversion,
# validation, rendering) would otherwise crash with a RecursionError, a 500. An ABI with
# nested tuples needs a dozen levels.
MAX_JSON_DEPTH = 64


def _reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e400 parses as infinity, which no database stores
        raise ValueError(f"the number {text} is out of range")
    return value


def _problem(data, max_depth: int) -> str | None:
    """What makes parsed JSON unstorable or unsafe to process, if anything: nesting deeper
    than `max_depth`, a NUL character (PostgreSQL text and jsonb refuse it) or a lone
    surrogate (not UTF-8) in any key or string."""
    stack = [(data, 1)]
    while stack:  # iterative: the point is not to recurse
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > max_depth:
                return f"The request body nests deeper than {max_depth} levels."
            if isinstance(value, dict):
                stack.extend((key, depth) for key in value)
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(value, str):
            if "\x00" in value:
                return "The request body holds a NUL character."
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "The request body holds a lone UTF-16 surrogate."
    return None


class JSONParser(CamelCaseJSONParser):
    """camelCase JSON in, snake_case data out; strict JSON (no NaN, Infinity or numbers
    beyond them), and nothing a database cannot store."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(stream.read().decode(encoding), parse_constant=_reject_constant,
                              parse_float=_finite)
        except RecursionError:
            raise ParseError(f"The request body nests deeper than {MAX_JSON_DEPTH} levels.") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}") from exc
        problem = _problem(data, MAX_JSON_DEPTH)
        if problem:
            raise ParseError(problem)
        return underscoreize(data, **self.json_underscoreize)

import json

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


def _nests_deeper_than(data, limit: int) -> bool:
    stack = [(data, 1)]
    while stack:  # iterative: the point is not to recurse
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                return True
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False


class JSONParser(CamelCaseJSONParser):
    """camelCase JSON in, snake_case data out; strict JSON (no NaN or Infinity)."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        too_deep = ParseError(f"The request body nests deeper than {MAX_JSON_DEPTH} levels.")
        try:
            data = json.loads(stream.read().decode(encoding), parse_constant=_reject_constant)
        except RecursionError:
            raise too_deep from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}") from exc
        if _nests_deeper_than(data, MAX_JSON_DEPTH):
            raise too_deep
        return underscoreize(data, **self.json_underscoreize)

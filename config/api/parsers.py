import json

from django.conf import settings
from djangorestframework_camel_case.parser import CamelCaseJSONParser
from djangorestframework_camel_case.util import underscoreize
from rest_framework.exceptions import ParseError


def _reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")


class JSONParser(CamelCaseJSONParser):
    """camelCase JSON in, snake_case data out; strict JSON (no NaN or Infinity)."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(stream.read().decode(encoding), parse_constant=_reject_constant)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}") from exc
        return underscoreize(data, **self.json_underscoreize)

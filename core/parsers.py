import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from djangorestframework_camel_case.parser import CamelCaseJSONParser
from djangorestframework_camel_case.util import (
    camel_to_underscore,
    camelize_re,
    underscore_to_camel,
)
from rest_framework.exceptions import (
    ErrorDetail,
    ParseError,
    UnsupportedMediaType,
    ValidationError,
)

from core.problems import named

# Deeper bodies are refused: the recursive code after the parser (camelCase conversion,
# validation, rendering) would otherwise crash with a RecursionError, a 500. An ABI with
# nested tuples needs a dozen levels.
MAX_JSON_DEPTH = 64


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _nests_deeper_than(text: str, limit: int) -> bool:
    """Counted on the raw text, before json.loads: importing web3 raises the recursion limit
    (py_ecc sets 100,000), and a body nested that deep would then overflow the C stack of
    the parser and kill the worker rather than raise RecursionError."""
    depth = 0
    for bracket in _BRACKET.findall(_JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > limit:
            return True
    return False


def _reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e400 parses as infinity, which no database stores
        raise ValueError(f"the number {text} is out of range")
    return value


@dataclass(frozen=True)
class BodyLimits:
    """How much JSON one request body may hold, counted once it is parsed and before
    anything else reads it: `keys` object members in all, `object_keys` members of any one
    object, `items` array elements in all, `depth` levels of nesting. A view (or an action,
    `@action(body_limits=...)`) names its own in `body_limits`; docs/api.md lists them.
    Each is above what the endpoint's serializer takes, so that a body near its limits is
    answered by the serializer, which names fields, and only one far beyond them here."""

    keys: int = 1_000
    items: int = 2_000
    object_keys: int = 1_000  # the fields of a wide schema's `data`; no serializer has more
    depth: int = MAX_JSON_DEPTH

    def __post_init__(self):
        if self.depth > MAX_JSON_DEPTH:  # the parser's own bound (see _nests_deeper_than)
            raise ValueError(f"depth is at most {MAX_JSON_DEPTH}")


DEFAULT_BODY_LIMITS = BodyLimits()


def _within(text: str, data, limits: BodyLimits, what: str) -> None:
    """ParseError when the parsed body holds more object keys or array items than
    `limits`. Each key has its colon in the text and each item past an array's first its
    comma: a body with fewer of those is not counted."""
    colons = text.count(":")
    if (colons <= limits.keys and colons <= limits.object_keys
            and text.count(",") + text.count("[") <= limits.items):
        return
    keys, items, widest = json_size(data)
    if len(widest) > limits.object_keys:
        raise ParseError(f"An object of {what.lower()} holds {len(widest)} keys; this endpoint "
                         f"takes {limits.object_keys} in one object at most. They start "
                         f"{named(widest)}.", code="too_many_keys")
    if keys > limits.keys:
        raise ParseError(f"{what} holds {keys} object keys in all; this endpoint takes "
                         f"{limits.keys} at most.", code="too_many_keys")
    if items > limits.items:
        raise ParseError(f"{what} holds {items} array items in all; this endpoint takes "
                         f"{limits.items} at most.", code="too_many_items")


def json_size(data) -> tuple[int, int, dict]:
    """The object keys and array items of parsed JSON, and its largest object."""
    keys = items = 0
    widest: dict = {}
    stack = [data]
    while stack:  # iterative, like the depth check; only containers are visited
        value = stack.pop()
        if type(value) is dict:
            keys += len(value)
            if len(value) > len(widest):
                widest = value
            stack.extend(item for item in value.values() if type(item) in _CONTAINERS)
        elif type(value) is list:
            items += len(value)
            stack.extend(item for item in value if type(item) in _CONTAINERS)
    return keys, items, widest


_CONTAINERS = (dict, list)
# Where a NUL or a lone surrogate can come from: an escape, or a surrogate in the text.
_UNSTORABLE_HINT = re.compile(r"\\u0000|\\u[dD][89a-fA-F]|[\ud800-\udfff]")


def _unstorable(data) -> str | None:
    """A NUL character (PostgreSQL text and jsonb refuse it) or a lone surrogate (not UTF-8)
    in any key or string of parsed JSON, if there is one."""
    stack = [data]
    while stack:  # iterative, like the depth check
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            if "\x00" in value:
                return "holds a NUL character."
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "holds a lone UTF-16 surrogate."
    return None


# One decoder for every body: json.loads with these options would build a new one each time.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite)


def loads_strict(text: str, what: str = "The request body",
                 limits: BodyLimits = DEFAULT_BODY_LIMITS):
    """Strict JSON (no NaN, Infinity or numbers beyond them), within `limits`, and nothing
    a database cannot store; ParseError otherwise. `what` names the text in the message."""
    # Each level opens a bracket: counting them first spares the usual body the scan.
    depth = limits.depth
    if text.count("[") + text.count("{") > depth and _nests_deeper_than(text, depth):
        raise ParseError(f"{what} nests deeper than {depth} levels.")
    try:
        if text.startswith("\ufeff"):  # as json.loads does
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        data = _DECODER.decode(text)
    except RecursionError:
        raise ParseError(f"{what} nests deeper than {depth} levels.") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ParseError(f"{what} is not valid JSON: {exc}") from exc
    _within(text, data, limits, what)
    problem = _UNSTORABLE_HINT.search(text) and _unstorable(data)
    if problem:
        raise ParseError(f"{what} {problem}")
    return data


def underscoreize_json(data, **options):
    """djangorestframework-camel-case's `underscoreize(data, **options)` for parsed JSON
    (dicts, lists and scalars), with each key's conversion remembered: the library converts
    a key with a regular expression and a replacement template, which cost a small request
    more than parsing it. tests/test_parsers.py checks it against the library."""
    return _underscoreize(data, tuple(options.get("ignore_fields") or ()),
                          tuple(options.get("ignore_keys") or ()),
                          bool(options.get("no_underscore_before_number")))


def _underscoreize(data, ignore_fields, ignore_keys, before_number):
    if isinstance(data, dict):
        converted = {}
        for key, value in data.items():
            new_key = _snake(key, before_number) if isinstance(key, str) else key
            if key not in ignore_fields and new_key not in ignore_fields:
                value = _underscoreize(value, ignore_fields, ignore_keys, before_number)
            converted[key if key in ignore_keys or new_key in ignore_keys else new_key] = value
        return converted
    if isinstance(data, list):
        return [_underscoreize(item, ignore_fields, ignore_keys, before_number) for item in data]
    return data


@lru_cache(maxsize=4096)  # bounded: keys come from clients
def _snake(key: str, no_underscore_before_number: bool) -> str:
    return camel_to_underscore(key, no_underscore_before_number=no_underscore_before_number)


class SnakeCaseFields(ValidationError):
    """400 naming body fields sent in snake_case (`document_hash`), as the client wrote them
    (core.errors leaves attrs so marked as they are): the wire is camelCase."""

    attrs_as_given = True


def refuse_snake_case_keys(data, ignore_fields=()) -> None:
    """SnakeCaseFields naming each key of `data` that holds an underscore, outside the
    fields kept as sent (`ignore_fields`): the wire is camelCase, and `document_hash` would
    otherwise be converted into the very field that `documentHash` names, and taken."""
    found = {}
    stack = [(data, "")]
    while stack:  # iterative, like the depth check
        value, path = stack.pop()
        if isinstance(value, list):
            stack.extend((item, f"{path}{index}.") for index, item in enumerate(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str) or key in ignore_fields:
                    continue
                if "_" in key:
                    found[path + key] = [ErrorDetail(
                        f"Unknown field {key!r}: fields are camelCase "
                        f"({camelize_re.sub(underscore_to_camel, key)!r}).",
                        code="unknown_field")]
                stack.append((item, f"{path}{key}."))
    if found:
        raise SnakeCaseFields(dict(sorted(found.items())))


class JSONParser(CamelCaseJSONParser):
    """camelCase JSON in, snake_case data out (parsed by `loads_strict`); a snake_case key
    is refused as an unknown field."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = self.parse_verbatim(stream, media_type, parser_context)
        refuse_snake_case_keys(data, self.json_underscoreize.get("ignore_fields") or ())
        return underscoreize_json(data, **self.json_underscoreize)

    def parse_verbatim(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}") from exc
        except LookupError:  # a codec that is not a text encoding (charset=hex, base64, ...)
            raise UnsupportedMediaType(
                media_type, detail=f"The charset {encoding!r} is not a text encoding; "
                "send JSON in UTF-8.") from None
        view = (parser_context or {}).get("view")
        return loads_strict(text, limits=getattr(view, "body_limits", DEFAULT_BODY_LIMITS))


class VerbatimJSONParser(JSONParser):
    """JSON kept as sent, its keys included: for a document whose keys are not the API's
    but a signed message's (an EAS offchain attestation package's `primaryType`, `refUID`)."""

    def parse(self, stream, media_type=None, parser_context=None):
        return self.parse_verbatim(stream, media_type, parser_context)

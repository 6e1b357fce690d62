"""The two hot endpoints' bodies read, and their answers written, without building a
serializer; the one contract: `read_body` gives exactly the request serializer's
`validated_data`, `write_answer` exactly the response serializer's `data`, and `answer` the
bytes DRF's Response of that data renders (tests/test_lean.py holds each to DRF, on listed
and generated input).

A DRF serializer deep-copies its fields for every instance: for a heartbeat or a
verification, the request's and the answer's serializers cost more than the database
statement (about 0.5 ms of a 1.3 ms verification), and a Response's late rendering through
a template response more than writing the JSON (about 0.1 ms). Measured with
`bench/verify.py --front nginx`: verify at 53 % of `/healthz` with neither, 66 % with the
serializers' work only, 72 % with this whole module. The plans here are made once per serializer
class from its own declared fields, so the two cannot drift apart. A body the plan does
not take (a fault, an unusual field) goes through the serializer, which names every fault.
"""

import json
import uuid
from functools import cache, lru_cache

from django.http import HttpResponse
from djangorestframework_camel_case.render import CamelCaseJSONRenderer
from rest_framework import fields as drf
from rest_framework import serializers as drf_serializers
from rest_framework.fields import empty

from core.errors import camel_attr
from core.fields import Bytes32Field, ChainIdField, WeiField, read_wei
from core.serializers import StrictMixin
from core.validators import InvalidHex, normalize_bytes32


def read_request(serializer_class, request) -> dict:
    """The validated body of a DRF request, as `read_body(serializer_class, request.data)`:
    DRF's parser negotiation reads it (and names a body it cannot parse)."""
    return read_body(serializer_class, request.data)


def read_body(serializer_class, data) -> dict:
    """The validated data of `data`, as `serializer_class(data=data).validated_data`."""
    validated = lean_read(serializer_class, data)
    if validated is None:
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        validated = dict(serializer.validated_data)
    return validated


def lean_read(serializer_class, data) -> dict | None:
    """The validated data of a well-formed `data`, or None: then ask the serializer."""
    plan = _plan(serializer_class)
    return _read(plan, data) if plan is not None else None


def _read(plan, data) -> dict | None:
    if type(data) is not dict or not data.keys() <= plan.keys():
        return None
    validated = {}
    for name, (read, required, default, allow_null) in plan.items():
        if name not in data:
            if required:
                return None
            if default is not empty:
                validated[name] = default() if callable(default) else default
            continue
        value = data[name]
        if value is None:
            if not allow_null:
                return None
            validated[name] = None
            continue
        value = read(value)
        if value is None:
            return None
        validated[name] = value
    return validated


# Readers: the value the field gives for a well-formed JSON value, or None to let the
# serializer answer. Each accepts only the exact JSON type the strict serializers take.


def _uuid(value):
    if type(value) is str:
        try:
            return uuid.UUID(hex=value)
        except ValueError:
            return None
    return None


def _bytes32(value):
    try:
        return normalize_bytes32(value)  # what Bytes32Field does
    except InvalidHex:
        return None


def _boolean(value):
    return value if type(value) is bool else None


def _integer(field):
    low = field.min_value if field.min_value is not None else float("-inf")
    high = field.max_value if field.max_value is not None else float("inf")
    return lambda value: value if type(value) is int and low <= value <= high else None


def _wei(field):
    low, high = field.min_value, field.max_value
    return lambda value: read_wei(value, low, high)


def _choice(field):
    values = field.choice_strings_to_values  # what DRF maps the JSON string to
    return lambda value: values.get(value) if type(value) is str else None


def _list(field):
    """A JSON array of what the child field reads, as long as the field allows; None for
    any other value or when the child's reader declines an item."""
    make = _READERS.get(type(field.child))
    if make is None or "validators" in field.child._kwargs or field.child.allow_null:
        return None
    read = make(field.child)
    low = max(field.min_length or 0, 0 if field.allow_empty else 1)
    high = field.max_length if field.max_length is not None else float("inf")

    def reader(value):
        if type(value) is not list or not low <= len(value) <= high:
            return None
        items = [read(item) for item in value]
        return None if None in items else items
    return reader


def _dict(field):
    """A JSON object of any values, as a DictField of unchecked values takes it."""
    if type(field.child) is not drf._UnvalidatedField or not field.allow_empty:
        return None
    return lambda value: dict(value) if type(value) is dict else None


def _many(field):
    """A JSON array of objects that the child serializer's own plan reads (`many=True`),
    as long as the field allows; None for any other value or when an item is declined."""
    plan = _plan(type(field.child))
    if plan is None or field.child.validators:
        return None
    low = max(field.min_length or 0, 0 if field.allow_empty else 1)
    high = field.max_length if field.max_length is not None else float("inf")

    def reader(value):
        if type(value) is not list or not low <= len(value) <= high:
            return None
        items = [_read(plan, item) for item in value]
        return None if None in items else items
    return reader


_READERS = {
    drf.ListField: _list,
    drf.DictField: _dict,
    drf_serializers.ListSerializer: _many,
    drf.UUIDField: lambda field: _uuid,
    Bytes32Field: lambda field: _bytes32,
    drf.BooleanField: lambda field: _boolean,
    drf.IntegerField: _integer,
    ChainIdField: _integer,
    drf.ChoiceField: _choice,
    WeiField: _wei,
}


def answer(serializer_class, instance) -> HttpResponse:
    """`Response(serializer_class(instance).data)` as DRF renders it with the API's renderer
    (camelCase keys, compact UTF-8 JSON), written at once; DRF passes a plain response
    through and still adds its headers."""
    return _json_response(write_answer(serializer_class, instance))


def answer_many(serializer_class, instances, *, key: str) -> HttpResponse:
    """`Response({key: serializer_class(instances, many=True).data})` as DRF renders it: a
    batch's answers, each written as `answer` writes one."""
    return _json_response({key: [write_answer(serializer_class, instance)
                                 for instance in instances]})


def respond(data, *, status: int = 200, headers: dict | None = None) -> HttpResponse:
    """`Response(data, status, headers)` as DRF renders it with the API's renderer, written
    at once: for a large answer (a batch of workflows or jobs) the renderer's camelCase
    conversion, a regular expression per key, costs more than the serializer."""
    response = _json_response(data, status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _json_response(data, status: int = 200) -> HttpResponse:
    """`data` rendered as the API's renderer renders it: written at once when it is made of
    JSON's own types (dicts with string keys, lists, plain values), else by the renderer."""
    plain = _camelized(data)
    if plain is None:
        body = _RENDERER.render(data)
    else:
        text = _ENCODER.encode(plain)
        body = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()
    return HttpResponse(body, status=status, content_type=_RENDERER.media_type)


def _camelized(value, camel: bool = True):
    """`value` with camelCase keys as the renderer writes them (not within the fields the
    renderer's settings leave as they are, `camel` false), or None when it holds anything
    but JSON's own types (then the renderer decides how to write it)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if isinstance(value, dict):  # a serializer's data is an OrderedDict (ReturnDict)
        written = {}
        for key, item in value.items():
            if type(key) is not str:
                return None
            name = _camel(key) if camel else key
            if type(item) not in _PLAIN:  # plain values, the usual, need no call
                item = _camelized(item, camel and _turned_inside(key, name))
                if item is None:
                    return None
            written[name] = item
        return written
    if isinstance(value, list):
        items = [_camelized(item, camel) for item in value]
        return None if any(new is None and old is not None
                           for new, old in zip(items, value)) else items
    return None


_RENDERER = CamelCaseJSONRenderer()
# The fields whose values the renderer writes as they are (JSON_UNDERSCOREIZE).
_KEPT = tuple(_RENDERER.json_underscoreize.get("ignore_fields") or ())
_PLAIN = (str, int, float, bool, type(None))
# One encoder: json.dumps with options builds a new one for each call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@lru_cache(maxsize=256)
def _camel(key: str) -> str:
    return camel_attr(key)


def _turned_inside(key: str, name: str) -> bool:
    """Whether the renderer turns the keys within a field's value (`key` as given, `name`
    camelCased): not within the fields it leaves as they are."""
    return key not in _KEPT and name not in _KEPT


def write_answer(serializer_class, instance) -> dict:
    """`serializer_class(instance).data`, written by the declared fields' own
    `to_representation` without copying them (they keep no state between calls)."""
    fields = _answer_fields(serializer_class)
    if fields is None:
        return serializer_class(instance).data
    answer = {}
    for name, write in fields:
        value = getattr(instance, name)
        answer[name] = None if value is None else write(value)
    return answer


@cache
def _answer_fields(serializer_class) -> tuple | None:
    """(name, the field's `to_representation`) of each field of an answer made of plain
    fields, or None (then the serializer writes it): no source of another name, no method
    or nested fields."""
    serializer = serializer_class()
    if (serializer_class.to_representation is not drf_serializers.Serializer.to_representation
            or isinstance(serializer, drf_serializers.ModelSerializer)):
        return None
    fields = []
    for name, field in serializer.fields.items():
        if (field.source != name or isinstance(field, (drf.SerializerMethodField,
                                                       drf_serializers.BaseSerializer))):
            return None
        fields.append((name, serializer_class._declared_fields[name].to_representation))
    return tuple(fields)


@cache
def _plan(serializer_class) -> dict | None:
    """name -> (reader, required, default, allow_null) for each field, or None when the
    serializer has anything the plan does not follow: a field of another kind or with
    validators of its own, validate methods, another way of reading its input."""
    serializer = serializer_class()
    if (serializer_class.to_internal_value is not StrictMixin.to_internal_value
            or serializer_class.run_validation is not drf_serializers.Serializer.run_validation
            or serializer_class.validate is not drf_serializers.Serializer.validate
            or serializer.validators):
        return None
    plan = {}
    for name, field in serializer.fields.items():
        make = _READERS.get(type(field))
        read = make(field) if make is not None else None
        if (read is None or field.read_only or field.source != name
                or "validators" in field._kwargs or hasattr(serializer, f"validate_{name}")
                or getattr(field.default, "requires_context", False)):
            return None
        plan[name] = (read, field.required, field.default, field.allow_null)
    return plan

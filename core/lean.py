"""Reading a hot endpoint's well-formed body without building its serializer.

A DRF serializer deep-copies its fields for every instance, and validating a three-field
body that way costs a heartbeat or a verification more than its database statement. The
few bodies that arrive thousands of times a second are read here instead: a plan made once
per serializer class from its own declared fields (so the two cannot drift apart), which
accepts only what the serializer accepts, with the same values (tests/test_lean.py checks
them side by side). Anything else (a fault, an unusual field) goes through the serializer,
which names every fault.
"""

import uuid
from functools import cache

from rest_framework import fields as drf
from rest_framework import serializers as drf_serializers
from rest_framework.fields import empty

from core.fields import Bytes32Field, ChainIdField
from core.serializers import StrictMixin
from core.validators import InvalidHex, normalize_bytes32


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
                validated[name] = default
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


def _choice(field):
    values = field.choice_strings_to_values  # what DRF maps the JSON string to
    return lambda value: values.get(value) if type(value) is str else None


_READERS = {
    drf.UUIDField: lambda field: _uuid,
    Bytes32Field: lambda field: _bytes32,
    drf.BooleanField: lambda field: _boolean,
    drf.IntegerField: _integer,
    ChainIdField: _integer,
    drf.ChoiceField: _choice,
}


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
        if (make is None or field.read_only or field.source != name
                or "validators" in field._kwargs or hasattr(serializer, f"validate_{name}")
                or (field.default is not empty and callable(field.default))):
            return None
        plan[name] = (make(field), field.required, field.default, field.allow_null)
    return plan

"""Attestations by a decoded field's value: `GET /attestations?schemaId=...&field.title=...`
(exact), and for integer fields `field.score.gte=` (and `.gt`, `.lte`, `.lt`).

A field is one of the schema's top-level fields of a scalar type (bool, string, address,
bytes, bytesN, intN, uintN); the value is read as that type and compared with what the
indexer stored in `decoded` (attestations/schema.py: addresses and bytes as lowercase 0x-hex,
integers up to 48 bits as JSON numbers and wider ones as decimal strings, strings escaped).

On PostgreSQL an exact value is a JSON containment (`decoded @> {"title": ...}`), which the
GIN index `attestation_decoded_idx` answers; elsewhere (SQLite) a key comparison. A range
compares the field as a number (wider than 64 bits, SQLite compares approximately).
"""

from django.db import connection
from django.db.models import DecimalField, Q, lookups
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from attestations.models import Schema
from attestations.schema import SchemaError, integer_value, parse, stored_value
from core.errors import BadQueryParameters

PREFIX = "field."
RANGE_LOOKUPS = {"gte": lookups.GreaterThanOrEqual, "gt": lookups.GreaterThan,
                 "lte": lookups.LessThanOrEqual, "lt": lookups.LessThan}


def names(query_params) -> list[str]:
    """The decoded-field parameters of a request."""
    return [name for name in query_params if name.startswith(PREFIX)]


def filter_by_decoded_fields(queryset, query_params, schema_uid: str | None):
    """`queryset` narrowed by each `field.*` parameter; a 400 naming the parameter for a
    field the schema does not have, a type that cannot be compared, or a malformed value."""
    params = names(query_params)
    if not params:
        return queryset
    if not schema_uid:
        raise BadQueryParameters({params[0]: ["A decoded field filter needs schemaId: field "
                                              "names and types are a schema's."]})
    fields = _fields_of(schema_uid)
    if fields is None:  # no such schema indexed (or it does not parse): nothing is decoded
        return queryset.none()
    errors, condition = {}, Q()
    for param in params:
        try:
            condition &= _condition(param, query_params.getlist(param), fields)
        except ValueError as exc:
            errors[param] = [str(exc)]
    if errors:
        raise BadQueryParameters(errors)
    return queryset.filter(condition)


def _fields_of(schema_uid: str) -> dict | None:
    text = Schema.objects.filter(uid=schema_uid).values_list("schema", flat=True).first()
    try:
        return None if text is None else {field.name: field for field in parse(text)}
    except SchemaError:
        return None


def _condition(param: str, values: list[str], fields: dict) -> Q:
    name, _, operator = param.removeprefix(PREFIX).partition(".")
    field = fields.get(name)
    if field is None:
        raise ValueError(f"The schema has no field {name!r}; it has: {', '.join(fields)}.")
    if field.dims or field.base == "tuple":
        raise ValueError(f"{name} is {field.type}: only a scalar field can be filtered.")
    if len(values) != 1:
        raise ValueError("Give the parameter once.")
    integer = "int" in field.base
    if operator:
        if operator not in RANGE_LOOKUPS or not integer:
            raise ValueError(f"Use {PREFIX}{name}=value" + (
                f", or {PREFIX}{name}.gte/.gt/.lte/.lt=number" if integer else
                f" ({field.base} has no ranges)") + ".")
        number = Cast(KeyTextTransform(name, "decoded"),
                      DecimalField(max_digits=80, decimal_places=0))
        return Q(RANGE_LOOKUPS[operator](number, integer_value(field.base, values[0])))
    value = stored_value(field, values[0])
    if connection.vendor == "postgresql":
        return Q(decoded__contains={name: value})
    return Q(**{f"decoded__{name}": value})

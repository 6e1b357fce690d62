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
from attestations.schema import SchemaError, escape_text, parse
from core.errors import BadQueryParameters
from core.validators import InvalidHex, normalize_address

PREFIX = "field."
RANGE_LOOKUPS = {"gte": lookups.GreaterThanOrEqual, "gt": lookups.GreaterThan,
                 "lte": lookups.LessThanOrEqual, "lt": lookups.LessThan}
JSON_NUMBER_MAX_BITS = 48  # as the indexer stores them (attestations/schema.py)


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
        return Q(RANGE_LOOKUPS[operator](number, _integer(field.base, values[0])))
    value = _stored(field.base, values[0])
    if connection.vendor == "postgresql":
        return Q(decoded__contains={name: value})
    return Q(**{f"decoded__{name}": value})


def _stored(base: str, raw: str):
    """`raw` as the indexer stores a value of type `base` in `decoded`."""
    if base == "bool":
        if raw not in ("true", "false"):
            raise ValueError("Expected true or false.")
        return raw == "true"
    if base == "string":
        return escape_text(raw.encode())
    if base == "address":
        try:
            return normalize_address(raw)
        except InvalidHex as exc:
            raise ValueError(str(exc)) from None
    if base.startswith("bytes"):
        return _hex_bytes(base, raw)
    number = _integer(base, raw)
    bits = int(base.removeprefix("u").removeprefix("int"))
    return number if bits <= JSON_NUMBER_MAX_BITS else str(number)


def _hex_bytes(base: str, raw: str) -> str:
    digits = raw[2:] if raw[:2] in ("0x", "0X") else None
    size = int(base.removeprefix("bytes") or 0)
    try:
        bytes.fromhex(digits or "")
    except ValueError:
        digits = None
    if digits is None or (size and len(digits) != 2 * size) or len(digits) % 2:
        raise ValueError(f"Expected 0x and {2 * size if size else 'an even number of'} hex "
                         "digits.")
    return "0x" + digits.lower()


def _integer(base: str, raw: str) -> int:
    bits = int(base.removeprefix("u").removeprefix("int"))
    signed = not base.startswith("u")
    try:
        number = int(raw, 10)
    except ValueError:
        raise ValueError(f"Expected a decimal integer ({base}).") from None
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2 ** bits - 1)
    if not low <= number <= high:
        raise ValueError(f"Out of range for {base}.")
    return number

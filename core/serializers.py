"""Serializer bases that read JSON strictly.

DRF is lenient by default: "12" passes as 12, 1 as true, 12 as "12", and unknown fields
are dropped. An API that stores chain ids and hashes should say no instead.
"""

from rest_framework import serializers
from rest_framework.settings import api_settings

from core.errors import camel_attr
from core.problems import FIRST_NAMED, clip, named

# What JSON type each kind of field takes, checked in this order (a subclass before its base).
_EXPECTED = (
    (serializers.PrimaryKeyRelatedField, (int,), "Expected an integer id."),
    (serializers.SlugRelatedField, (str,), "Expected a JSON string."),
    (serializers.BooleanField, (bool,), "Expected true or false."),
    (serializers.UUIDField, (str,), "Expected a UUID string."),  # DRF would take an integer
    (serializers.ListField, (list,), "Expected a JSON array."),
    (serializers.DictField, (dict,), "Expected a JSON object."),
    (serializers.IntegerField, (int,), "Expected a JSON integer."),
    ((serializers.CharField, serializers.ChoiceField), (str,), "Expected a JSON string."),
)


def _expects(field) -> tuple[tuple[type, ...], str] | None:
    for kind, types, message in _EXPECTED:
        if isinstance(field, kind):
            return types, message
    return None


# The bases below carry comments, not docstrings: drf-spectacular would publish a base's
# docstring as the description of every serializer built on it.


class StrictMixin:
    # Refuse unknown fields and values of the wrong JSON type, naming each field, together
    # with whatever else is wrong with the other fields.
    def to_internal_value(self, data):
        if not isinstance(data, dict):
            return super().to_internal_value(data)
        unknown = [name for name in data if name not in self.fields]
        if len(unknown) > FIRST_NAMED:  # refused at once, in a few words whatever their number
            raise non_field_error(f"{len(unknown)} unknown fields, the first "
                                  f"{named(map(camel_attr, unknown))}.", "unknown_field")
        errors = {}
        for name in sorted(unknown):
            errors[name] = [serializers.ErrorDetail(
                f"Unknown field {clip(camel_attr(name), 80)!r}.", code="unknown_field"
            )]
        for name, field in self.fields.items():
            value = data.get(name)
            expected = _expects(field)
            if field.read_only or value is None or expected is None:
                continue
            types, message = expected
            if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
                errors[name] = [serializers.ErrorDetail(message, code="invalid_type")]
        if not errors:
            return super().to_internal_value(data)
        try:
            super().to_internal_value({k: v for k, v in data.items() if k not in errors})
        except serializers.ValidationError as exc:
            if isinstance(exc.detail, dict):  # fields set aside above are not "required"
                errors.update({k: v for k, v in exc.detail.items() if k not in errors})
        raise serializers.ValidationError(errors)


class StrictSerializer(StrictMixin, serializers.Serializer):
    pass


class StrictModelSerializer(StrictMixin, serializers.ModelSerializer):
    # Also refuses changes to the fields named in `Meta.immutable_fields` on update.
    def to_internal_value(self, data):
        validated = super().to_internal_value(data)
        if self.instance is not None:
            errors = {}
            for name in getattr(self.Meta, "immutable_fields", ()):
                source = self.fields[name].source
                if source in validated and validated[source] != getattr(self.instance, source):
                    errors[name] = [serializers.ErrorDetail(
                        "This field cannot change once created.", code="immutable"
                    )]
            if errors:
                raise serializers.ValidationError(errors)
        return validated

    def refuse_duplicate(self, attrs, field: str, message: str, *together: str) -> None:
        """A 409 `duplicate` naming `field` when another row has the same `field` (and
        `together` fields): DRF's own check of a unique constraint names no field. The
        database constraint still guards against a race."""
        names = (field, *together)
        values = {name: attrs.get(name, getattr(self.instance, name, None)) for name in names}
        taken = self.Meta.model.objects.filter(**values)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            wire_name = next(n for n, f in self.fields.items() if f.source == field)
            raise serializers.ValidationError(
                {wire_name: [serializers.ErrorDetail(message, code="unique")]}
            )


def non_field_error(message: str, code: str = "invalid") -> serializers.ValidationError:
    return serializers.ValidationError(
        {api_settings.NON_FIELD_ERRORS_KEY: [serializers.ErrorDetail(message, code=code)]}
    )


def field_paths(serializer) -> dict[str, str]:
    """Where each model attribute a serializer writes sits on the wire (before camelCase):
    {"short_name": "short_name", "currency_name": "native_currency.name", "chain":
    "chain_id"}; a nested serializer over the same object (`source="*"`) is looked into."""
    paths = {}
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        if field.source == "*" and isinstance(field, serializers.Serializer):
            paths.update({source: f"{name}.{path}" for source, path in field_paths(field).items()})
        else:
            paths[field.source_attrs[0] if field.source_attrs else field.source] = name
    return paths

"""Django admin forms that refuse what the API refuses, with the API's messages (issue 37).

A model's rules are written once, in its API serializer. The admin form of such a model
(`ApiRulesForm`, naming the serializer) reads what was typed into the model's fields as usual
(a number, a date, a chain picked from a list), then sends those values through the
serializer as a client would send them: every field when adding (a POST), the changed ones
when changing (a PATCH). What the serializer refuses is shown on its field with the
serializer's message; what it accepts is saved as the API would save it (a lowercased
address, the provider derived from the URL). The form's text fields take any text, so that
the serializer alone judges their format and length.
"""

import copy

from django import forms
from django.db import models
from django.forms.models import construct_instance
from rest_framework import serializers
from rest_framework.relations import PKOnlyObject
from rest_framework.settings import api_settings

from core.errors import DomainError, camel_attr
from core.serializers import field_paths

# For the `formfield_overrides` of a ModelAdmin with URL fields and an ApiRulesForm: the URL is
# text that the API judges (Django's URL form field would assume a scheme, and warn).
URLS_AS_TEXT = {models.URLField: {"form_class": forms.CharField}}


class ApiRulesForm(forms.ModelForm):
    serializer_class: type[serializers.Serializer]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._paths = field_paths(self.serializer_class(context=self.serializer_context()))
        for name in set(self._paths) & set(self.fields):
            self.fields[name] = _lenient(self.fields[name])

    def serializer_context(self) -> dict:
        """The serializer's context (a form of a model whose rules need more says so)."""
        return {}

    def wire_data(self, candidate, names: list[str]) -> dict:
        """The body a client would send for the serializer's fields `names`: their values on
        `candidate` (the record as the form would save it), as the API writes them."""
        serializer = self.serializer_class(candidate, context=self.serializer_context())
        data = {}
        for name in names:
            field = serializer.fields[name]
            attribute = field.get_attribute(candidate)
            empty = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
            data[name] = None if empty is None else field.to_representation(attribute)
        return data

    def check(self, validated: dict, candidate) -> None:
        """Rules of the API's services beyond its serializer: raise core.errors.Invalid."""

    def _post_clean(self):
        # Instead of the model's own validation: the API's, which is the model's rules.
        unread = set(self._errors)  # fields the form could not read: its message stands
        opts = self._meta
        adding = self.instance._state.adding
        candidate = construct_instance(self, _copy(self.instance), opts.fields, opts.exclude)
        serializer = self.serializer_class(
            None if adding else self.instance, partial=not adding,
            data=self.wire_data(candidate, self._fields_to_send(adding, unread)),
            context=self.serializer_context())
        if not serializer.is_valid():
            self._show(serializer.errors, unread)
            return
        try:
            self.check(serializer.validated_data, candidate)
        except DomainError as exc:  # field errors, as its `errors` or as its `detail`
            errors = exc.errors or exc.detail
            self._show(errors if isinstance(errors, dict)
                       else {api_settings.NON_FIELD_ERRORS_KEY: [str(errors)]}, unread)
            return
        for name, value in serializer.validated_data.items():
            setattr(candidate, name, value)
        self.instance = candidate

    def _fields_to_send(self, adding: bool, unread: set[str]) -> list[str]:
        serializer = self.serializer_class(context=self.serializer_context())
        names = []
        for name, field in serializer.fields.items():
            sources = {source for source, path in self._paths.items()
                       if path.split(".")[0] == name}
            # Read-only fields are the service's; write-only ones (a proof) are not on the
            # record the form edits.
            if field.read_only or field.write_only or sources & unread:
                continue
            if adding or sources & set(self.changed_data):
                names.append(name)
        return names

    def _show(self, errors: dict, unread: set[str]) -> None:
        # Each message goes to the form field of the model attribute its path names (the
        # longest match: `native_currency.name` is currency_name; `abi.0.inputs` is abi, the
        # rest of the path then starting the message, as the API's `attr` would name it).
        by_path = {path: source for source, path in self._paths.items()}
        for path, message in _flatten(errors):
            field_path = max((p for p in by_path if path == p or path.startswith(p + ".")),
                             key=len, default=None)
            source = by_path.get(field_path)
            if source in unread:
                continue  # the form's own message about it is shown
            if field_path is not None and path != field_path:
                message = f"{path[len(field_path) + 1:]}: {message}"
            if source in self.fields:
                self.add_error(source, message)
            elif path == api_settings.NON_FIELD_ERRORS_KEY:
                self.add_error(None, message)
            else:
                self.add_error(None, f"{camel_attr(path)}: {message}")


# Text fields whose every rule is the API's (JSON, UUIDs and the like are still read here).
_TEXT = (forms.CharField, forms.URLField, forms.SlugField, forms.EmailField, forms.RegexField)


def _lenient(field: forms.Field) -> forms.Field:
    """The form field, reading its value but leaving every rule about it to the API."""
    if type(field) in _TEXT:  # URLs, slugs: no scheme assumed, no format
        return forms.CharField(
            required=False, strip=False, empty_value=field.empty_value, label=field.label,
            help_text=field.help_text, initial=field.initial, widget=field.widget,
            disabled=field.disabled)
    # Ranges and emptiness are the API's too; the value is still read (as a number, a
    # date, JSON, a record picked from a list).
    field.validators, field.required = [], False
    return field


def _copy(instance):
    """A copy to build the candidate record on (a model copies its state and its cache of
    related objects), so that the form's instance stays as stored until the API accepts."""
    return copy.copy(instance)


def _flatten(errors, path: str = ""):
    """(path, message) for every message of a serializer's errors, their paths as the API's
    problem documents give them: `native_currency.name`, `abi.0.inputs`, `event_types.1`."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            yield from _flatten(value, f"{path}.{key}" if path else str(key))
    elif isinstance(errors, list) and any(isinstance(value, (dict, list)) for value in errors):
        for index, value in enumerate(errors):
            yield from _flatten(value, f"{path}.{index}")
    elif isinstance(errors, list):
        for message in errors:
            yield path, str(message)
    else:
        yield path, str(errors)

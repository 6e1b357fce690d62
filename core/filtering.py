import difflib
from functools import cache

from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.exceptions import ErrorDetail

from core.errors import UnknownQueryParameters


class FilterBackend(DjangoFilterBackend):
    """django-filter, skipped when the request names none of the filters: building the
    filter form costs more than the rest of a small list request. A list refuses query
    parameters it does not know (a 400 naming them), rather than ignoring a mistyped
    filter and answering everything."""

    def filter_queryset(self, request, queryset, view):
        filterset_class = self.get_filterset_class(view, queryset)
        prefixes = getattr(filterset_class, "parameter_prefixes", ())
        if getattr(view, "action", None) == "list":
            refuse_unknown_parameters(request.query_params, known_parameters(
                filterset_class, type(getattr(view, "paginator", None))), prefixes)
        if filterset_class is None or not (
                set(request.query_params) & set(filterset_class.base_filters)
                or any(name.startswith(prefixes) for name in request.query_params)):
            return queryset
        return super().filter_queryset(request, queryset, view)


@cache
def known_parameters(filterset_class, paginator_class) -> frozenset[str]:
    """The filters (`ordering` among them, where offered) and the paginator's parameters
    (every `*_query_param` it names: `limit`, `offset`, `cursor`)."""
    names = set(filterset_class.base_filters) if filterset_class is not None else set()
    for attribute in dir(paginator_class):
        value = getattr(paginator_class, attribute)
        if attribute.endswith("_query_param") and isinstance(value, str):
            names.add(value)
    return frozenset(names)


def refuse_unknown_parameters(given, known: frozenset[str], prefixes: tuple = ()) -> None:
    """A 400 naming each parameter that is not `known` and starts with none of `prefixes`
    (a family a filter set reads itself, such as `field.*` of /attestations)."""
    unknown = [name for name in given if name not in known and not name.startswith(prefixes)]
    if not unknown:
        return
    listed = ", ".join(sorted(known))
    errors = {}
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        errors[name] = [ErrorDetail(f"Unknown query parameter{hint}; this list takes: {listed}.",
                                    code="unknown_parameter")]
    raise UnknownQueryParameters(errors)

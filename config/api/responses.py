"""A hot endpoint's answer, rendered directly.

A DRF Response is rendered late, through a template response and the negotiated renderer:
for a small answer that machinery costs more than writing the JSON. `rendered` writes the
same bytes with the API's renderer (camelCase keys, compact UTF-8 JSON) and returns a plain
response, which DRF passes through (it still adds its headers).
"""

from django.http import HttpResponse
from djangorestframework_camel_case.render import CamelCaseJSONRenderer

_RENDERER = CamelCaseJSONRenderer()


def rendered(data, status: int = 200) -> HttpResponse:
    return HttpResponse(_RENDERER.render(data), status=status,
                        content_type=_RENDERER.media_type)

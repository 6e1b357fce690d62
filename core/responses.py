"""A hot endpoint's answer, rendered directly.

A DRF Response is rendered late, through a template response and the negotiated renderer:
for a small answer that machinery costs more than writing the JSON. `rendered` writes the
bytes the API's renderer writes (camelCase keys, compact UTF-8 JSON, as DRF's JSONRenderer
with this project's settings) and returns a plain response, which DRF passes through (it
still adds its headers). A flat answer of plain JSON values is written here; anything else
by the renderer itself. tests/test_fast_lane.py compares the two.
"""

import json
from functools import lru_cache

from django.http import HttpResponse
from djangorestframework_camel_case.render import CamelCaseJSONRenderer

from core.errors import camel_attr

_RENDERER = CamelCaseJSONRenderer()
_PLAIN = (str, int, float, bool, type(None))
# One encoder: json.dumps with options builds a new one for each call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def rendered(data: dict, status: int = 200) -> HttpResponse:
    if all(type(value) in _PLAIN for value in data.values()):
        text = _ENCODER.encode({_camel(key): value for key, value in data.items()})
        body = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()
    else:
        body = _RENDERER.render(data)
    return HttpResponse(body, status=status, content_type=_RENDERER.media_type)


@lru_cache(maxsize=256)
def _camel(key: str) -> str:
    return camel_attr(key)

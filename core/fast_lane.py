"""A fast lane through DRF for the busiest actions: a heartbeat and a verification.

APIView.dispatch wraps each request in a DRF Request, negotiates a renderer, parses through
the parser classes and renders through a template response: machinery that costs these two
actions more than their own work. The lane serves an ordinary request of such an action
with the view's own pieces, in DRF's order: the view's authentication classes, permissions
and throttles, then (only for a key that passed them) the API's strict JSON parsing and the
lean reading of the body (core/lean.py), then the action, rendered by the API's
renderer. Whatever is not ordinary (no
key or a refused one, a body that is not plain JSON of the expected shape, a permission or
a throttle that says no, a forced authentication as tRPC's in-process calls use) goes the
full DRF way, which answers exactly as it always did. An error the action raises is
answered by the view's own exception handler, as DRF would.

tests/test_fast_lane.py checks that the lane and DRF's dispatch answer alike.
"""

import io

from django.conf import settings
from rest_framework.exceptions import APIException

from core.lean import lean_read, read_body
from core.parsers import JSONParser
from core.responses import rendered

_PARSER = JSONParser()


class FastLaneMixin:
    """For a ViewSet: `fast_lane` maps an action to (request serializer, method name); the
    method takes the validated body and the key holder and returns the answer's data. The
    action itself returns `self.lane_response(request)`, so that both lanes do the same."""

    fast_lane: dict[str, tuple[type, str]] = {}

    def dispatch(self, request, *args, **kwargs):
        action = self.action_map.get(request.method.lower())
        if action in self.fast_lane and settings.API_FAST_LANE:
            response = self._fast(request, action, args, kwargs)
            if response is not None:
                return response
        return super().dispatch(request, *args, **kwargs)

    def lane_response(self, request):
        """The action's answer on DRF's way: the same method, fed by the serializer."""
        serializer_class, method = self.fast_lane[self.action]
        return rendered(getattr(self, method)(read_body(serializer_class, request.data),
                                              request.auth))

    def _fast(self, request, action, args, kwargs):
        serializer_class, method = self.fast_lane[action]
        if (request.content_type != "application/json"
                or request.content_params.get("charset", "utf-8").lower() != "utf-8"
                or hasattr(request, "_force_auth_user")):
            return None
        # The key first, as DRF does: a request without a valid key of the right scope goes
        # DRF's way, which refuses it before anything reads its body (a keyless megabyte
        # would otherwise cost a worker the parse).
        holder = self._fast_authenticate(request)
        if holder is None:
            return None
        request.user = request.auth = holder  # what DRF's Request sets on the request
        self.args, self.kwargs, self.request, self.action = args, kwargs, request, action
        if not all(permission.has_permission(request, self)
                   for permission in self.get_permissions()):
            return None
        if not all(throttle.allow_request(request, self) for throttle in self.get_throttles()):
            return None
        request.fast_lane_throttled = True  # counted once: DRF's way does not count it again
        try:
            body = _PARSER.parse(io.BytesIO(request.body), "application/json",
                                 {"encoding": "utf-8"})
        except Exception:  # not plain JSON, or too large: DRF's dispatch says what is wrong
            return None
        data = lean_read(serializer_class, body)
        if data is None:
            return None
        try:
            response = rendered(getattr(self, method)(data, holder))
        except Exception as exc:  # answered as DRF's dispatch would (not a bare except)
            return self._fast_error(request, exc, args, kwargs)
        self.headers = self.default_response_headers
        return self.finalize_response(request, response, *args, **kwargs)

    def check_throttles(self, request):
        if not getattr(request, "fast_lane_throttled", False):
            super().check_throttles(request)

    def _fast_authenticate(self, request):
        """The holder the view's authentication classes find, or None when DRF's own
        dispatch should decide (no credentials, or refused ones)."""
        for authenticator in self.get_authenticators():
            try:
                found = authenticator.authenticate(request)
            except APIException:
                return None
            if found is not None:
                return found[1]
        return None

    def _fast_error(self, request, exc, args, kwargs):
        """DRF's handling of an exception raised by a handler, from `dispatch`."""
        holder = request.auth
        drf_request = self.initialize_request(request, *args, **kwargs)
        drf_request.user, drf_request.auth = holder, holder
        self.request = drf_request
        self.headers = self.default_response_headers
        self.format_kwarg = self.get_format_suffix(**kwargs)
        drf_request.accepted_renderer, drf_request.accepted_media_type = (
            self.perform_content_negotiation(drf_request))
        response = self.handle_exception(exc)
        return self.finalize_response(drf_request, response, *args, **kwargs)

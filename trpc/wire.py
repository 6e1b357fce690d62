"""tRPC's HTTP answers (v10 and v11 clients): envelopes, batches, streams, statuses.

- `{"result": {"data": ...}}` or `{"error": {"message", "code", "data": {...}}}`;
- a batch (`?batch=1`, paths joined by commas) answers an array in request order, with the
  items' common status or 207 when they differ;
- `trpc-accept: application/jsonl` (v11 httpBatchStreamLink) answers one JSON line holding
  every result, `{"0": [[envelope]], ...}`, which the client reads as results that were
  ready at once; `trpc-batch-mode: stream` (v10 unstable_httpBatchStreamLink) answers
  v10's streamed object, one `"index": envelope` per line;
- with the superjson transformer, values are wrapped as superjson writes them.
"""

import json
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

from trpc import superjson
from trpc.errors import RpcError

JSONL = "application/jsonl"


@dataclass
class Outcome:
    path: str | None  # None: the request's, not a call's
    data: object = None
    error: RpcError | None = None

    @property
    def status(self) -> int:
        return self.error.status if self.error else 200


class Wire:
    """What a request to /trpc/{paths} asks of the answer."""

    def __init__(self, request, paths: str):
        self.batch = request.GET.get("batch") == "1"
        self.paths = paths.split(",") if self.batch else [paths]
        self.superjson = settings.TRPC_SUPERJSON
        accept = request.headers.get("trpc-accept") or request.headers.get("accept", "")
        self.jsonl = self.batch and JSONL in [part.strip() for part in accept.split(",")]
        self.v10_stream = self.batch and request.headers.get("trpc-batch-mode") == "stream"

    def decode(self, value):
        """A call's input as the procedures take it (plain JSON)."""
        if self.superjson and value is not None:
            return superjson.unwrap(value)
        return value

    def envelope(self, outcome: Outcome, *, wrap: bool = True) -> dict:
        encode = superjson.wrap if self.superjson and wrap else (lambda value: value)
        if outcome.error:
            return {"error": encode(outcome.error.shape(outcome.path))}
        return {"result": {"data": encode(outcome.data)}}

    def answer(self, outcomes: list[Outcome]) -> HttpResponse:
        if not self.batch:
            (outcome,) = outcomes
            return self._response(json.dumps(self.envelope(outcome)), outcome.status, outcomes)
        if self.jsonl:
            head = {str(i): [[self.envelope(o, wrap=False)]] for i, o in enumerate(outcomes)}
            line = superjson.wrap(head) if self.superjson else head
            return self._response(json.dumps(line) + "\n", 200, outcomes, JSONL)
        status = _common_status(outcomes)
        if self.v10_stream:
            lines = [("{" if i == 0 else ",") + json.dumps(str(i)) + ":" + json.dumps(self.envelope(o))
                     for i, o in enumerate(outcomes)]
            return self._response("\n".join(lines) + "\n}", status, outcomes)
        return self._response(json.dumps([self.envelope(o) for o in outcomes]), status, outcomes)

    def reject(self, error: RpcError) -> HttpResponse:
        """The answer to a request tRPC refuses as a whole (a batch too large, a body not
        JSON by its type, queries and mutations mixed): one envelope naming no path, as
        @trpc/server v11 answers (its clients read it as every call's). A v10 stream client
        reads only its stream: one such envelope per call there."""
        if self.v10_stream:
            return self.answer([Outcome(None, error=error) for _path in self.paths])
        outcome = Outcome(None, error=error)
        return self._response(json.dumps(self.envelope(outcome)), error.status, [outcome])

    def refuse(self, error: RpcError) -> HttpResponse:
        """The answer to a request whose every call fails alike (key, body, method): the same
        error for each call; a single envelope to a v11 stream, whose client reads it so."""
        outcomes = [Outcome(path, error=error) for path in self.paths]
        if self.jsonl:
            return self._response(json.dumps(self.envelope(outcomes[0])), error.status, outcomes)
        return self.answer(outcomes)

    def _response(self, body: str, status: int, outcomes, content_type="application/json"):
        response = HttpResponse(body, status=status, content_type=content_type)
        for name, value in _error_headers(outcomes).items():
            response[name] = value
        patch_vary_headers(response, ["trpc-accept", "trpc-batch-mode", "accept"])
        return response


def _common_status(outcomes: list[Outcome]) -> int:
    statuses = {outcome.status for outcome in outcomes}
    return statuses.pop() if len(statuses) == 1 else 207


def _error_headers(outcomes: list[Outcome]) -> dict:
    """The errors' headers a client needs; `Allow` lists the methods of every refused call."""
    headers, allowed = {}, []
    for outcome in outcomes:
        for name, value in (outcome.error.headers if outcome.error else {}).items():
            if name == "Allow":
                allowed += [method for method in value.split(", ") if method not in allowed]
            else:
                headers.setdefault(name, value)
    if allowed:
        headers["Allow"] = ", ".join(allowed)
    return headers

"""/trpc in the OpenAPI schema (a drf-spectacular postprocessing hook): plain Django views
are not generated, so their paths are written here, the procedures taken from the registry.
docs/api.md has the whole protocol."""

from trpc.procedures import PROCEDURES

_ENVELOPE = {
    "description": "tRPC's envelope: `{result: {data}}` or `{error: {message, code, data}}`; "
                   "an array of them for a batch.",
    "oneOf": [
        {"type": "object", "required": ["result"], "properties": {
            "result": {"type": "object", "properties": {"data": {}}}}},
        {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "required": ["message", "code", "data"], "properties": {
                "message": {"type": "string"},
                "code": {"type": "integer", "description": "tRPC's JSON-RPC number (-32004)."},
                "data": {"type": "object", "properties": {
                    "code": {"type": "string", "description": "tRPC's name (NOT_FOUND)."},
                    "httpStatus": {"type": "integer"},
                    "path": {"type": "string"},
                    "problem": {"$ref": "#/components/schemas/Problem"},
                }},
            }}}},
        {"type": "array", "items": {"type": "object"}},
    ],
}


def _answers(statuses: str) -> dict:
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/TrpcEnvelope"}}}
    return {status: {"description": text, "content": content}
            for status, text in statuses.items()}


def add_trpc_paths(result, generator, request, public):
    queries = sorted(name for name, p in PROCEDURES.items() if p.kind == "query")
    mutations = sorted(name for name, p in PROCEDURES.items() if p.kind == "mutation")
    result.setdefault("components", {}).setdefault("schemas", {})["TrpcEnvelope"] = _ENVELOPE
    paths_parameter = {
        "name": "procedures", "in": "path", "required": True, "schema": {"type": "string"},
        "description": f"A procedure, or several joined by commas with `batch=1`. Queries "
                       f"(GET): {', '.join(queries)}. Mutations (POST): {', '.join(mutations)}.",
    }
    batch = {"name": "batch", "in": "query", "required": False,
             "schema": {"type": "string", "enum": ["1"]}}
    answers = _answers({
        "200": "Every call answered with the same status (200 for success).",
        "207": "A batch whose calls' statuses differ.",
        "400": "Invalid input, in an error envelope.", "401": "No valid key.",
        "403": "The key's scope does not allow this.", "404": "No such procedure or record.",
        "405": "A query with POST or a mutation with GET (`Allow` says which).",
    })
    security = [{"ApiKey": []}]
    result["paths"]["/trpc/{procedures}"] = {
        "get": {
            "operationId": "trpc_query", "tags": ["trpc"], "security": security,
            "summary": "tRPC queries (and batches of them)",
            "parameters": [paths_parameter, batch, {
                "name": "input", "in": "query", "required": False, "schema": {"type": "string"},
                "description": "The input as JSON; for a batch `{\"0\": ..., \"1\": ...}`."}],
            "responses": answers,
        },
        "post": {
            "operationId": "trpc_mutation", "tags": ["trpc"], "security": security,
            "summary": "tRPC mutations (and batches of them)",
            "parameters": [paths_parameter, batch],
            "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": answers,
        },
    }
    result["paths"]["/trpc"] = {"post": {
        "operationId": "jsonrpc", "tags": ["trpc"], "security": security,
        "summary": "JSON-RPC 2.0: the procedures as methods, a request or a batch",
        "requestBody": {"content": {"application/json": {"schema": {"oneOf": [
            {"type": "object", "required": ["jsonrpc", "method"], "properties": {
                "jsonrpc": {"type": "string", "enum": ["2.0"]},
                "method": {"type": "string", "enum": sorted(PROCEDURES)},
                "params": {"type": "object"}, "id": {"oneOf": [{"type": "string"},
                                                              {"type": "integer"}]}}},
            {"type": "array", "items": {"type": "object"}},
        ]}}}},
        "responses": {
            "200": {"description": "The reply (an array for a batch).",
                    "content": {"application/json": {"schema": {"oneOf": [
                        {"type": "object"}, {"type": "array", "items": {"type": "object"}}]}}}},
            "400": {"description": "A single request that is not JSON (-32700), not a request "
                                   "(-32600) or has invalid params (-32602).",
                    "content": {"application/json": {"schema": {"type": "object"}}}},
            "404": {"description": "A single request for an unknown method (-32601).",
                    "content": {"application/json": {"schema": {"type": "object"}}}},
            "204": {"description": "Only notifications: nothing to answer."},
            "401": {"description": "No valid key: an error with code -32001 and id null.",
                    "content": {"application/json": {"schema": {"type": "object"}}}},
        },
    }}
    return result

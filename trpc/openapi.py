"""/trpc in the OpenAPI schema (a drf-spectacular postprocessing hook): plain Django views
are not generated, so their paths are written here, the procedures taken from the registry.
docs/api.md has the whole protocol."""

from core.schema_hooks import schema_path
from trpc.dispatch import path_params, path_template
from trpc.procedures import PROCEDURES

# Each part of the envelope is a component of its own: inline, generators name the nested
# objects after their position and some (openapi-python-client) then make one model twice.
_COMPONENTS = {
    "TrpcResult": {"type": "object", "required": ["result"], "properties": {
        "result": {"type": "object", "properties": {"data": {
            "description": "The REST answer."}}}}},
    "TrpcErrorData": {"type": "object", "properties": {
        "code": {"type": "string", "description": "tRPC's name (NOT_FOUND)."},
        "httpStatus": {"type": "integer"},
        "path": {"type": "string"},
        "problem": {"$ref": "#/components/schemas/Problem"},
    }},
    "TrpcErrorShape": {"type": "object", "required": ["message", "code", "data"], "properties": {
        "message": {"type": "string"},
        "code": {"type": "integer", "description": "tRPC's JSON-RPC number (-32004)."},
        "data": {"$ref": "#/components/schemas/TrpcErrorData"},
    }},
    "TrpcError": {"type": "object", "required": ["error"], "properties": {
        "error": {"$ref": "#/components/schemas/TrpcErrorShape"}}},
    "TrpcEnvelope": {
        "description": "tRPC's envelope: `{result: {data}}` or `{error: {message, code, data}}`; "
                       "an array of them for a batch.",
        "oneOf": [
            {"$ref": "#/components/schemas/TrpcResult"},
            {"$ref": "#/components/schemas/TrpcError"},
            {"type": "array", "items": {"oneOf": [{"$ref": "#/components/schemas/TrpcResult"},
                                                  {"$ref": "#/components/schemas/TrpcError"}]}},
        ],
    },
}


def _answers(statuses: dict) -> dict:
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/TrpcEnvelope"}}}
    return {status: {"description": text, "content": content}
            for status, text in statuses.items()}


def _rest_operation(paths: dict, name: str) -> dict:
    """The procedure `name` as the REST operation it runs: its operationId, and the input
    field of each URL parameter (what clients/typescript/trpc.d.ts is made from)."""
    procedure = PROCEDURES[name]
    params = path_params(procedure.url_name)
    operation = paths[schema_path(path_template(procedure.url_name))][procedure.method.lower()]
    return {"name": name, "kind": procedure.kind, "operationId": operation["operationId"],
            "pathInputs": {schema_path(f"{{{p}}}")[1:-1]: procedure.input_field(p)
                           for p in params}}


def add_trpc_paths(result, generator, request, public):
    queries = sorted(name for name, p in PROCEDURES.items() if p.kind == "query")
    mutations = sorted(name for name, p in PROCEDURES.items() if p.kind == "mutation")
    result.setdefault("components", {}).setdefault("schemas", {}).update(_COMPONENTS)
    procedures = [_rest_operation(result["paths"], name) for name in sorted(PROCEDURES)]
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
        "400": "Invalid input, in an error envelope. A request refused as a whole (more calls "
               "than TRPC_MAX_BATCH_SIZE, more items than TRPC_BATCH_BUDGET, queries and "
               "mutations in one batch) is one envelope without `path`, as @trpc/server "
               "answers.", "401": "No valid key.",
        "403": "The key's scope does not allow this.", "404": "No such procedure or record.",
        "405": "A query with POST or a mutation with GET (`Allow` says which).",
        "413": "The body is too large.",
        "415": "The body is not JSON: one envelope without `path`.",
        "429": "Rate limited (`Retry-After`).",
        "503": "The database (or a chain) does not answer (`Retry-After`).",
    })
    security = [{"ApiKey": []}]
    result["paths"]["/trpc/{procedures}"] = {
        "get": {
            "operationId": "trpcQuery", "tags": ["trpc"], "security": security,
            "x-trpc-procedures": [p for p in procedures if p["kind"] == "query"],
            "summary": "tRPC queries (and batches of them)",
            "parameters": [paths_parameter, batch, {
                "name": "input", "in": "query", "required": False, "schema": {"type": "string"},
                "description": "The input as JSON; for a batch `{\"0\": ..., \"1\": ...}`."}],
            "responses": answers,
        },
        "post": {
            "operationId": "trpcMutation", "tags": ["trpc"], "security": security,
            "x-trpc-procedures": [p for p in procedures if p["kind"] == "mutation"],
            "summary": "tRPC mutations (and batches of them)",
            "parameters": [paths_parameter, batch],
            "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": answers,
        },
    }
    result["paths"]["/trpc"] = {"post": {
        "operationId": "jsonRpc", "tags": ["trpc"], "security": security,
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
                                   "(-32600) or has invalid params (-32602); a batch over "
                                   "TRPC_MAX_BATCH_SIZE calls or TRPC_BATCH_BUDGET items "
                                   "(-32600, id null, nothing run).",
                    "content": {"application/json": {"schema": {"type": "object"}}}},
            "404": {"description": "A single request for an unknown method (-32601).",
                    "content": {"application/json": {"schema": {"type": "object"}}}},
            "204": {"description": "Only notifications: nothing to answer."},
            "401": {"description": "No valid key: an error with code -32001 and id null.",
                    "content": {"application/json": {"schema": {"type": "object"}}}},
        },
    }}
    return result

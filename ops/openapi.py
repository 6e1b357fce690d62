"""The probes and /metrics in the OpenAPI schema (a drf-spectacular postprocessing hook):
they are plain Django views, which drf-spectacular does not see."""

_CHECKS = {"type": "object", "description": "Each dependency's check by name (database, "
           "broker, schedules, workers, executors): `status`, `latencyMs`, `detail`.",
           "additionalProperties": {"type": "object"}}
_READY = {"type": "object", "required": ["status", "checks"], "properties": {
    "status": {"type": "string", "enum": ["ok"]}, "checks": _CHECKS}}
_NOT_READY = {"allOf": [{"$ref": "#/components/schemas/Problem"}, {
    "type": "object", "properties": {"checks": _CHECKS}}]}


def _get(operation_id: str, summary: str, description: str, responses: dict) -> dict:
    return {"get": {"operationId": operation_id, "summary": summary, "tags": ["ops"],
                    "description": description, "security": [], "responses": responses}}


def _json(description: str, schema: dict, media_type: str = "application/json") -> dict:
    return {"description": description, "content": {media_type: {"schema": schema}}}


def add_ops_paths(result, generator, request, public):
    result["paths"]["/healthz"] = _get(
        "getLiveness", "Liveness", "The process is up and serving (no key; HEAD too).",
        {"200": _json("Up.", {"type": "object", "required": ["status"], "properties": {
            "status": {"type": "string", "enum": ["ok"]}}})})
    result["paths"]["/readyz"] = _get(
        "getReadiness", "Readiness",
        "The database and the broker answer, the periodic tasks run on time and a Celery "
        "worker answers (no key).",
        {"200": _json("Ready.", _READY),
         "503": {**_json("Not ready: `checks` names what is missing.", _NOT_READY,
                         "application/problem+json")}})
    metrics = _get(
        "getMetrics", "Prometheus metrics",
        "The service's metrics in Prometheus' text format; with `METRICS_TOKEN` set, only "
        "with `Authorization: Bearer <token>`.",
        {"200": _json("The metrics.", {"type": "string"}, "text/plain"),
         "401": _json("The metrics token is missing or wrong.",
                      {"$ref": "#/components/schemas/Problem"}, "application/problem+json")})
    metrics["get"]["security"] = [{"MetricsBearer": []}, {}]
    result["paths"]["/metrics"] = metrics
    result["components"].setdefault("securitySchemes", {})["MetricsBearer"] = {
        "type": "http", "scheme": "bearer",
        "description": "`METRICS_TOKEN`, when the operator set one (else no credentials).",
    }
    return result

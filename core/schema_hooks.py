"""drf-spectacular postprocessing hooks of our own (SPECTACULAR_SETTINGS)."""

import re

from djangorestframework_camel_case.util import camelize_re, underscore_to_camel

REF_PREFIX = "#/components/schemas/"
DIGITS = "^[0-9]+$"
BIGINT_MAX = 2**63 - 1
_PATH_PARAMETER = re.compile(r"\{(\w+)\}")


def camel_name(name: str) -> str:
    """`chain_id` -> `chainId`."""
    return camelize_re.sub(underscore_to_camel, name)


def schema_path(route: str) -> str:
    """A route's template as the schema writes it: `/v1/admin/chains/{chain_id}` ->
    `/v1/admin/chains/{chainId}`; a primary key is `{id}`, as drf-spectacular names it."""
    return _PATH_PARAMETER.sub(
        lambda match: "{" + ("id" if match[1] == "pk" else camel_name(match[1])) + "}", route)


def camel_case_path_parameters(result, generator, request, public):
    """Path parameters in camelCase, like every other name on the wire (`{chainId}`,
    `{workflowId}`, `{subscriptionId}`): drf-spectacular names them after the URL's Python
    keyword arguments. (Its CAMELIZE_NAMES would also rename components.)"""
    result["paths"] = {schema_path(path): operations
                       for path, operations in result["paths"].items()}
    for operations in result["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    parameter["name"] = camel_name(parameter["name"])
    return result


def integer_path_parameters(result, generator, request, public):
    """A path parameter that takes only digits (`lookup_value_regex = "[0-9]+"`, which
    drf-spectacular writes as a string with a pattern) is an integer: `getChain(1)`, not
    `getChain("1")`, in a generated client."""
    for operations in result["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path" and parameter["schema"] == {
                        "type": "string", "pattern": DIGITS}:
                    parameter["schema"] = {"type": "integer", "minimum": 0,
                                           "maximum": BIGINT_MAX}
    return result


def type_nullable_references(result, generator, request, public):
    """Give a `type` to each nullable reference: drf-spectacular writes a nullable enum or
    nested record as `{nullable: true, oneOf|allOf: [{$ref}]}`, which OpenAPI 3.0 leaves
    untyped (`nullable` qualifies a `type`); openapi-typescript refuses it and Redocly's
    lint flags it. The type is the one every referenced component shares."""
    components = result.get("components", {}).get("schemas", {})

    def visit(node):
        if isinstance(node, dict):
            if node.get("nullable") and "type" not in node:
                types = {components[ref["$ref"].removeprefix(REF_PREFIX)].get("type")
                         for ref in node.get("oneOf", []) + node.get("allOf", [])
                         if "$ref" in ref}
                types.discard(None)  # drf-spectacular's NullEnum, {enum: [null]}
                if len(types) == 1:
                    node["type"] = types.pop()
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(result)
    return result

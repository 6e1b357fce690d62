"""drf-spectacular postprocessing hooks of our own (SPECTACULAR_SETTINGS)."""

REF_PREFIX = "#/components/schemas/"
DIGITS = "^[0-9]+$"
BIGINT_MAX = 2**63 - 1


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

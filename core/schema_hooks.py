"""drf-spectacular postprocessing hooks of our own (SPECTACULAR_SETTINGS)."""

REF_PREFIX = "#/components/schemas/"


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

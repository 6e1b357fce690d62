"""The superjson transformer's wire form (setting TRPC_SUPERJSON), for clients created with
`transformer: superjson`: every input and output travels as `{"json": value, "meta"?}`.

Our outputs are plain JSON (times are strings), so they never need `meta`. Of the types an
input's `meta` may name, those with a JSON meaning are applied (`undefined` drops the value,
`bigint` becomes an integer, `Date` stays its ISO string); any other is a 400.
"""

import re

from trpc.errors import RpcError

_UNESCAPED_DOT = re.compile(r"(?<!\\)\.")


def wrap(value) -> dict:
    return {"json": value}


def unwrap(value):
    """The plain input of a superjson-serialized one."""
    if not isinstance(value, dict) or "json" not in value or set(value) - {"json", "meta"}:
        raise RpcError(400, 'A superjson input is an object {"json": ..., "meta"?: ...}.')
    data = value["json"]
    meta = value.get("meta") or {}
    annotations = meta.get("values") if isinstance(meta, dict) else None
    if annotations is None:
        return data
    if isinstance(annotations, list):  # the whole value is annotated
        return _apply(data, annotations)
    if not isinstance(annotations, dict):
        raise RpcError(400, "The superjson meta.values must be an object or a list.")
    for path, annotation in annotations.items():
        data = _apply_at(data, [p.replace("\\.", ".") for p in _UNESCAPED_DOT.split(path)],
                         annotation)
    return data


def _apply(value, annotation):
    kind = annotation[0] if isinstance(annotation, list) and annotation else annotation
    if kind == "undefined":
        return None
    if kind == "bigint" and isinstance(value, str) and re.fullmatch(r"-?\d+", value):
        return int(value)
    if kind == "Date" and isinstance(value, str):
        return value
    raise RpcError(400, f"The superjson type {kind!r} has no JSON meaning here.")


def _apply_at(data, path: list[str], annotation):
    if not path:
        return _apply(data, annotation)
    head, rest = path[0], path[1:]
    if isinstance(data, dict) and head in data:
        value = _apply_at(data[head], rest, annotation)
        if value is None and not rest:
            del data[head]  # undefined: absent, as in JavaScript
        else:
            data[head] = value
    elif isinstance(data, list) and head.isdigit() and int(head) < len(data):
        data[int(head)] = _apply_at(data[int(head)], rest, annotation)
    else:
        raise RpcError(400, f"The superjson meta names a value that is not there: {head}.")
    return data

"""The EAS schema grammar: parse a schema string, check data against it, ABI-encode it.

Follows the EAS SDK's SchemaEncoder (`bytes32 documentHash,string name,(string key,uint256
value)[] attrs`: comma-separated `TYPE NAME` pairs, `uint`/`int` for uint256/int256,
`ipfsHash` for bytes32), but says no where the SDK silently mangles its input: duplicate or
empty names, stray commas, short hex for a bytesN, the string "false" for a bool.

Errors are dicts `{"attr", "code", "detail"}` as the API's problem documents write them:
`schema` (the whole string), `schema.3` (its 4th field), `schema.3.1` (that tuple's 2nd
component), `data.attrs.1.value` (a value).
"""

import re
from dataclasses import dataclass, field
from functools import lru_cache

import eth_abi
import eth_abi.grammar

from core.validators import InvalidHex, normalize_address

ALIASES = {"uint": "uint256", "int": "int256", "ipfsHash": "bytes32"}
DOCUMENT_HASH_FIELD = "documentHash"
# Parsing and checking recurse once per level of tuples; real schemas nest two or three.
MAX_TUPLE_DEPTH = 16

_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_BASE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_DIMS = re.compile(r"(?:\[[^\]]*\])*")
_DIM = re.compile(r"\[([^\]]*)\]")
_SIZED = re.compile(r"(u?int|bytes)([0-9]+)")
_FIXED_POINT = re.compile(r"u?fixed([0-9]+x[0-9]+)?")
# Integers may come as decimal strings: JavaScript clients send big numbers that way, since a
# JSON number beyond 2**53 loses digits there. No hex strings, signs other than "-", or
# leading zeros: one spelling per number. 78 digits hold any 256-bit value.
_DECIMAL = re.compile(r"-?(0|[1-9][0-9]{0,77})")
_HEX = re.compile(r"0x((?:[0-9a-fA-F]{2})*)")


def _error(attr: str, code: str, detail: str) -> dict:
    return {"attr": attr, "code": code, "detail": detail}


class SchemaError(ValueError):
    def __init__(self, attr: str, code: str, detail: str):
        super().__init__(detail)
        self.error = _error(attr, code, detail)


@dataclass(frozen=True)
class Field:
    name: str
    base: str  # canonical elementary ABI type ("uint256", "bytes32"), or "tuple"
    dims: tuple[int | None, ...] = ()  # array suffixes as written: uint8[2][] -> (2, None)
    components: tuple["Field", ...] = ()  # a tuple's fields

    @property
    def type(self) -> str:
        """The canonical ABI type, as eth_abi and Solidity signatures write it."""
        return self.abi_type()

    def abi_type(self, *, strings_as_bytes: bool = False) -> str:
        """The ABI type; `strings_as_bytes` reads `string` as `bytes` (the same encoding),
        for decoding strings that are not valid UTF-8."""
        base = self.base
        if base == "tuple":
            base = "(" + ",".join(c.abi_type(strings_as_bytes=strings_as_bytes)
                                  for c in self.components) + ")"
        elif base == "string" and strings_as_bytes:
            base = "bytes"
        return base + "".join("[]" if d is None else f"[{d}]" for d in self.dims)

    def as_dict(self) -> dict:
        described = {"name": self.name, "type": self.type}
        if self.base == "tuple":
            described["components"] = [c.as_dict() for c in self.components]
        return described


# Parsing


def parse(schema: str) -> list[Field]:
    """The fields of an EAS schema string; raises SchemaError naming the first bad field."""
    return list(_parsed(schema))


@lru_cache(maxsize=256)  # a batch of workflows checks its data against one schema, 1,000 times
def _parsed(schema: str) -> tuple[Field, ...]:
    if not schema.strip():
        raise SchemaError("schema", "empty", "The schema has no fields.")
    return tuple(_parse_fields(schema, "schema"))


def _parse_fields(text: str, attr: str) -> list[Field]:
    fields = []
    for index, part in enumerate(_split(text, attr)):
        parsed = _parse_field(part.strip(), f"{attr}.{index}")
        if any(f.name == parsed.name for f in fields):
            raise SchemaError(f"{attr}.{index}", "duplicate_name",
                              f"The name {parsed.name!r} is used twice.")
        fields.append(parsed)
    return fields


def _split(text: str, attr: str) -> list[str]:
    """Split at the commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for position, char in enumerate(text):
        if char == "(":
            depth += 1
            if depth > MAX_TUPLE_DEPTH:
                raise SchemaError(attr, "too_deep",
                                  f"Tuples nest deeper than {MAX_TUPLE_DEPTH} levels.")
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise SchemaError(attr, "unbalanced", "A ')' closes no '('.")
        elif char == "," and depth == 0:
            parts.append(text[start:position])
            start = position + 1
    if depth:
        raise SchemaError(attr, "unbalanced", "A '(' is never closed.")
    return parts + [text[start:]]


def _parse_field(part: str, attr: str) -> Field:
    if not part:
        # The SDK lets a stray comma through; it is more likely a field lost in editing.
        raise SchemaError(attr, "empty_field",
                          "Empty field: a leading, trailing or doubled comma.")
    if part.startswith("("):
        close = _matching_paren(part)
        components = _parse_fields(part[1:close], attr)
        dims_text, name = _dims_and_name(part[close + 1:], attr)
        return Field(_check_name(name, attr), "tuple", _parse_dims(dims_text, attr),
                     tuple(components))
    match = _BASE.match(part)
    if not match:
        raise SchemaError(attr, "invalid_field", f"Expected 'TYPE NAME', got {part!r}.")
    dims_text, name = _dims_and_name(part[match.end():], attr)
    base = _elementary(match.group(), attr)
    return Field(_check_name(name, attr), base, _parse_dims(dims_text, attr))


def _matching_paren(part: str) -> int:
    depth = 0
    for position, char in enumerate(part):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return position
    raise AssertionError("_split checked the parentheses")


def _dims_and_name(rest: str, attr: str) -> tuple[str, str]:
    """Split what follows a type's base into its array suffixes and the field's name."""
    dims = _DIMS.match(rest).group()
    after = rest[len(dims):]
    words = after.split()
    if not words:
        raise SchemaError(attr, "missing_name", "The field has a type but no name.")
    if len(words) > 1 or not after[:1].isspace():
        raise SchemaError(attr, "invalid_field",
                          f"Expected 'TYPE NAME', got {after.strip()!r} after the type.")
    return dims, words[0]


def _check_name(name: str, attr: str) -> str:
    if not _NAME.fullmatch(name):
        raise SchemaError(attr, "invalid_name",
                          f"{name!r} is not a valid name (letters, digits, _ and $; "
                          "not starting with a digit).")
    return name


def _parse_dims(text: str, attr: str) -> tuple[int | None, ...]:
    dims = []
    for size in _DIM.findall(text):
        if size == "":
            dims.append(None)
        elif re.fullmatch(r"[1-9][0-9]{0,5}", size):
            dims.append(int(size))
        else:
            raise SchemaError(attr, "invalid_array",
                              f"[{size}] is not an array size: expected [] or [1] to [999999].")
    return tuple(dims)


def _elementary(base: str, attr: str) -> str:
    base = ALIASES.get(base, base)
    if base in ("address", "bool", "string", "bytes"):
        return base
    sized = _SIZED.fullmatch(base)
    if sized:
        kind, bits = sized.group(1), int(sized.group(2))
        if kind == "bytes" and 1 <= bits <= 32 and str(bits) == sized.group(2):
            return base
        if kind != "bytes" and 8 <= bits <= 256 and bits % 8 == 0 and str(bits) == sized.group(2):
            return base
    if _FIXED_POINT.fullmatch(base):
        # Neither Solidity nor ethers (under the EAS SDK) can encode fixed-point numbers.
        raise SchemaError(attr, "unsupported_type", f"{base} (fixed point) is not supported.")
    raise SchemaError(attr, "unknown_type", f"{base!r} is not a Solidity ABI type.")


def document_hash_field(fields: list[Field]) -> str | None:
    """The field that marks a document schema: `bytes32 documentHash`, if there is one."""
    for f in fields:
        if f.name == DOCUMENT_HASH_FIELD and f.type == "bytes32":
            return f.name
    return None


# Values


def validate_data(fields: list[Field], data: dict) -> tuple[list[dict], tuple]:
    """Check JSON `data` against the fields; returns (errors, values for eth_abi.encode)."""
    errors: list[dict] = []
    values = _record(fields, data, "data", errors)
    return errors, values


def _record(fields, data: dict, attr: str, errors: list[dict]) -> tuple:
    names = {f.name for f in fields}
    for extra in sorted(set(data) - names):
        errors.append(_error(f"{attr}.{extra}", "unknown_field", "Not a field of the schema."))
    values = []
    for f in fields:
        if f.name not in data:
            errors.append(_error(f"{attr}.{f.name}", "required", "This field is required."))
            values.append(None)
        else:
            values.append(_value(f, f.dims, data[f.name], f"{attr}.{f.name}", errors))
    return tuple(values)


def _value(f: Field, dims: tuple, value, attr: str, errors: list[dict]):
    if dims:
        # The last suffix is the outermost array: uint8[2][] is a list of pairs.
        size = dims[-1]
        if not isinstance(value, list):
            errors.append(_error(attr, "invalid_type", "Expected a JSON array."))
            return None
        if size is not None and len(value) != size:
            errors.append(_error(attr, "invalid_length",
                                 f"Expected {size} items, got {len(value)}."))
            return None
        return [_value(f, dims[:-1], item, f"{attr}.{i}", errors) for i, item in enumerate(value)]
    if f.base == "tuple":
        if not isinstance(value, dict):
            errors.append(_error(attr, "invalid_type",
                                 "Expected a JSON object keyed by the tuple's component names."))
            return None
        return _record(f.components, value, attr, errors)
    try:
        return _elementary_value(f.base, value)
    except ValueError as exc:
        errors.append(_error(attr, "invalid", str(exc)))
        return None


def _elementary_value(base: str, value):
    if base == "bool":
        if not isinstance(value, bool):
            raise ValueError("Expected true or false (not a string or a number).")
        return value
    if base == "string":
        if not isinstance(value, str):
            raise ValueError("Expected a JSON string.")
        return value
    if base == "address":
        try:
            return normalize_address(value)
        except InvalidHex as exc:
            raise ValueError(str(exc)) from None
    if base.startswith("bytes"):
        return _bytes_value(base, value)
    return _integer_value(base, value)


def _bytes_value(base: str, value) -> bytes:
    match = _HEX.fullmatch(value) if isinstance(value, str) else None
    if not match:
        raise ValueError("Expected 0x followed by an even number of hex digits.")
    raw = bytes.fromhex(match.group(1))
    if base != "bytes" and len(raw) != int(base[5:]):
        size = int(base[5:])
        # The SDK would pad or cut it silently; a short hash is almost always a mistake.
        raise ValueError(f"Expected exactly {size} bytes (0x and {2 * size} hex digits), "
                         f"got {len(raw)}.")
    return raw


def _integer_value(base: str, value) -> int:
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("Expected a JSON integer or a string of decimal digits.")
    bits = int(base.removeprefix("u").removeprefix("int"))
    low, high = (0, 2**bits - 1) if base.startswith("u") else (-(2**(bits - 1)), 2**(bits - 1) - 1)
    if not low <= value <= high:
        raise ValueError(f"Out of range for {base}: {low} to {high}.")
    return value


def stored_value(field: Field, text: str):
    """`text` (a query parameter's value) read as a value of the elementary `field` and
    written as `decode` writes it in `decoded`; ValueError saying why when it is not one."""
    if field.base == "bool":
        if text not in ("true", "false"):
            raise ValueError("Expected true or false.")
        return text == "true"
    value = _elementary_value(field.base, text)
    return _json_value(field, (), value.encode() if field.base == "string" else value)


def integer_value(base: str, text: str) -> int:
    """`text` as an integer of type `base` (intN, uintN); ValueError when it is not one."""
    return _integer_value(base, text)


def encode(fields: list[Field], values: tuple) -> bytes:
    """The fields' values ABI-encoded as EAS stores them: abi.encode(field1, field2, ...)."""
    return eth_abi.encode([f.type for f in fields], list(values))


# The whole check, as POST /schemas/validate answers it


@dataclass
class SchemaCheck:
    errors: list[dict] = field(default_factory=list)
    fields: list[Field] = field(default_factory=list)
    encoded: bytes | None = None

    def as_dict(self) -> dict:
        return {
            "valid": not self.errors,
            "errors": self.errors,
            "fields": [f.as_dict() for f in self.fields],
            "document_hash_field": document_hash_field(self.fields),
            "encoded": None if self.encoded is None else "0x" + self.encoded.hex(),
        }


def check(schema: str, data: dict | None = None) -> SchemaCheck:
    """Parse the schema and, when data is given, check and encode it."""
    try:
        fields = parse(schema)
    except SchemaError as exc:
        return SchemaCheck(errors=[exc.error])
    if data is None:
        return SchemaCheck(fields=fields)
    errors, values = validate_data(fields, data)
    if errors:
        return SchemaCheck(errors=errors, fields=fields)
    return SchemaCheck(fields=fields, encoded=encode(fields, values))


# Decoding what the chain holds


# JSON numbers lose digits beyond 2**53 in JavaScript: integer types wider than 48 bits are
# written as decimal strings (the spelling validate_data accepts), narrower ones as numbers.
# The type decides, not the value, so a field's JSON type never changes from row to row.
_JSON_NUMBER_MAX_BITS = 48


# Data longer than this is not decoded into JSON (`decoded`): that JSON would weigh on every
# row read. Its layout is still checked, and its document hash read from its place
# (`head_word`), so that such an attestation verifies as any other.
MAX_DECODED_DATA = 16 * 1024


def escape_text(raw: bytes) -> str:
    """Text the chain holds as it can be stored and shown: UTF-8, with each byte that is not
    valid UTF-8 and each NUL (which PostgreSQL's text and jsonb cannot hold) written \\xNN.
    Lossy where the text holds a backslash itself: the raw bytes are kept beside it."""
    return raw.decode("utf-8", "backslashreplace").replace("\x00", "\\x00")


def decode(fields: list[Field], data: bytes) -> dict:
    """ABI-decoded `data` as JSON: {name: value}; bytes and addresses as 0x-hex, wide
    integers as decimal strings, strings escaped (escape_text). Raises ValueError when the
    data does not fit the schema, is longer than MAX_DECODED_DATA, or is not laid out as
    abi.encode lays it out (offsets that share their data would multiply its size)."""
    if len(data) > MAX_DECODED_DATA:
        raise ValueError(f"The data is {len(data)} bytes: longer than the "
                         f"{MAX_DECODED_DATA} that are decoded.")
    types = [f.abi_type(strings_as_bytes=True) for f in fields]
    try:
        _check_layout(types, data)
        values = eth_abi.decode(types, data)
    except Exception as exc:  # eth_abi raises several unrelated types for bad input
        raise ValueError(f"The data does not decode with the schema: {exc}") from None
    return {f.name: _json_value(f, f.dims, v) for f, v in zip(fields, values)}


def check_layout(fields: list[Field], data: bytes) -> None:
    """ValueError when `data` is not laid out as abi.encode lays out values of the fields
    (see _check_layout); the values themselves are not decoded."""
    try:
        _check_layout([f.abi_type(strings_as_bytes=True) for f in fields], data)
    except Exception as exc:  # eth_abi's grammar raises several types too
        raise ValueError(f"The data does not decode with the schema: {exc}") from None


def head_word(fields: list[Field], data: bytes, name: str) -> str | None:
    """The top-level bytes32 field `name` (0x-hex) read from its place in `data`, or None
    when the data ends before it. abi.encode writes each top-level field in the head, in
    order: a static one whole, a dynamic one as a word (its offset); so a bytes32 field is a
    word at a known place, whatever the size of the rest, which is not decoded."""
    at = 0
    for f in fields:
        if f.name == name:
            if f.type != "bytes32" or len(data) < at + 32:
                return None
            return "0x" + data[at:at + 32].hex()
        try:
            abi_type = eth_abi.grammar.parse(f.abi_type())
        except Exception:  # a type eth_abi cannot size: the fields after it have no place
            return None
        at += 32 if abi_type.is_dynamic else _static_size(abi_type)
    return None


def _check_layout(types: list[str], data: bytes) -> None:
    """Walk the offsets and lengths of the encoding, without decoding values, and refuse
    one that holds more items than its words: abi.encode gives each item a word of its own,
    while offsets that point at the same data (which eth_abi follows) could make a few
    kilobytes decode into millions of items."""
    budget = [len(data) // 32 + 1]

    def spend(items: int) -> None:
        budget[0] -= items
        if budget[0] < 0:
            raise ValueError("its offsets reuse data: it holds more items than it has words")

    def word(at: int) -> int:
        if at < 0 or at + 32 > len(data):
            raise ValueError("an offset or a length points outside the data")
        return int.from_bytes(data[at:at + 32], "big")

    def walk(abi_type, at: int) -> None:
        if not abi_type.is_dynamic:
            spend(1)
            return
        if abi_type.is_array:
            item = abi_type.item_type
            if abi_type.is_dynamic and not abi_type.arrlist[-1]:  # T[]: a length first
                length, at = word(at), at + 32
                spend(1)
            else:
                length = abi_type.arrlist[-1][0]
            spend(length)
            if item.is_dynamic:
                for i in range(length):
                    walk(item, at + word(at + 32 * i))
            return
        if isinstance(abi_type, eth_abi.grammar.TupleType):
            walk_record(abi_type.components, at)
            return
        spend(1 + word(at) // 32)  # bytes, string: a length, then the bytes

    def walk_record(components, at: int) -> None:
        head = at
        for component in components:
            if component.is_dynamic:
                walk(component, at + word(head))
                head += 32
            else:
                spend(1)
                head += _static_size(component)

    walk_record([eth_abi.grammar.parse(t) for t in types], 0)


def _static_size(abi_type) -> int:
    if abi_type.is_array:
        return abi_type.arrlist[-1][0] * _static_size(abi_type.item_type)
    if isinstance(abi_type, eth_abi.grammar.TupleType):
        return sum(_static_size(c) for c in abi_type.components)
    return 32


def _json_value(f: Field, dims: tuple, value):
    if dims:
        return [_json_value(f, dims[:-1], item) for item in value]
    if f.base == "tuple":
        return {c.name: _json_value(c, c.dims, v) for c, v in zip(f.components, value)}
    if f.base == "address":
        return value.lower()
    if f.base == "string":
        return escape_text(value)
    if f.base == "bool":
        return value
    if f.base.startswith("bytes"):
        return "0x" + bytes(value).hex()
    bits = int(f.base.removeprefix("u").removeprefix("int"))
    return value if bits <= _JSON_NUMBER_MAX_BITS else str(value)

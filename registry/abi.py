"""JSON ABIs: checked entry by entry, and described with their selectors and topics.

The checks follow the Solidity ABI specification; type strings are parsed with eth-abi's
grammar, signatures and selectors come from eth-utils.
"""

import re

from eth_abi.exceptions import ABITypeError, ParseError
from eth_abi.grammar import parse as parse_type
from eth_utils import abi_to_signature, event_abi_to_log_topic, function_abi_to_4byte_selector

ENTRY_TYPES = ("function", "constructor", "fallback", "receive", "event", "error")
MUTABILITIES = ("pure", "view", "nonpayable", "payable")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_TUPLE = re.compile(r"tuple(?:\[(?:[1-9][0-9]*)?\])*")  # no zero-length arrays
_MAX_NESTING = 16
# eth-abi's grammar accepts any identifier as a type ("foo", "bool8", "hash32", the alias
# "byte") and checks the sizes of known ones only: the rest must be refused here, or the
# signature and selector would be wrong.
_ELEMENTARY = ("address", "bool", "string", "bytes", "int", "uint", "fixed", "ufixed", "function")
_UNSIZED = ("bool", "function")  # eth-abi checks the others' suffixes itself


def validate_abi(abi) -> dict[str, list[str]]:
    """Every problem of `abi`, keyed by its path ("3.inputs.0.type"); empty when valid."""
    errors: dict[str, list[str]] = {}
    if not isinstance(abi, list):
        return {"": ["An ABI is a JSON array of entries."]}
    signatures = set()
    for index, entry in enumerate(abi):
        entry_errors = _entry_errors(entry)
        for path, message in entry_errors:
            errors.setdefault(f"{index}.{path}" if path else str(index), []).append(message)
        if entry_errors:
            continue
        entry = _typed(entry)
        if entry["type"] not in ("function", "event", "error"):
            continue
        signature = (entry["type"], abi_to_signature(entry))
        if signature in signatures:
            errors.setdefault(str(index), []).append(f"Duplicate {signature[0]} {signature[1]}.")
        signatures.add(signature)
    return errors


def describe(abi: list) -> dict:
    """The functions, events and errors of a valid ABI, with selectors and topics."""
    functions, events, errors = [], [], []
    for entry in map(_typed, abi):
        kind = entry["type"]
        if kind == "function":
            functions.append({
                "name": entry["name"],
                "signature": abi_to_signature(entry),
                "selector": "0x" + bytes(function_abi_to_4byte_selector(entry)).hex(),
                "stateMutability": entry.get("stateMutability") or _legacy_mutability(entry),
            })
        elif kind == "event":
            events.append({
                "name": entry["name"],
                "signature": abi_to_signature(entry),
                "topic": "0x" + bytes(event_abi_to_log_topic(entry)).hex(),
                "anonymous": entry.get("anonymous", False),
            })
        elif kind == "error":
            errors.append({
                "name": entry["name"],
                "signature": abi_to_signature(entry),
                "selector": "0x" + bytes(function_abi_to_4byte_selector(entry)).hex(),
            })
    return {"functions": functions, "events": events, "errors": errors}


def _typed(entry: dict) -> dict:
    """The entry with its "type", which the specification lets default to function (eth-utils
    needs it spelled out)."""
    return {"type": "function", **entry}


def _legacy_mutability(entry: dict) -> str:
    # ABIs from before Solidity 0.4.16 say "constant" and "payable" instead.
    if entry.get("constant") is True:
        return "view"
    return "payable" if entry.get("payable") is True else "nonpayable"


def _entry_errors(entry) -> list[tuple[str, str]]:
    if not isinstance(entry, dict):
        return [("", "An ABI entry is a JSON object.")]
    kind = entry.get("type", "function")  # the specification lets "type" default to function
    if kind not in ENTRY_TYPES:
        return [("type", f"Unknown entry type {kind!r}; expected one of {', '.join(ENTRY_TYPES)}.")]
    problems: list[tuple[str, str]] = []
    if kind in ("function", "event", "error"):
        name = entry.get("name")
        if not isinstance(name, str) or not _IDENTIFIER.fullmatch(name):
            problems.append(("name", "A function, event or error needs a Solidity identifier as name."))
    mutability = entry.get("stateMutability")
    if mutability is not None and mutability not in MUTABILITIES:
        problems.append(("stateMutability", f"Expected one of {', '.join(MUTABILITIES)}."))
    if kind == "receive" and mutability not in (None, "payable"):
        problems.append(("stateMutability", "A receive function is always payable."))
    for flag in ("anonymous", "constant", "payable"):
        if flag in entry and not isinstance(entry[flag], bool):
            problems.append((flag, "Expected a boolean."))

    lists = {"inputs": kind not in ("fallback", "receive"), "outputs": kind == "function"}
    for key, allowed in lists.items():
        if key not in entry:
            continue
        params = entry[key]
        if not isinstance(params, list):
            problems.append((key, "Expected an array of parameters."))
        elif params and not allowed:
            problems.append((key, f"A {kind} entry takes no {key}."))
        else:
            for i, param in enumerate(params):
                problems += _param_errors(param, f"{key}.{i}", in_event=kind == "event", depth=0)
    if kind == "event" and isinstance(entry.get("inputs"), list):
        indexed = sum(1 for p in entry["inputs"] if isinstance(p, dict) and p.get("indexed") is True)
        limit = 4 if entry.get("anonymous") is True else 3
        if indexed > limit:
            problems.append(("inputs", f"An event has at most {limit} indexed parameters."))
    return problems


def _param_errors(param, path: str, *, in_event: bool, depth: int) -> list[tuple[str, str]]:
    if not isinstance(param, dict):
        return [(path, "A parameter is a JSON object with a type.")]
    if depth > _MAX_NESTING:
        return [(path, f"Tuples nest at most {_MAX_NESTING} deep here.")]
    problems: list[tuple[str, str]] = []
    name = param.get("name", "")
    if not isinstance(name, str) or (name and not _IDENTIFIER.fullmatch(name)):
        problems.append((f"{path}.name", "A parameter name is empty or a Solidity identifier."))
    for key in ("internalType",):
        if key in param and not isinstance(param[key], str):
            problems.append((f"{path}.{key}", "Expected a string."))
    if "indexed" in param and (not in_event or not isinstance(param["indexed"], bool)):
        problems.append((f"{path}.indexed", "Only event parameters are indexed, with a boolean."))

    type_str = param.get("type")
    if not isinstance(type_str, str):
        return problems + [(f"{path}.type", "Every parameter needs a type string.")]
    if _TUPLE.fullmatch(type_str):
        components = param.get("components")
        if not isinstance(components, list) or not components:  # Solidity has no empty structs
            return problems + [(f"{path}.components", "A tuple type needs a components array.")]
        for i, component in enumerate(components):
            problems += _param_errors(
                component, f"{path}.components.{i}", in_event=False, depth=depth + 1
            )
        return problems
    if "components" in param:
        problems.append((f"{path}.components", "Only tuple types have components."))
    if "(" in type_str or type_str.startswith("tuple"):
        return problems + [(f"{path}.type", f"{type_str!r} is not an ABI type; tuples use components.")]
    try:
        parsed = parse_type(type_str)
        parsed.validate()
    except (ABITypeError, ParseError) as exc:
        return problems + [(f"{path}.type", f"{type_str!r} is not a valid ABI type: {exc}")]
    if parsed.base not in _ELEMENTARY or (parsed.base in _UNSIZED and parsed.sub is not None):
        problems.append((f"{path}.type", f"{type_str!r} is not a canonical ABI type."))
    return problems

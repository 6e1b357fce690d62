"""The EAS schema grammar: parsing, value rules and ABI encoding (attestations.schema)."""

import eth_abi
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attestations.schema import (
    MAX_DECODED_DATA,
    SchemaError,
    check,
    decode,
    encode,
    escape_text,
    head_word,
    parse,
    validate_data,
)

HASH = "0x" + "11" * 32
CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


def types(schema: str) -> list[str]:
    return [f.type for f in parse(schema)]


def schema_error(schema: str) -> dict:
    with pytest.raises(SchemaError) as caught:
        parse(schema)
    return caught.value.error


def data_errors(schema: str, data: dict) -> dict[str, str]:
    errors, _ = validate_data(parse(schema), data)
    return {e["attr"]: e["code"] for e in errors}


def round_trip(schema: str, data: dict) -> tuple:
    fields = parse(schema)
    errors, values = validate_data(fields, data)
    assert errors == []
    return eth_abi.decode([f.type for f in fields], encode(fields, values))


# Parsing


@pytest.mark.parametrize("bits", range(8, 257, 8))
def test_every_integer_width_in_steps_of_8_parses(bits):
    assert types(f"uint{bits} a,int{bits} b") == [f"uint{bits}", f"int{bits}"]


@pytest.mark.parametrize("size", range(1, 33))
def test_every_fixed_size_bytes_type_parses(size):
    assert types(f"bytes{size} a") == [f"bytes{size}"]


def test_the_other_elementary_types_parse():
    assert types("address a,bool b,string c,bytes d") == ["address", "bool", "string", "bytes"]


def test_uint_int_and_ipfs_hash_are_aliases_of_their_canonical_types():
    assert types("uint a,int b,ipfsHash c,uint[] d") == [
        "uint256", "int256", "bytes32", "uint256[]",
    ]


def test_fixed_dynamic_and_nested_arrays_keep_their_suffixes_in_order():
    assert types("uint8[3] a,address[] b,bytes32[2][] c,string[][4] d") == [
        "uint8[3]", "address[]", "bytes32[2][]", "string[][4]",
    ]


def test_a_tuple_array_has_a_canonical_type_and_named_components():
    (attrs,) = parse("(string key,uint value)[] attrs")

    assert attrs.as_dict() == {
        "name": "attrs", "type": "(string,uint256)[]",
        "components": [{"name": "key", "type": "string"}, {"name": "value", "type": "uint256"}],
    }


def test_tuples_nest_inside_tuples():
    (outer,) = parse("((uint8 a,bool b)[2] inner,string label) outer")

    assert outer.type == "((uint8,bool)[2],string)"
    assert outer.components[0].components[1].name == "b"


def test_spaces_around_fields_are_allowed_as_on_chain_schemas_write_them():
    fields = parse(" bytes32 documentHash , string name,  uint64  expiry ")

    assert [(f.name, f.type) for f in fields] == [
        ("documentHash", "bytes32"), ("name", "string"), ("expiry", "uint64"),
    ]


# Rejections


@pytest.mark.parametrize("schema, attr", [
    ("bytes32 a,", "schema.1"),
    (",bytes32 a", "schema.0"),
    ("uint a,,uint b", "schema.1"),
    ("(uint a,) t", "schema.0.1"),
])
def test_leading_trailing_and_doubled_commas_are_empty_fields(schema, attr):
    assert schema_error(schema) == {
        "attr": attr, "code": "empty_field",
        "detail": "Empty field: a leading, trailing or doubled comma.",
    }


def test_an_empty_schema_has_no_fields():
    assert schema_error("  ")["code"] == "empty"


@pytest.mark.parametrize("schema, attr", [
    ("uint a,string a", "schema.1"),
    ("(uint a,bool a) t", "schema.0.1"),
])
def test_duplicate_names_are_rejected_where_they_repeat(schema, attr):
    error = schema_error(schema)
    assert (error["attr"], error["code"]) == (attr, "duplicate_name")


@pytest.mark.parametrize("schema, code", [
    ("uint7 a", "unknown_type"),
    ("uint264 a", "unknown_type"),
    ("uint08 a", "unknown_type"),
    ("bytes0 a", "unknown_type"),
    ("bytes33 a", "unknown_type"),
    ("ipfshash a", "unknown_type"),
    ("function a", "unknown_type"),
    ("fixed128x18 a", "unsupported_type"),
    ("ufixed a", "unsupported_type"),
    ("uint[0] a", "invalid_array"),
    ("uint[-1] a", "invalid_array"),
    ("uint[x] a", "invalid_array"),
    ("bytes32", "missing_name"),
    ("(uint a)[]", "missing_name"),
    ("uint a b", "invalid_field"),
    ("uint[]a", "invalid_field"),
    ("uint 1a", "invalid_name"),
    ("uint a-b", "invalid_name"),
    ("(uint a", "unbalanced"),
    ("uint a)", "unbalanced"),
    ("[] a", "invalid_field"),
    ("(" * 17 + "uint a" + ") t" * 17, "too_deep"),
])
def test_malformed_fields_are_rejected_with_a_reason(schema, code):
    error = schema_error(schema)
    assert error["code"] == code
    assert error["attr"].startswith("schema")
    assert error["detail"]


def test_a_bad_field_is_named_by_its_position():
    assert schema_error("bytes32 documentHash,string name,uint64 expiry,adress signer")["attr"] == (
        "schema.3"
    )


# Values


def test_a_bytes32_that_is_not_32_bytes_of_hex_is_rejected():
    schema = "bytes32 h"
    for value in ["0x11", "0x" + "11" * 33, "11" * 32, "0x" + "zz" * 32, "0x" + "1" * 63, 17]:
        assert data_errors(schema, {"h": value}) == {"data.h": "invalid"}, value


@pytest.mark.parametrize("value", ["false", "true", 0, 1, None])
def test_a_bool_takes_only_true_or_false(value):
    assert data_errors("bool b", {"b": value}) == {"data.b": "invalid"}


@pytest.mark.parametrize("value", [True, 1.0, "0x10", "+5", "007", "1e3", "", -1, 256, "256"])
def test_a_uint8_takes_integers_or_decimal_strings_within_its_range(value):
    assert data_errors("uint8 n", {"n": value}) == {"data.n": "invalid"}


def test_integer_bounds_are_inclusive_and_decimal_strings_are_read_as_numbers():
    assert round_trip("uint8 a,int8 b,int8 c,uint256 d", {
        "a": 255, "b": -128, "c": "127", "d": str(2**256 - 1),
    }) == (255, -128, 127, 2**256 - 1)
    assert data_errors("int8 a,uint256 b", {"a": -129, "b": str(2**256)}) == {
        "data.a": "invalid", "data.b": "invalid",
    }


def test_addresses_need_40_hex_digits_and_a_valid_checksum_when_mixed_case():
    assert round_trip("address a,address b", {"a": CHECKSUMMED, "b": CHECKSUMMED.lower()}) == (
        CHECKSUMMED.lower(), CHECKSUMMED.lower(),
    )
    broken_checksum = CHECKSUMMED.replace("a", "A", 1)
    assert data_errors("address a,address b", {"a": broken_checksum, "b": "0x1234"}) == {
        "data.a": "invalid", "data.b": "invalid",
    }


def test_bytes_take_any_even_length_hex_and_strings_any_string():
    assert round_trip("bytes a,bytes b,string c", {"a": "0x", "b": "0xABcd", "c": "é ✓"}) == (
        b"", b"\xab\xcd", "é ✓",
    )
    assert data_errors("bytes a,string b", {"a": "0xabc", "b": 5}) == {
        "data.a": "invalid", "data.b": "invalid",
    }


def test_missing_and_extra_keys_are_named():
    assert data_errors("uint a,uint b", {"a": 1, "c": 2}) == {
        "data.b": "required", "data.c": "unknown_field",
    }


def test_arrays_are_json_arrays_and_fixed_lengths_are_checked():
    assert data_errors("uint[2] a,uint[] b,uint[] c", {"a": [1], "b": "1,2", "c": [1, "x"]}) == {
        "data.a": "invalid_length", "data.b": "invalid_type", "data.c.1": "invalid",
    }


def test_tuples_are_json_objects_keyed_by_component_name():
    schema = "(string key,uint value)[] attrs"
    assert data_errors(schema, {"attrs": [["k", 1], {"key": "k", "value": True, "v": 1}]}) == {
        "data.attrs.0": "invalid_type",
        "data.attrs.1.value": "invalid",
        "data.attrs.1.v": "unknown_field",
    }


# Encoding


def test_a_document_hash_encodes_to_exactly_its_32_bytes():
    fields = parse("bytes32 documentHash")
    _, values = validate_data(fields, {"documentHash": HASH})

    assert encode(fields, values) == bytes.fromhex("11" * 32)


def test_a_full_schema_round_trips_through_eth_abi():
    schema = ("bytes32 documentHash,string name,uint64 expiry,address[] signers,"
              "(string key,uint256 value)[] attrs,uint8[2][] pairs,bool ok,bytes blob")
    data = {
        "documentHash": HASH, "name": "Contract", "expiry": "1800000000",
        "signers": [CHECKSUMMED], "attrs": [{"key": "k", "value": 7}],
        "pairs": [[1, 2], [3, 4]], "ok": False, "blob": "0x00ff",
    }

    assert round_trip(schema, data) == (
        bytes.fromhex("11" * 32), "Contract", 1800000000, (CHECKSUMMED.lower(),),
        (("k", 7),), ((1, 2), (3, 4)), False, b"\x00\xff",
    )


def test_the_whole_check_names_the_document_hash_field_and_encodes_hex():
    result = check("bytes32 documentHash,string name", {"documentHash": HASH, "name": "x"})

    described = result.as_dict()
    assert described["valid"] is True
    assert described["document_hash_field"] == "documentHash"
    expected = encode(result.fields, (bytes.fromhex("11" * 32), "x"))
    assert described["encoded"] == "0x" + expected.hex()


def test_a_document_hash_of_another_type_does_not_mark_a_document_schema():
    assert check("string documentHash").as_dict()["document_hash_field"] is None


# Decoding what the chain holds: any encoding abi.encode makes decodes; hostile ones do not.

NESTED = ("(string a,bytes b)[] t,uint8[][2] u,bytes[3] v,(uint8 x,string[] y)[2][] w,"
          "string s,bool[] e,(uint8 p,uint8 q) r")


@given(t=st.lists(st.tuples(st.text(max_size=40), st.binary(max_size=70)), max_size=4),
       u=st.lists(st.lists(st.integers(0, 255), max_size=5), min_size=2, max_size=2),
       v=st.lists(st.binary(max_size=40), min_size=3, max_size=3),
       w=st.lists(st.lists(st.tuples(st.integers(0, 255), st.lists(st.text(max_size=5),
                                                                    max_size=3)),
                           min_size=2, max_size=2), max_size=3),
       s=st.text(max_size=50), e=st.lists(st.booleans(), max_size=5))
@settings(max_examples=60, deadline=None)
def test_every_encoding_abi_encode_makes_decodes(t, u, v, w, s, e):
    fields = parse(NESTED)
    values = (t, u, v, w, s, e, (1, 2))
    decoded = decode(fields, encode(fields, values))
    assert decoded["s"] == s.replace("\x00", "\\x00")
    assert decoded["u"] == u and decoded["e"] == e and len(decoded["w"]) == len(w)
    assert [x["b"] for x in decoded["t"]] == ["0x" + b.hex() for _, b in t]


def test_strings_are_escaped_where_they_hold_a_nul_or_bytes_that_are_not_utf8():
    assert escape_text(b"ok \xe2\x9c\x93") == "ok \u2713"
    assert escape_text(b"a\x00b\xffc\xc3(") == "a\\x00b\\xffc\\xc3("
    data = eth_abi.encode(["bytes"], [b"\x00\xfe"])
    assert decode(parse("string s"), data) == {"s": "\\x00\\xfe"}


def test_offsets_that_reuse_data_are_refused_before_eth_abi_expands_them():
    word = lambda v: v.to_bytes(32, "big")  # noqa: E731
    n = 100  # 100 offsets to one list of 100 items: 10,000 items from 6 KB
    data = word(32) + word(n) + word(32 * n) * n + word(n) + word(1) * n
    assert len(eth_abi.decode(["uint8[][]"], data)[0]) == n  # what eth_abi would do
    with pytest.raises(ValueError, match="reuse data"):
        decode(parse("uint8[][] x"), data)


def test_data_longer_than_the_limit_is_not_decoded():
    data = eth_abi.encode(["bytes"], [bytes(MAX_DECODED_DATA)])
    with pytest.raises(ValueError, match="longer than"):
        decode(parse("bytes b"), data)


# A bytes32 field read from its place in the head (issue 34, item 6): whatever comes before
# it, static or dynamic, and however long the data.

BEFORE = [  # (a field's type as a schema writes it, a value of it)
    ("uint8", 5), ("string", "x" * 40), ("bytes", b"\x01" * 70), ("bytes32", b"\x22" * 32),
    ("(uint256 a,bytes32 b)", (1, b"\x33" * 32)), ("uint8[3]", [1, 2, 3]),
    ("(uint8 a,string b)", (1, "y")), ("(uint8 a,uint16 b)[2]", [(1, 2), (3, 4)]),
    ("string[]", ["a", "b"]), ("bytes32[2]", [b"\x44" * 32, b"\x55" * 32]),
    ("(bool a,(uint8 b,address c) d)", (True, (9, "0x" + "66" * 20))),
]


@given(before=st.lists(st.sampled_from(BEFORE), max_size=6), long_tail=st.booleans(),
       document=st.binary(min_size=32, max_size=32))
@settings(max_examples=100, deadline=None)
def test_a_bytes32_field_is_read_from_its_place_whatever_precedes_it(before, long_tail, document):
    schema = ",".join([f"{kind} f{i}" for i, (kind, _) in enumerate(before)]
                      + ["bytes32 documentHash", "string tail"])
    fields = parse(schema)
    tail = "t" * (MAX_DECODED_DATA + 1 if long_tail else 3)
    data = eth_abi.encode([f.type for f in fields], [value for _, value in before] + [document, tail])
    assert head_word(fields, data, "documentHash") == "0x" + document.hex()


def test_a_field_that_is_no_bytes32_or_no_field_or_past_the_data_has_no_head_word():
    fields = parse("string title,bytes32 documentHash")
    data = encode(fields, ("a title", bytes.fromhex("ab" * 32)))
    assert head_word(fields, data, "documentHash") == "0x" + "ab" * 32
    assert head_word(fields, data[:63], "documentHash") is None
    assert head_word(fields, data, "title") is None
    assert head_word(fields, data, "nope") is None

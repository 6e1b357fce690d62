"""registry.abi: ABI entries checked one by one (errors keyed by path), and described."""

import pytest

from registry.abi import describe, validate_abi
from tests.factories import ERC20_ABI


def function(name="f", inputs=(), outputs=(), **extra) -> dict:
    return {"type": "function", "name": name, "inputs": list(inputs), "outputs": list(outputs),
            "stateMutability": "nonpayable", **extra}


def param(type_, name="x", **extra) -> dict:
    return {"name": name, "type": type_, **extra}


def event(name="E", inputs=(), **extra) -> dict:
    return {"type": "event", "name": name, "inputs": list(inputs), "anonymous": False, **extra}


def test_a_well_formed_erc20_abi_has_no_problems():
    assert validate_abi(ERC20_ABI) == {}


def test_an_empty_abi_is_valid_and_describes_nothing():
    assert validate_abi([]) == {}
    assert describe([]) == {"functions": [], "events": [], "errors": []}


@pytest.mark.parametrize("abi", [{"type": "function"}, "[]", None, 42, True])
def test_an_abi_that_is_not_a_list_is_one_problem_without_a_path(abi):
    problems = validate_abi(abi)
    assert list(problems) == [""]
    assert "array" in problems[""][0]


@pytest.mark.parametrize(
    "type_",
    [
        "uint8", "uint256", "int24", "address", "bool", "string", "bytes", "bytes1", "bytes32",
        "fixed128x18", "ufixed8x1", "function", "uint256[]", "address[2]", "bytes32[][3]",
        "string[4][]",
    ],
)
def test_every_canonical_elementary_type_is_accepted(type_):
    assert validate_abi([function(inputs=[param(type_)])]) == {}


@pytest.mark.parametrize(
    "type_",
    [
        "uint7",       # not a multiple of 8
        "uint264",     # more than 256 bits
        "int0",
        "uint",        # an alias: the selector needs the canonical uint256
        "int",
        "byte",        # alias of bytes1
        "bytes0",
        "bytes33",
        "fixed",
        "fixed8x81",
        "string5",
        "address20",
        "bool8",
        "function2",
        "hash32",
        "foo",
        "Uint256",
        "uint256[0]",  # zero-length arrays do not exist
        "uint256[",
        "uint256 ",
        "(uint256,bool)",  # tuples are spelled with components
        "",
    ],
)
def test_a_bad_type_is_reported_at_its_path(type_):
    abi = [function(inputs=[param("uint256", "a"), param(type_, "b")])]
    problems = validate_abi(abi)
    assert list(problems) == ["0.inputs.1.type"], problems
    assert repr(type_) in problems["0.inputs.1.type"][0]


def test_a_missing_or_non_string_type_is_reported():
    abi = [function(inputs=[{"name": "a"}, {"name": "b", "type": 256}])]
    assert set(validate_abi(abi)) == {"0.inputs.0.type", "0.inputs.1.type"}


def test_tuples_with_components_are_accepted_and_their_signature_is_canonical():
    order = param("tuple", "order", components=[
        param("address", "maker"),
        param("tuple[]", "legs", components=[param("uint256", "amount"), param("bool", "buy")]),
    ])
    pair = param("tuple[2]", "pair", components=[param("bytes32")])
    abi = [function("fill", inputs=[order, pair])]
    assert validate_abi(abi) == {}
    described = describe(abi)["functions"][0]
    assert described["signature"] == "fill((address,(uint256,bool)[]),(bytes32)[2])"
    assert described["selector"].startswith("0x") and len(described["selector"]) == 10


def test_a_bad_type_inside_a_tuple_is_reported_at_its_nested_path():
    inner = param("tuple", "inner", components=[param("bool"), param("bytes33", "bad")])
    outer = param("tuple[]", "outer", components=[param("uint256"), inner])
    problems = validate_abi([function(inputs=[outer])])
    assert list(problems) == ["0.inputs.0.components.1.components.1.type"]


@pytest.mark.parametrize(
    ("bad_param", "path"),
    [
        (param("tuple"), "0.inputs.0.components"),  # a tuple without components
        (param("tuple", components="uint256"), "0.inputs.0.components"),
        (param("tuple", components=[]), "0.inputs.0.components"),  # no empty structs
        (param("uint256", components=[param("bool")]), "0.inputs.0.components"),
        (param("tuple[0]", components=[param("bool")]), "0.inputs.0.type"),
        (param("tuple", components=[7]), "0.inputs.0.components.0"),
    ],
)
def test_tuple_mistakes_are_reported(bad_param, path):
    assert path in validate_abi([function(inputs=[bad_param])])


def test_tuples_nest_only_so_deep():
    deep = param("uint256")
    for _ in range(20):
        deep = param("tuple", components=[deep])
    problems = validate_abi([function(inputs=[deep])])
    assert problems and all(path.startswith("0.inputs.0.components.") for path in problems)
    assert any("deep" in message for messages in problems.values() for message in messages)


@pytest.mark.parametrize(
    ("entry", "path"),
    [
        ({"type": "method", "name": "f"}, "0.type"),
        (function(name=""), "0.name"),
        (function(name="2fast"), "0.name"),
        (function(name="has space"), "0.name"),
        ({"type": "function", "inputs": []}, "0.name"),
        (event(name=None), "0.name"),
        ({"type": "error", "name": 5, "inputs": []}, "0.name"),
        (function(stateMutability="constant"), "0.stateMutability"),
        (function(constant="yes"), "0.constant"),
        (function(payable=1), "0.payable"),
        (event(anonymous="false"), "0.anonymous"),
        ({"type": "function", "name": "f", "inputs": "uint256"}, "0.inputs"),
        ({"type": "function", "name": "f", "outputs": {"type": "bool"}}, "0.outputs"),
        (function(inputs=["uint256"]), "0.inputs.0"),
        (function(inputs=[param("uint256", "my value")]), "0.inputs.0.name"),
        (function(inputs=[param("uint256", 3)]), "0.inputs.0.name"),
        (function(inputs=[param("uint256", internalType=5)]), "0.inputs.0.internalType"),
        (function(inputs=[param("uint256", indexed=True)]), "0.inputs.0.indexed"),
        (event(inputs=[param("uint256", indexed="yes")]), "0.inputs.0.indexed"),
        ({"type": "constructor", "inputs": [], "outputs": [param("bool")]}, "0.outputs"),
        ({"type": "fallback", "inputs": [param("bytes")]}, "0.inputs"),
        ({"type": "receive", "inputs": [param("bytes")]}, "0.inputs"),
        (event(outputs=[param("bool")]), "0.outputs"),
        ({"type": "error", "name": "E", "inputs": [], "outputs": [param("bool")]}, "0.outputs"),
    ],
)
def test_a_bad_entry_is_reported_at_its_path(entry, path):
    problems = validate_abi([entry])
    assert path in problems, problems


def test_an_entry_that_is_not_an_object_is_reported_at_its_index():
    problems = validate_abi([function(), "function f()", None])
    assert set(problems) == {"1", "2"}


def test_problems_of_several_entries_are_all_reported():
    abi = [function(inputs=[param("uint7")]), ERC20_ABI[1], event(name="")]
    assert set(validate_abi(abi)) == {"0.inputs.0.type", "2.name"}


@pytest.mark.parametrize("mutability", ["nonpayable", "view", "pure"])
def test_a_receive_function_must_be_payable(mutability):
    problems = validate_abi([{"type": "receive", "stateMutability": mutability}])
    assert list(problems) == ["0.stateMutability"]
    assert "payable" in problems["0.stateMutability"][0]


def test_payable_receive_and_fallback_and_a_constructor_are_accepted():
    abi = [
        {"type": "receive", "stateMutability": "payable"},
        {"type": "fallback", "stateMutability": "nonpayable"},
        {"type": "constructor", "inputs": [param("address", "owner")],
         "stateMutability": "nonpayable"},
    ]
    assert validate_abi(abi) == {}
    assert describe(abi) == {"functions": [], "events": [], "errors": []}


def test_an_entry_without_type_is_a_function():
    abi = [{"name": "f", "inputs": [param("uint256")], "outputs": []}]
    assert validate_abi(abi) == {}
    assert describe(abi)["functions"][0]["signature"] == "f(uint256)"


def test_an_event_has_at_most_three_indexed_parameters():
    inputs = [param("uint256", f"a{i}", indexed=True) for i in range(4)]
    problems = validate_abi([event(inputs=inputs)])
    assert list(problems) == ["0.inputs"]
    assert "3 indexed" in problems["0.inputs"][0]


def test_an_anonymous_event_may_index_four_parameters_but_not_five():
    four = [param("uint256", f"a{i}", indexed=True) for i in range(4)]
    assert validate_abi([event(inputs=four, anonymous=True)]) == {}
    five = four + [param("uint256", "a4", indexed=True)]
    assert list(validate_abi([event(inputs=five, anonymous=True)])) == ["0.inputs"]


def test_unindexed_event_parameters_do_not_count_towards_the_limit():
    inputs = [param("uint256", f"a{i}", indexed=i < 3) for i in range(6)]
    assert validate_abi([event(inputs=inputs)]) == {}


def test_a_duplicate_function_signature_is_reported_at_the_second_entry():
    abi = [function("f", [param("uint256", "a")]), function("g"),
           function("f", [param("uint256", "b")])]
    problems = validate_abi(abi)
    assert list(problems) == ["2"]
    assert "f(uint256)" in problems["2"][0]


def test_duplicate_events_and_errors_are_reported():
    abi = [ERC20_ABI[1], ERC20_ABI[1],
           {"type": "error", "name": "Nope", "inputs": []},
           {"type": "error", "name": "Nope", "inputs": []}]
    assert set(validate_abi(abi)) == {"1", "3"}


def test_overloads_and_same_named_entries_of_different_kinds_are_not_duplicates():
    abi = [
        function("f", [param("uint256")]),
        function("f", [param("address")]),
        event("f", [param("uint256")]),
        {"type": "error", "name": "f", "inputs": [param("uint256")]},
    ]
    assert validate_abi(abi) == {}


def test_describe_gives_the_known_selector_and_topic_of_erc20_transfer():
    interface = describe(ERC20_ABI)
    assert interface["functions"] == [{
        "name": "transfer",
        "signature": "transfer(address,uint256)",
        "selector": "0xa9059cbb",
        "stateMutability": "nonpayable",
    }]
    assert interface["events"] == [{
        "name": "Transfer",
        "signature": "Transfer(address,address,uint256)",
        "topic": "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "anonymous": False,
    }]
    assert interface["errors"] == []


def test_describe_reads_the_mutability_of_legacy_abis():
    abi = [{"type": "function", "name": "balance", "inputs": [], "constant": True},
           {"type": "function", "name": "deposit", "inputs": [], "payable": True},
           {"type": "function", "name": "poke", "inputs": []}]
    assert validate_abi(abi) == {}
    mutabilities = [f["stateMutability"] for f in describe(abi)["functions"]]
    assert mutabilities == ["view", "payable", "nonpayable"]


def test_describe_gives_error_selectors_and_defaults():
    abi = [
        {"type": "error", "name": "InsufficientBalance",
         "inputs": [param("uint256", "available"), param("uint256", "required")]},
        {"type": "function", "name": "totalSupply", "inputs": [], "outputs": [param("uint256")]},
        {"type": "event", "name": "Ping", "inputs": [], "anonymous": True},
    ]
    interface = describe(abi)
    # cast sig "InsufficientBalance(uint256,uint256)" / "totalSupply()"
    assert interface["errors"][0]["selector"] == "0xcf479181"
    assert interface["functions"][0] == {
        "name": "totalSupply", "signature": "totalSupply()", "selector": "0x18160ddd",
        "stateMutability": "nonpayable",
    }
    assert interface["events"][0]["anonymous"] is True

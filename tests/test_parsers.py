"""The request parser's camelCase -> snake_case conversion (core/parsers.py) gives
what djangorestframework-camel-case's own `underscoreize` gives, on any parsed JSON."""

import pytest
from djangorestframework_camel_case.util import underscoreize
from hypothesis import given, settings
from hypothesis import strategies as st

from core.parsers import underscoreize_json

KEYS = st.one_of(
    st.sampled_from(["documentHash", "chainId", "executorId", "pendingJobs", "headBlock",
                     "HTTPServer", "abc1Def", "a1B2", "v2Address", "ABI", "data", "decoded",
                     "metadata", "keepAsIs", "already_snake", "_private", "a__b", "x", "",
                     "nativeCurrency.decimals", "ÉtéKey", "key1", "Key12Value"]),
    st.text(max_size=12),
)
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              st.text(max_size=8)),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(KEYS, children,
                                                                      max_size=4),
    max_leaves=20,
)
OPTIONS = [
    {},
    {"ignore_fields": ("abi", "decoded", "metadata", "data")},  # the project's setting
    {"ignore_fields": ("metadata",), "ignore_keys": ("keepAsIs", "keep_as_is")},
    {"no_underscore_before_number": True},
    {"ignore_fields": None, "ignore_keys": None},
]


@pytest.mark.parametrize("options", OPTIONS)
@settings(max_examples=200, deadline=None)
@given(data=JSON)
def test_the_conversion_is_the_librarys(options, data):
    assert underscoreize_json(data, **options) == underscoreize(data, **options)

"""Bounded request bodies (issue 34, item 2): a body is parsed within its endpoint's limits
on object keys, array items and depth before anything reads it, unknown fields past the
first few are refused in one short error, and a problem document stays small whatever the
request held. A key is needed for any of it: keyless bodies are never read
(tests/test_keys_before_bodies.py)."""

import importlib
import itertools
import json
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from bindings.api.serializers import BATCH_LIMIT as WORKFLOW_BATCH_LIMIT
from bindings.jobs import MAX_RESULTS
from core.parsers import DEFAULT_BODY_LIMITS, BodyLimits, json_size, loads_strict
from core.problems import MAX_ERRORS, problem
from tests.conftest import assert_problem
from tests.factories import ContractNameFactory
from verification.serializers import BATCH_LIMIT as VERIFY_BATCH_LIMIT

pytestmark = pytest.mark.django_db

SMALL = 2048  # bytes: what a refusal of any body may take at most
ALPHABET = string.ascii_letters + string.digits


def unknown_keys(count: int) -> dict:
    """`count` keys of three characters: 120,000 of them fit in a mebibyte, as reported."""
    names = ("".join(chars) for chars in itertools.product(ALPHABET, repeat=3))
    return {name: 0 for name in itertools.islice(names, count)}


MEBIBYTE_OF_KEYS = json.dumps(unknown_keys(120_000), separators=(",", ":"))


def post(client, path, text):
    return client.generic("POST", path, text, content_type="application/json")


@pytest.mark.parametrize("path", ["/v1/verify", "/v1/verify/batch", "/workflows",
                                  "/workflows/batch", "/schemas/validate", "/attestations/offchain"])
def test_a_mebibyte_of_unknown_keys_is_refused_by_the_parser_in_a_few_words(api, path):
    assert len(MEBIBYTE_OF_KEYS) < 1024 * 1024
    response = post(api, path, MEBIBYTE_OF_KEYS)
    body = assert_problem(response, 400, "too_many_keys")
    assert len(response.content) < SMALL
    assert "An object of the request body holds 120000 keys" in body["detail"]
    assert "'aaa', 'aab', 'aac', 'aad', 'aae'." in body["detail"]  # the first five, in order


@pytest.fixture
def executor(executor_key):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    return client


@pytest.mark.parametrize("client, path", [("admin", "/v1/admin/chains"),
                                          ("admin", "/v1/admin/contract-versions"),
                                          ("executor", "/v1/chain-registry/1/jobs/results")])
def test_every_keyed_json_endpoint_bounds_its_body(request, client, path):
    response = post(request.getfixturevalue(client), path, MEBIBYTE_OF_KEYS)
    assert_problem(response, 400, "too_many_keys")
    assert len(response.content) < SMALL


def test_array_items_are_bounded_too(api):
    response = post(api, "/v1/verify/batch", json.dumps({"documentHashes": [0] * 100_000}))
    body = assert_problem(response, 400, "too_many_items")
    assert "100000 array items" in body["detail"] and len(response.content) < SMALL


def test_keys_are_bounded_in_all_as_in_one_object(api):
    body = {"workflows": [{f"k{n}": 0 for n in range(500)} for _ in range(100)]}
    response = post(api, "/workflows/batch", json.dumps(body))
    assert "50001 object keys in all" in assert_problem(response, 400, "too_many_keys")["detail"]


def test_unknown_fields_within_the_bounds_are_refused_after_the_first_five(api):
    response = post(api, "/v1/verify", json.dumps({"documentHash": "0x" + "ab" * 32,
                                                    **unknown_keys(900)}))
    body = assert_problem(response, 400, "validation_error")
    assert len(response.content) < SMALL
    (error,) = body["errors"]
    assert error["code"] == "unknown_field"
    assert error["detail"] == "900 unknown fields, the first 'aaa', 'aab', 'aac', 'aad', 'aae'."


def test_a_few_unknown_fields_are_each_named(api):
    response = post(api, "/v1/verify", json.dumps({"documentHash": "0x" + "ab" * 32, "a": 1,
                                                    "b": 2}))
    body = assert_problem(response, 400, "validation_error")
    assert {(e["attr"], e["code"]) for e in body["errors"]} == {("a", "unknown_field"),
                                                                ("b", "unknown_field")}


def test_a_problem_lists_the_first_errors_and_counts_them_all(api):
    items = [{"documentHash": "nonsense", "chainId": 1}] * WORKFLOW_BATCH_LIMIT
    response = post(api, "/workflows/batch", json.dumps({"workflows": items}))
    body = assert_problem(response, 400, "validation_error")
    assert len(body["errors"]) == MAX_ERRORS and len(response.content) < 4096
    assert body["detail"].endswith(f"(and {WORKFLOW_BATCH_LIMIT - 1} more; the first "
                                   f"{MAX_ERRORS} in errors)")


def test_what_a_client_sent_is_cut_short_in_a_problem(api):
    response = post(api, "/v1/verify", json.dumps({"documentHash": "0x" + "ab" * 32,
                                                    "x" * 500_000: 1}))
    body = assert_problem(response, 400, "validation_error")
    assert len(response.content) < SMALL
    assert body["errors"][0]["attr"].endswith("\u2026")


def test_any_problem_document_is_a_few_kilobytes_at_most():
    errors = [{"attr": "a" * 10_000, "code": "invalid", "detail": "d" * 10_000}] * 10_000
    document = problem(400, code="validation_error", detail="x" * 1_000_000, errors=errors)
    assert len(json.dumps(document, ensure_ascii=False)) < 3200


# The limits are above what each endpoint's serializer takes: its largest valid body parses.

def workflow(n: int) -> dict:
    return {"documentHash": f"0x{n:064x}", "chainId": 1, "schemaId": "0x" + "ab" * 32,
            "data": {f"f{f}": [n, f] if f % 2 else n for f in range(16)}}


def abi_entry(n: int) -> dict:
    inputs = [{"name": f"a{i}", "type": "uint256", "indexed": False, "internalType": "uint256"}
              for i in range(4)]
    return {"type": "event", "name": f"E{n}", "anonymous": False, "inputs": inputs}


LARGEST_BODIES = {
    ("verification.api.views", "VerifyViewSet", "batch"):
        {"documentHashes": [f"0x{n:064x}" for n in range(VERIFY_BATCH_LIMIT)], "chainId": 1},
    ("bindings.api.views", "WorkflowViewSet", "batch"):
        {"workflows": [workflow(n) for n in range(WORKFLOW_BATCH_LIMIT)]},
    ("bindings.api.jobs", "JobViewSet", "report_jobs"):
        {"executorId": "x", "results": [{"workflowId": "x", "txHash": "x", "merkleRoot": "x",
                                         "error": "x"} for _ in range(MAX_RESULTS)]},
    ("registry.api.views", "ContractVersionViewSet", None):
        {"contractName": "x", "version": "1.0.0", "abi": [abi_entry(n) for n in range(2500)]},
}


@pytest.mark.parametrize("where", sorted(LARGEST_BODIES, key=str))
def test_an_endpoints_largest_valid_body_is_within_its_limits(where):
    module, view, action = where
    cls = getattr(importlib.import_module(module), view)
    limits = getattr(getattr(cls, action), "kwargs", {}).get("body_limits") if action else None
    limits = limits or getattr(cls, "body_limits", DEFAULT_BODY_LIMITS)
    text = json.dumps(LARGEST_BODIES[where], separators=(",", ":"))
    assert len(text) < 1024 * 1024  # within the request size limit
    assert loads_strict(text, limits=limits)


def test_a_large_abi_is_accepted(admin):
    ContractNameFactory(name="big")
    abi = [abi_entry(n) for n in range(300)]  # 300 events: some 6,000 keys
    response = admin.post("/v1/admin/contract-versions",
                          {"contractName": "big", "version": "1.0.0", "abi": abi}, format="json")
    assert response.status_code == 201, response.content[:500]


TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
               max_size=3)
JSON = st.recursive(st.none() | st.integers() | TEXT,
                    lambda children: st.lists(children, max_size=4)
                    | st.dictionaries(TEXT, children, max_size=4),
                    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(data=JSON, keys=st.integers(0, 12), items=st.integers(0, 12),
       object_keys=st.integers(0, 5))
def test_a_body_is_refused_exactly_when_it_holds_more_than_its_limits(data, keys, items,
                                                                       object_keys):
    counted_keys, counted_items, widest_object = json_size(data)
    limits = BodyLimits(keys=keys, items=items, object_keys=object_keys)
    try:
        loads_strict(json.dumps(data), limits=limits)
    except ParseError as exc:
        keys_over = counted_keys > keys or len(widest_object) > object_keys
        assert exc.get_codes() == ("too_many_keys" if keys_over else "too_many_items")
    else:
        assert counted_keys <= keys and counted_items <= items and len(widest_object) <= object_keys

"""POST /schemas/validate: the EAS schema grammar over HTTP (SPEC section 5)."""

import eth_abi
import pytest

from tests.conftest import assert_problem

pytestmark = pytest.mark.django_db

HASH = "0x" + "ab" * 32
SCHEMA = "bytes32 documentHash,string name,(string key,uint256 value)[] attrs"


def validate(client, body: dict) -> dict:
    response = client.post("/schemas/validate", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_valid_schema_without_data_lists_its_fields(api):
    body = validate(api, {"schema": SCHEMA})

    assert body == {
        "valid": True, "errors": [], "encoded": None, "documentHashField": "documentHash",
        "fields": [
            {"name": "documentHash", "type": "bytes32"},
            {"name": "name", "type": "string"},
            {"name": "attrs", "type": "(string,uint256)[]", "components": [
                {"name": "key", "type": "string"}, {"name": "value", "type": "uint256"},
            ]},
        ],
    }


def test_valid_data_comes_back_abi_encoded(api):
    data = {"documentHash": HASH, "name": "Deed", "attrs": [{"key": "pages", "value": "12"}]}

    body = validate(api, {"schema": SCHEMA, "data": data})

    assert body["valid"] is True and body["errors"] == []
    encoded = bytes.fromhex(body["encoded"].removeprefix("0x"))
    assert eth_abi.decode(["bytes32", "string", "(string,uint256)[]"], encoded) == (
        bytes.fromhex("ab" * 32), "Deed", (("pages", 12),),
    )


def test_data_keys_keep_their_case_rather_than_being_snake_cased(api):
    body = validate(api, {"schema": "uint64 expiryTime", "data": {"expiryTime": 5}})

    assert body["valid"] is True
    assert body["encoded"] == "0x" + (5).to_bytes(32, "big").hex()


def test_an_invalid_schema_is_a_200_naming_the_field(api):
    body = validate(api, {"schema": "bytes32 documentHash,string name,", "data": {}})

    assert body["valid"] is False
    assert body["errors"] == [{
        "attr": "schema.2", "code": "empty_field",
        "detail": "Empty field: a leading, trailing or doubled comma.",
    }]
    assert (body["fields"], body["encoded"], body["documentHashField"]) == ([], None, None)


def test_invalid_data_is_a_200_naming_each_bad_value(api):
    data = {"documentHash": "0x1234", "name": "x", "attrs": [{"key": "k", "value": "false"}]}

    body = validate(api, {"schema": SCHEMA, "data": data})

    assert body["valid"] is False and body["encoded"] is None
    assert {e["attr"]: e["code"] for e in body["errors"]} == {
        "data.documentHash": "invalid", "data.attrs.0.value": "invalid",
    }
    assert len(body["fields"]) == 3


def test_a_schema_without_a_document_hash_has_no_document_hash_field(api):
    assert validate(api, {"schema": "string documentHash,uint8 n"})["documentHashField"] is None


@pytest.mark.parametrize("body, attr", [
    ({"data": {}}, "schema"),
    ({"schema": 12}, "schema"),
    ({"schema": None}, "schema"),
    ({"schema": "uint a", "data": [1]}, "data"),
    ({"schema": "uint a", "data": "{}"}, "data"),
    ({"schema": "uint a", "extra": 1}, "extra"),
    ({"schema": "uint a," * 300}, "schema"),
])
def test_a_malformed_request_is_a_400_naming_the_field(api, body, attr):
    response = api.post("/schemas/validate", body, format="json")

    problem = assert_problem(response, 400, "validation_error")
    assert [e["attr"] for e in problem["errors"]] == [attr]


def test_the_route_needs_an_api_key(anon):
    assert_problem(anon.post("/schemas/validate", {"schema": "uint a"}, format="json"), 401)

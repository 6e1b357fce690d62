"""GET /schemas and /schemas/{uid}: the indexed schemas (SPEC section 5)."""

import pytest

from tests.conftest import assert_problem
from tests.factories import ChainFactory, IndexCursorFactory, SchemaFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def chain():
    chain = ChainFactory(chain_id=31337)
    IndexCursorFactory(chain=chain, deployment__chain=chain, head_block=50)
    return chain


def schema_on(chain, **kwargs):
    return SchemaFactory(chain=chain, deployment__chain=chain, **kwargs)


def results(response) -> list[dict]:
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_a_schema_shows_every_field(api, chain):
    s = schema_on(chain, uid="0x" + "5c" * 32, schema="bytes32 documentHash,string name",
                  fields=[{"name": "documentHash", "type": "bytes32"},
                          {"name": "name", "type": "string"}],
                  resolver="0x" + "12" * 20, revocable=False, attestation_count=7,
                  registerer="0x" + "ab" * 20, tx_hash="0x" + "7e" * 32, block_number=41)

    listed = results(api.get("/schemas"))
    one = api.get(f"/schemas/{s.uid}").json()

    assert listed == [one]
    assert one == {
        "uid": "0x" + "5c" * 32, "chainId": 31337, "schema": "bytes32 documentHash,string name",
        "rawSchema": None,
        "fields": [{"name": "documentHash", "type": "bytes32"}, {"name": "name", "type": "string"}],
        "resolver": "0x" + "12" * 20, "revocable": False, "attestationCount": 7,
        "documentHashField": "documentHash", "registerer": "0x" + "ab" * 20,
        "txHash": "0x" + "7e" * 32, "blockNumber": 41, "confirmations": 10,
    }


def test_a_schema_without_a_document_hash_says_null(api, chain):
    s = schema_on(chain, schema="string note", fields=[{"name": "note", "type": "string"}],
                  document_hash_field="")

    assert api.get(f"/schemas/{s.uid}").json()["documentHashField"] is None


def test_schemas_are_listed_by_chain_then_registration_order(api, chain):
    other = ChainFactory(chain_id=10)
    late = schema_on(chain, block_number=9)
    early = schema_on(chain, block_number=3, log_index=4)
    earliest = schema_on(chain, block_number=3, log_index=1)
    first_chain = schema_on(other, block_number=99)

    listed = [s["uid"] for s in results(api.get("/schemas"))]

    assert listed == [first_chain.uid, earliest.uid, early.uid, late.uid]


def test_filters_chain_id_and_uid(api, chain):
    other = ChainFactory()
    there = schema_on(other)
    here = schema_on(chain)

    assert [s["uid"] for s in results(api.get(f"/schemas?chainId={other.chain_id}"))] == [there.uid]
    assert [s["uid"] for s in results(api.get(f"/schemas?uid={here.uid.upper().replace('X', 'x')}"))] == [here.uid]


def test_schemas_of_inactive_chains_are_not_shown(api, chain):
    gone = ChainFactory(status="inactive")
    hidden = schema_on(gone)

    assert results(api.get("/schemas")) == []
    assert_problem(api.get(f"/schemas/{hidden.uid}"), 404, "not_found")


@pytest.mark.parametrize("query, attr", [
    ("chainId=x", "chainId"), ("uid=0x12", "uid"), ("limit=0", "limit"), ("offset=-1", "offset"),
])
def test_a_malformed_filter_is_a_400(api, chain, query, attr):
    body = assert_problem(api.get(f"/schemas?{query}"), 400, "validation_error")
    assert [e["attr"] for e in body["errors"]] == [attr]


def test_limit_and_offset_paginate(api, chain):
    made = [schema_on(chain, block_number=n) for n in range(3)]

    body = api.get("/schemas?limit=2").json()
    rest = api.get(body["next"]).json()

    assert [s["uid"] for s in body["results"] + rest["results"]] == [s.uid for s in made]
    assert rest["next"] is None


def test_a_uid_on_two_chains_needs_the_chain_id(api, chain):
    uid = "0x" + "5d" * 32
    schema_on(chain, uid=uid)
    schema_on(ChainFactory(chain_id=10), uid=uid)

    assert_problem(api.get(f"/schemas/{uid}"), 409, "ambiguous_uid")
    assert api.get(f"/schemas/{uid}?chainId=10").json()["chainId"] == 10


def test_unknown_and_malformed_uids(api, chain):
    assert_problem(api.get(f"/schemas/{'0x' + '00' * 32}"), 404, "not_found")
    body = assert_problem(api.get("/schemas/nope"), 400, "validation_error")
    assert body["errors"][0]["attr"] == "uid"


def test_validate_is_not_a_uid(api, chain):
    assert_problem(api.get("/schemas/validate"), 405)

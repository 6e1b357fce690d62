"""GET /attestations?schemaId=...&field.<name>=... (issue 21, item 4): attestations by the
value of a decoded field, exact or (integers) in a range; on PostgreSQL through the GIN
index on `decoded`. Runs on SQLite too (a key comparison there)."""

import pytest
from django.db import connection

from attestations.models import Attestation
from tests.conftest import assert_problem
from tests.factories import AttestationFactory, ChainFactory, SchemaFactory

pytestmark = pytest.mark.django_db

SCHEMA = "string title,uint8 grade,uint256 points,int32 delta,bool final,address holder,bytes32 ref,string[] tags"
HOLDER = "0x" + "ab" * 20
REF = "0x" + "cd" * 32


@pytest.fixture
def diplomas():
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    schema = SchemaFactory(deployment__chain=chain, schema=SCHEMA, uid="0x" + "5c" * 32)
    other = SchemaFactory(deployment__chain=chain, schema="string title", uid="0x" + "6d" * 32)
    rows = {}
    for n, (title, grade, points, final) in enumerate([
            ("Physics", 5, 10**30, True), ("Physics", 3, 7, False), ("Poetry", 4, 10**20, True),
            ("Physics ", 5, 1, True)]):
        rows[n] = AttestationFactory(schema=schema, decoded={
            "title": title, "grade": grade, "points": str(points), "delta": -n, "final": final,
            "holder": HOLDER if n == 0 else "0x" + "00" * 20, "ref": REF if n == 2 else "0x" + "00" * 32,
            "tags": ["a"]})
    AttestationFactory(schema=other, decoded={"title": "Physics"})
    AttestationFactory(schema=schema, decoded=None, decode_error="bad data")
    return schema, rows


def found(api, **params) -> set[str]:
    response = api.get("/attestations", {"schemaId": "0x" + "5c" * 32, **params})
    assert response.status_code == 200, response.content
    return {row["uid"] for row in response.json()["results"]}


def uids(rows, *numbers) -> set[str]:
    return {rows[n].uid for n in numbers}


def test_an_exact_value_of_each_scalar_type(api, diplomas):
    _, rows = diplomas
    assert found(api, **{"field.title": "Physics"}) == uids(rows, 0, 1)  # "Physics " is not
    assert found(api, **{"field.title": "Physics "}) == uids(rows, 3)
    assert found(api, **{"field.grade": "5"}) == uids(rows, 0, 3)
    assert found(api, **{"field.points": str(10**30)}) == uids(rows, 0)  # wide: a string
    assert found(api, **{"field.delta": "-2"}) == uids(rows, 2)
    assert found(api, **{"field.final": "false"}) == uids(rows, 1)
    assert found(api, **{"field.holder": HOLDER.upper().replace("0X", "0x")}) == uids(rows, 0)
    assert found(api, **{"field.ref": REF}) == uids(rows, 2)
    assert found(api, **{"field.title": "Physics", "field.grade": "5"}) == uids(rows, 0)


def test_integer_ranges(api, diplomas):
    _, rows = diplomas
    assert found(api, **{"field.grade.gte": "4"}) == uids(rows, 0, 2, 3)
    assert found(api, **{"field.grade.gt": "4", "field.grade.lte": "5"}) == uids(rows, 0, 3)
    assert found(api, **{"field.points.gt": str(10**19)}) == uids(rows, 0, 2)
    assert found(api, **{"field.delta.lt": "-1"}) == uids(rows, 2, 3)
    assert found(api, **{"field.title": "Physics", "field.grade.lt": "5"}) == uids(rows, 1)


@pytest.mark.parametrize("params, attr, says", [
    ({"field.nope": "1"}, "field.nope", "no field 'nope'"),
    ({"field.tags": "a"}, "field.tags", "only a scalar field"),
    ({"field.grade": "x"}, "field.grade", "decimal digits"),
    ({"field.grade": "256"}, "field.grade", "Out of range"),
    ({"field.title.gte": "A"}, "field.title.gte", "no ranges"),
    ({"field.grade.between": "1"}, "field.grade.between", ".gte/.gt/.lte/.lt"),
    ({"field.final": "yes"}, "field.final", "true or false"),
    ({"field.ref": "0x12"}, "field.ref", "64 hex"),
    ({"field.holder": "0x12"}, "field.holder", ""),
])
def test_a_bad_field_filter_is_a_400_naming_it(api, diplomas, params, attr, says):
    problem = assert_problem(api.get("/attestations", {"schemaId": "0x" + "5c" * 32, **params}),
                             400, "validation_error")
    assert [e["attr"] for e in problem["errors"]] == [attr]
    assert says in problem["errors"][0]["detail"]


def test_a_field_filter_needs_the_schema(api, diplomas):
    problem = assert_problem(api.get("/attestations", {"field.title": "Physics"}), 400)
    assert problem["errors"][0]["attr"] == "field.title"
    # A schema that is not indexed decodes nothing: nothing matches.
    assert api.get("/attestations", {"schemaId": "0x" + "77" * 32, "field.title": "x"}).json()[
        "results"] == []


def test_pages_of_a_field_filter_walk_newest_first(api, diplomas):
    _, rows = diplomas
    first = api.get("/attestations", {"schemaId": "0x" + "5c" * 32, "field.final": "true",
                                      "limit": 2}).json()
    second = api.get(first["next"]).json()
    seen = [r["uid"] for r in first["results"] + second["results"]]
    assert set(seen) == uids(rows, 0, 2, 3) and len(seen) == 3


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the GIN index is PostgreSQL's")
def test_an_exact_value_reads_the_gin_index(diplomas):
    from django.http import QueryDict

    from attestations.api.decoded_filters import filter_by_decoded_fields

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE attestations_attestation")
        cursor.execute("SET LOCAL enable_seqscan = off")
        query = filter_by_decoded_fields(Attestation.objects.all(),
                                         QueryDict("field.title=Poetry"), "0x" + "5c" * 32)
        plan = query.filter(schema_uid="0x" + "5c" * 32).order_by("-time", "-id")[:51].explain()
    assert "attestation_decoded_idx" in plan, plan

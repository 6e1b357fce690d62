"""GET /attestations and /attestations/{uid}: fields, filters, order, cursor (SPEC section 5)."""

import base64
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import assert_problem
from tests.factories import AttestationFactory, ChainFactory, IndexCursorFactory, SchemaFactory

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 21, 10, 0, 0, tzinfo=UTC)


@pytest.fixture
def chain():
    chain = ChainFactory(chain_id=31337, confirmations=2)
    IndexCursorFactory(chain=chain, deployment__chain=chain, head_block=120)
    return chain


@pytest.fixture
def schema(chain):
    return SchemaFactory(chain=chain, deployment__chain=chain)


def attest(schema, minutes=0, **kwargs):
    return AttestationFactory(schema=schema, time=T0 + timedelta(minutes=minutes), **kwargs)


def results(response) -> list[dict]:
    assert response.status_code == 200, response.content
    return response.json()["results"]


def uids(response) -> list[str]:
    return [a["uid"] for a in results(response)]


def test_an_attestation_shows_every_field(api, chain, schema):
    doc = "0x" + "d0" * 32
    a = attest(schema, uid="0x" + "a1" * 32, attester="0x" + "e1" * 20,
               recipient="0x" + "c1" * 20, ref_uid="0x" + "0f" * 32, document_hash=doc,
               expiration_time=T0 + timedelta(days=365), revocation_time=T0 + timedelta(hours=1),
               decoded={"documentHash": doc, "snake_key": 1}, block_number=100,
               tx_hash="0x" + "7a" * 32)

    listed = results(api.get("/attestations"))
    one = api.get(f"/attestations/{a.uid}").json()

    assert listed == [one]
    assert one == {
        "uid": "0x" + "a1" * 32, "chainId": 31337, "schemaId": schema.uid,
        "attester": "0x" + "e1" * 20, "recipient": "0x" + "c1" * 20, "refUid": "0x" + "0f" * 32,
        "time": "2026-11-21T10:00:00Z", "expirationTime": "2027-11-21T10:00:00Z",
        "revocationTime": "2026-11-21T11:00:00Z", "revocable": True, "revoked": True,
        "data": doc, "decoded": {"documentHash": doc, "snake_key": 1}, "decodeError": None,
        "documentHash": doc, "txHash": "0x" + "7a" * 32, "blockNumber": 100, "confirmations": 21,
    }


def test_unset_times_and_a_missing_document_hash_are_null(api, chain, schema):
    a = attest(schema, document_hash=None, data=b"", decoded=None)

    one = api.get(f"/attestations/{a.uid}").json()

    assert (one["expirationTime"], one["revocationTime"], one["revoked"]) == (None, None, False)
    assert (one["documentHash"], one["data"], one["decoded"]) == (None, "0x", None)


def test_confirmations_are_zero_while_the_head_is_unknown(api, schema):
    bare = ChainFactory()
    a = attest(SchemaFactory(chain=bare, deployment__chain=bare))

    assert api.get(f"/attestations/{a.uid}").json()["confirmations"] == 0


def test_newest_first_by_time_then_by_indexing_order(api, chain, schema):
    old = attest(schema, minutes=-5)
    first, second = attest(schema), attest(schema)  # the same second: the later row first
    new = attest(schema, minutes=5)

    assert uids(api.get("/attestations")) == [new.uid, second.uid, first.uid, old.uid]


def test_attestations_of_inactive_chains_are_not_shown(api, chain, schema):
    shown = attest(schema)
    gone = ChainFactory(status="inactive")
    hidden = attest(SchemaFactory(chain=gone, deployment__chain=gone))

    assert uids(api.get("/attestations")) == [shown.uid]
    assert uids(api.get(f"/attestations?chainId={gone.chain_id}")) == []
    assert_problem(api.get(f"/attestations/{hidden.uid}"), 404, "not_found")


@pytest.mark.parametrize("name, field, value", [
    ("schemaId", "schema_uid", None),
    ("attester", "attester", "0x" + "e1" * 20),
    ("recipient", "recipient", "0x" + "c1" * 20),
    ("documentHash", "document_hash", "0x" + "d1" * 32),
])
def test_each_hex_filter_matches_in_any_case(api, chain, schema, name, field, value):
    other_schema = SchemaFactory(chain=chain, deployment__chain=chain)
    wanted = attest(schema if value else other_schema, **({field: value} if value else {}))
    attest(schema)
    value = value or other_schema.uid

    assert uids(api.get(f"/attestations?{name}={value}")) == [wanted.uid]
    assert uids(api.get(f"/attestations?{name}=0x{value[2:].upper()}")) == [wanted.uid]


def test_a_checksummed_address_filters_and_a_bad_checksum_is_a_400(api, chain, schema):
    wanted = attest(schema, attester="0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")

    good = api.get("/attestations?attester=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
    bad = api.get("/attestations?attester=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")

    assert uids(good) == [wanted.uid]
    assert assert_problem(bad, 400, "validation_error")["errors"][0]["attr"] == "attester"


def test_chain_filter(api, chain, schema):
    other = ChainFactory()
    there = attest(SchemaFactory(chain=other, deployment__chain=other))
    attest(schema)

    assert uids(api.get(f"/attestations?chainId={other.chain_id}")) == [there.uid]


def test_revoked_filter(api, chain, schema):
    revoked = attest(schema, revocation_time=T0)
    valid = attest(schema)

    assert uids(api.get("/attestations?revoked=true")) == [revoked.uid]
    assert uids(api.get("/attestations?revoked=false")) == [valid.uid]


def test_from_is_inclusive_and_to_exclusive(api, chain, schema):
    before, at, inside, end = (attest(schema, minutes=m) for m in (-1, 0, 1, 2))

    response = api.get("/attestations", {"from": "2026-11-21T10:00:00Z",
                                          "to": "2026-11-21T10:02:00Z"})

    assert uids(response) == [inside.uid, at.uid]
    assert uids(api.get("/attestations?to=2026-11-21T10:00:00Z")) == [before.uid]
    assert uids(api.get("/attestations?from=2026-11-21T10:02:00Z")) == [end.uid]


def test_times_with_an_offset_or_a_date_are_understood(api, chain, schema):
    at = attest(schema)
    attest(schema, minutes=-24 * 60)

    assert uids(api.get("/attestations", {"from": "2026-11-21T11:00:00+01:00"})) == [at.uid]
    assert uids(api.get("/attestations", {"from": "2026-11-21"})) == [at.uid]


def test_filters_combine(api, chain, schema):
    wanted = attest(schema, attester="0x" + "e1" * 20, revocation_time=T0)
    attest(schema, attester="0x" + "e1" * 20)
    attest(schema, revocation_time=T0)

    response = api.get(f"/attestations?attester={'0x' + 'e1' * 20}&revoked=true"
                       f"&schemaId={schema.uid}&chainId=31337&from=2026-11-21")

    assert uids(response) == [wanted.uid]


@pytest.mark.parametrize("query, attr", [
    ("chainId=abc", "chainId"),
    ("chainId=0", "chainId"),
    ("chainId=99999999999999999999", "chainId"),
    ("schemaId=0x1234", "schemaId"),
    ("attester=0x" + "e1" * 19, "attester"),
    ("attester=" + "e1" * 20, "attester"),
    ("recipient=0x" + "zz" * 20, "recipient"),
    ("documentHash=0x" + "d0" * 33, "documentHash"),
    ("revoked=1", "revoked"),
    ("revoked=True", "revoked"),
    ("from=yesterday", "from"),
    ("from=2026-11-21T10:00:00", "from"),  # no zone: refused, not guessed
    ("from=2026-11-21T10:00:00 01:00", "from"),  # an unescaped + in the URL
    ("to=2026-13-01", "to"),
    ("from=2026-11-21T10:00:00Z&to=2026-11-21T10:00:00Z", "to"),
    ("limit=0", "limit"),
    ("limit=x", "limit"),
])
def test_a_malformed_filter_is_a_400_naming_it(api, chain, schema, query, attr):
    body = assert_problem(api.get(f"/attestations?{query}"), 400, "validation_error")

    assert [e["attr"] for e in body["errors"]] == [attr]


def page(api, url):
    response = api.get(url)
    assert response.status_code == 200, response.content
    return response.json()


def test_the_cursor_walks_every_attestation_once_in_both_directions(api, chain, schema):
    made = [attest(schema, minutes=i // 3) for i in range(11)]  # ties within a minute
    newest_first = [a.uid for a in reversed(made)]

    seen, url, pages = [], "/attestations?limit=4", []
    while url:
        body = page(api, url)
        pages.append(body)
        seen += [a["uid"] for a in body["results"]]
        url = body["next"]

    assert seen == newest_first
    assert [len(p["results"]) for p in pages] == [4, 4, 3]
    assert pages[0]["previous"] is None
    back = page(api, pages[2]["previous"])
    assert [a["uid"] for a in back["results"]] == newest_first[4:8]
    first = page(api, back["previous"])
    assert [a["uid"] for a in first["results"]] == newest_first[:4]
    assert first["previous"] is None
    assert page(api, first["next"])["results"] == back["results"]


def test_the_cursor_is_stable_while_new_attestations_arrive(api, chain, schema):
    made = [attest(schema, minutes=i) for i in range(6)]
    first = page(api, "/attestations?limit=3")

    newer = [attest(schema, minutes=60), attest(schema, minutes=5)]  # the second ties
    second = page(api, first["next"])

    assert [a["uid"] for a in second["results"]] == [a.uid for a in reversed(made[:3])]
    assert second["next"] is None
    back = page(api, second["previous"])
    assert [a["uid"] for a in back["results"]] == [a.uid for a in reversed(made[3:])]
    assert page(api, back["previous"])["results"][0]["uid"] == newer[0].uid


def test_links_keep_the_filters(api, chain, schema):
    for _ in range(3):
        attest(schema, attester="0x" + "e1" * 20)
    attest(schema)

    body = page(api, f"/attestations?attester={'0x' + 'e1' * 20}&limit=2")
    query = parse_qs(urlparse(body["next"]).query)

    assert query["attester"] == ["0x" + "e1" * 20] and query["limit"] == ["2"]
    assert len(page(api, body["next"])["results"]) == 1


@pytest.mark.parametrize("cursor", [
    "garbage", "!!!", base64.urlsafe_b64encode(b"n1.x").decode(),
    base64.urlsafe_b64encode(b"n9999999999999999999.1").decode(),
    base64.urlsafe_b64encode(b"x1.1").decode(), base64.urlsafe_b64encode(b"\xff\xfe").decode(),
    base64.urlsafe_b64encode(b"n1.99999999999999999999").decode(),
])
def test_a_tampered_cursor_is_a_400(api, chain, schema, cursor):
    attest(schema)

    body = assert_problem(api.get("/attestations", {"cursor": cursor}), 400, "validation_error")

    assert body["errors"][0]["attr"] == "cursor"


def test_a_page_costs_a_fixed_number_of_queries_and_no_count(api, chain, schema):
    for _ in range(5):
        attest(schema)
    api.get("/attestations")  # the key's first use writes lastUsedAt

    with CaptureQueriesContext(connection) as few:
        api.get("/attestations?limit=2")
    for _ in range(20):
        attest(schema)
    with CaptureQueriesContext(connection) as many:
        body = page(api, "/attestations?limit=20")

    assert len(body["results"]) == 20
    assert len(many) == len(few)
    assert not any("COUNT(" in q["sql"].upper() for q in many.captured_queries)


def test_a_uid_on_two_chains_needs_the_chain_id(api, chain, schema):
    uid = "0x" + "a2" * 32
    other = ChainFactory(chain_id=10)
    here = attest(schema, uid=uid)
    there = attest(SchemaFactory(chain=other, deployment__chain=other), uid=uid)

    body = assert_problem(api.get(f"/attestations/{uid}"), 409, "ambiguous_uid")

    assert "10, 31337" in body["detail"]
    assert api.get(f"/attestations/{uid}?chainId=10").json()["txHash"] == there.tx_hash
    assert api.get(f"/attestations/{uid.upper()[2:].join(['0x', ''])}?chainId=31337"
                   ).json()["txHash"] == here.tx_hash


def test_an_unknown_uid_is_a_404_and_a_malformed_one_a_400(api, chain, schema):
    a = attest(schema)

    assert_problem(api.get(f"/attestations/{'0x' + 'ff' * 32}"), 404, "not_found")
    assert_problem(api.get(f"/attestations/{a.uid}?chainId=10"), 404, "not_found")
    body = assert_problem(api.get("/attestations/0x1234"), 400, "validation_error")
    assert body["errors"][0]["attr"] == "uid"
    assert_problem(api.get(f"/attestations/{a.uid}?chainId=x"), 400, "validation_error")


def test_an_executor_key_may_not_read_attestations(anon, executor_key):
    anon.credentials(HTTP_X_API_KEY=executor_key)
    assert_problem(anon.get("/attestations"), 403, "permission_denied")


def test_without_a_key_it_is_a_401(anon):
    response = anon.get("/attestations")
    assert_problem(response, 401, "not_authenticated")
    assert "X-API-Key" in response["WWW-Authenticate"]

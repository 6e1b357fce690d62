"""What strangers write on a chain cannot stop its indexer (EAS is permissionless): hostile
schemas and attestations made through the real contracts on anvil, read by the project's
indexer, then shown by the API; an ordinary attestation made after them still verifies."""

import itertools

import eth_abi
import pytest
from django.db import DataError, connection
from django.urls import reverse
from eth_utils import keccak
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web3 import Web3

from attestations import eas as eas_contracts
from attestations.indexer import index_chain, store
from attestations.models import Attestation, IndexCursor, Schema
from attestations.schema import MAX_DECODED_DATA
from tests.conftest import EasChain, EasNode, deploy_eas_on, make_key
from tests.factories import (
    ChainFactory,
    DeploymentFactory,
    RpcEndpointFactory,
    TrustedAttesterFactory,
)

pytestmark = [pytest.mark.chain, pytest.mark.django_db]

DOCUMENT_SCHEMA = "bytes32 documentHash"
NOTE_SCHEMA = "bytes32 documentHash,string note"
NEVER = 2**64 - 1  # the largest expirationTime EAS takes
YEAR_10000 = 253402300800  # the first second a datetime cannot hold
ZERO_ADDRESS = "0x" + "00" * 20
REGISTER = keccak(text="register(string,address,bool)")[:4]


def register_raw(node: EasNode, schema: bytes) -> str:
    """Register any bytes as a schema string (web3 would encode only valid text): the call
    EAS's SDK makes, its string ABI-encoded as the bytes it is. Returns the schema's uid."""
    data = REGISTER + eth_abi.encode(["bytes", "address", "bool"], [schema, ZERO_ADDRESS, True])
    tx = node.w3.eth.send_transaction({"from": Web3.to_checksum_address(node.sender),
                                       "to": Web3.to_checksum_address(
                                           node.deployment.schema_registry),
                                       "data": data})
    assert node.w3.eth.wait_for_transaction_receipt(tx)["status"] == 1
    # SchemaRegistry: keccak256(abi.encodePacked(schema, resolver, revocable))
    return "0x" + keccak(schema + bytes(20) + b"\x01").hex()


def attest(node: EasNode, schema_uid: str, data: bytes, expiration_time: int = 0) -> str:
    uid, _ = eas_contracts.attest(node.w3, node.deployment.eas, schema_uid=schema_uid,
                                  data=data, expiration_time=expiration_time,
                                  sender=node.sender)
    return uid


def note(document_hash: bytes, text: bytes) -> bytes:
    """`bytes32 documentHash,string note` data whose note holds any bytes."""
    return eth_abi.encode(["bytes32", "bytes"], [document_hash, text])


def document(n: int) -> bytes:
    return n.to_bytes(32, "big")


def reused_offsets(n: int) -> bytes:
    """`uint8[][]` data: n offsets to one list of n items, which would decode to n*n items."""
    word = lambda v: v.to_bytes(32, "big")  # noqa: E731
    outer = word(n) + b"".join(word(32 * n) for _ in range(n))
    return word(32) + outer + word(n) + b"".join(word(1) for _ in range(n))


class Chain:
    """The session's EAS node as the service knows it, its first account trusted."""

    def __init__(self, eas_chain):
        self.node, self.chain = eas_chain.node, eas_chain.chain
        self.registered: dict[bytes, str] = {}
        self.documents = itertools.count(1)
        TrustedAttesterFactory(chain=self.chain, address=self.node.sender)

    def schema(self, text: bytes) -> str:
        """Register the schema once (the registry refuses a second registration)."""
        if text not in self.registered:
            self.registered[text] = register_raw(self.node, text)
        return self.registered[text]

    def index(self):
        report = index_chain(self.chain)
        assert report.ok, report.as_dict()
        return report

    def settle(self):
        self.node.anvil.mine(self.chain.confirmations)
        self.index()


@pytest.fixture
def onchain(eas_chain) -> Chain:
    return Chain(eas_chain)


def own_chain(anvil_factory, chain_id: int) -> EasChain:
    """A node of its own with the EAS contracts, registered as a chain: for tests that
    would leave the session's node changed (its clock, hundreds of blocks)."""
    node = deploy_eas_on(anvil_factory(chain_id=chain_id))
    contracts = node.deployment
    chain = ChainFactory(chain_id=chain_id, short_name=f"own{chain_id}", confirmations=1)
    RpcEndpointFactory(chain=chain, url=node.anvil.url)
    registry = DeploymentFactory(chain=chain, kind="schema_registry",
                                 address=contracts.schema_registry,
                                 start_block=contracts.schema_registry_block)
    eas = DeploymentFactory(chain=chain, kind="eas", address=contracts.eas,
                            start_block=contracts.eas_block)
    return EasChain(node, chain, registry, eas)


@pytest.fixture
def hostile_chain(anvil_factory, db) -> Chain:
    return Chain(own_chain(anvil_factory, 31339))


def verifies(api, chain: Chain) -> bool:
    """An ordinary attestation of a new document, made now, verifies through the API."""
    n = 10**6 + next(chain.documents)
    attest(chain.node, chain.schema(DOCUMENT_SCHEMA.encode()), document(n))
    chain.settle()
    response = api.post("/v1/verify", {"documentHash": "0x" + document(n).hex()},
                        format="json")
    assert response.status_code == 200, response.content
    return response.json()["verified"]


def get(api, path: str) -> dict:
    response = api.get(path)
    assert response.status_code == 200, response.content
    return response.json()


# --- Whatever a stranger sends, then an ordinary attestation verifies -----------------------

text_with_nul = st.text(max_size=12).map(lambda t: t[:6] + "\x00" + t[6:])
hostile_text = st.one_of(st.binary(max_size=24), text_with_nul.map(str.encode))
hostile_schema = st.one_of(
    hostile_text,
    st.sampled_from([b"bytes32 documentHash\x00", b"\x00", b"string s\xff", b"bytes32 \xc3(",
                     b"uint8[][] x", b"(string a)[] t", b"bytes blob", NOTE_SCHEMA.encode()]),
)
expiration = st.one_of(st.sampled_from([0, NEVER, YEAR_10000, YEAR_10000 - 1]),
                       st.integers(min_value=4_000_000_000, max_value=NEVER))
hostile_data = st.one_of(
    st.binary(max_size=200),
    hostile_text.map(lambda t: note(document(7), t)),
    st.integers(min_value=2, max_value=60).map(reused_offsets),
    st.just(b"\xab" * (MAX_DECODED_DATA + 1)),
)


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(schema=hostile_schema, data=hostile_data, expires=expiration)
def test_no_schema_or_attestation_stops_the_indexer(api, hostile_chain, schema, data,
                                                    expires):
    # The examples share the chain and the database: each adds to what came before.
    onchain = hostile_chain
    attest(onchain.node, onchain.schema(schema), data, expiration_time=expires)
    attest(onchain.node, onchain.schema(NOTE_SCHEMA.encode()), data, expiration_time=expires)

    onchain.index()

    cursors = IndexCursor.objects.filter(chain=onchain.chain)
    assert [c.last_error for c in cursors] == ["", ""]
    assert verifies(api, onchain)
    for listed in get(api, "/attestations?limit=100")["results"]:
        stored = Attestation.objects.get(uid=listed["uid"])
        assert listed["data"] == "0x" + bytes(stored.data).hex()  # the raw data, always
        assert (listed["decoded"] is None) == (listed["decodeError"] is not None)


# --- Each case, as the API shows it ---------------------------------------------------------


def test_an_expiration_beyond_year_9999_is_shown_as_its_integer_and_never_expires(api,
                                                                                   onchain):
    never = attest(onchain.node, onchain.schema(DOCUMENT_SCHEMA.encode()), document(1),
                   expiration_time=NEVER)
    year_10000 = attest(onchain.node, onchain.schema(DOCUMENT_SCHEMA.encode()), document(2),
                        expiration_time=YEAR_10000)
    last_second = attest(onchain.node, onchain.schema(DOCUMENT_SCHEMA.encode()), document(3),
                         expiration_time=YEAR_10000 - 1)
    onchain.settle()

    assert get(api, f"/attestations/{never}")["expirationTime"] == NEVER
    assert get(api, f"/attestations/{year_10000}")["expirationTime"] == YEAR_10000
    assert get(api, f"/attestations/{last_second}")["expirationTime"] == "9999-12-31T23:59:59Z"
    for n, uid in ((1, never), (2, year_10000)):
        answer = api.post("/v1/verify", {"documentHash": "0x" + document(n).hex()},
                          format="json").json()
        assert (answer["verified"], answer["attestationId"]) == (True, uid)
    assert Attestation.objects.get(uid=never).expiration_time_raw == str(NEVER)
    conforms_to_the_openapi_schema(f"/attestations/{never}")


def conforms_to_the_openapi_schema(path: str) -> None:
    """The response to GET `path` is what /v1/openapi.json says it is (schemathesis)."""
    from schemathesis.checks import response_schema_conformance

    from tests.test_fuzz import _connections_kept
    from tests.test_fuzz import schema as openapi

    template = "/attestations/{uid}" if path.startswith("/attestations") else "/schemas/{uid}"
    case = openapi[template]["GET"].Case(path_parameters={"uid": path.rsplit("/", 1)[1]})
    with _connections_kept():
        case.call_and_validate(headers={"X-API-Key": make_key("api")},
                               checks=[response_schema_conformance])


def test_a_nul_and_bytes_that_are_not_utf8_in_a_string_are_shown_escaped(api, onchain):
    data = note(document(4), b"a\x00b\xffc")
    uid = attest(onchain.node, onchain.schema(NOTE_SCHEMA.encode()), data)
    onchain.settle()

    shown = get(api, f"/attestations/{uid}")
    assert shown["decoded"] == {"documentHash": "0x" + document(4).hex(), "note": "a\\x00b\\xffc"}
    assert shown["decodeError"] is None and shown["data"] == "0x" + data.hex()
    assert shown["documentHash"] == "0x" + document(4).hex()


def test_a_schema_string_with_a_nul_or_bytes_that_are_not_utf8_keeps_its_bytes(api, onchain):
    with_nul = onchain.schema(b"bytes32 documentHash\x00")
    not_utf8 = onchain.schema(b"string s\xff")
    uid = attest(onchain.node, with_nul, document(5))
    ordinary = onchain.schema(NOTE_SCHEMA.encode())
    onchain.settle()

    shown = get(api, f"/schemas/{with_nul}")
    assert shown["schema"] == "bytes32 documentHash\\x00"
    assert shown["rawSchema"] == "0x" + b"bytes32 documentHash\x00".hex()
    assert shown["fields"] == [] and shown["documentHashField"] is None
    assert get(api, f"/schemas/{not_utf8}")["schema"] == "string s\\xff"
    attestation = get(api, f"/attestations/{uid}")
    assert attestation["decoded"] is None
    assert attestation["decodeError"].startswith("The schema string does not parse")
    assert get(api, f"/schemas/{ordinary}")["rawSchema"] is None
    conforms_to_the_openapi_schema(f"/schemas/{with_nul}")
    conforms_to_the_openapi_schema(f"/attestations/{uid}")


@pytest.mark.parametrize(("schema", "data", "error", "document_hash"), [
    (NOTE_SCHEMA, b"\x01" * 40, "does not decode with the schema", "0x" + "01" * 32),
    (NOTE_SCHEMA, b"\x01" * 31, "does not decode with the schema", None),
    ("bytes blob", eth_abi.encode(["bytes"], [b"\xab" * (MAX_DECODED_DATA + 1)]),
     "Not decoded: the data is 16480 bytes, longer than the 16384 decoded into `decoded`.",
     None),
    ("uint8[][] x", reused_offsets(60), "reuse data", None),
], ids=["not-the-schemas-layout", "shorter-than-its-head", "too-long", "reused-offsets"])
def test_data_that_is_not_decoded_is_kept_raw_with_why(api, onchain, schema, data, error,
                                                        document_hash):
    uid = attest(onchain.node, onchain.schema(schema.encode()), data)
    onchain.settle()

    shown = get(api, f"/attestations/{uid}")
    assert shown["decoded"] is None and error in shown["decodeError"]
    # The document hash is read from its place whenever the data reaches it.
    assert shown["data"] == "0x" + data.hex() and shown["documentHash"] == document_hash


def test_an_attestation_under_a_schema_not_indexed_says_so(api, eas_chain, onchain):
    schema_uid = onchain.schema(b"bytes32 documentHash,uint8 unread")
    # The registry is followed from a later block: that schema is never read.
    eas_chain.registry.start_block = onchain.node.w3.eth.block_number + 1
    eas_chain.registry.save()
    uid = attest(onchain.node, schema_uid, document(6))
    onchain.settle()

    shown = get(api, f"/attestations/{uid}")
    assert (shown["decoded"], shown["decodeError"]) == (None, "The schema is not indexed.")
    assert not Schema.objects.filter(uid=schema_uid).exists()


def test_a_record_that_cannot_be_stored_is_skipped_on_the_cursor_and_indexing_goes_on(
        anvil_factory, api, site):
    # A chain whose clock is past 9999 (a node of its own: the session's keeps its time):
    # the attestation's time fits no datetime. Block times are the chain's, not a
    # stranger's, but no record may stop the chain.
    own = own_chain(anvil_factory, 31338)
    node, w3, chain = own.node, own.node.w3, own.chain
    schema_uid = eas_contracts.register_schema(w3, node.deployment.schema_registry,
                                               DOCUMENT_SCHEMA, sender=node.sender)
    now = w3.eth.get_block("latest")["timestamp"]
    node.anvil.rpc("evm_setNextBlockTimestamp", [YEAR_10000])
    future = attest(node, schema_uid, document(1))
    node.anvil.rpc("evm_setTime", [now + 60])  # back to now: anvil lets a clock go back
    later = attest(node, schema_uid, document(2))
    node.anvil.mine()

    report = index_chain(chain)

    assert report.ok, report.as_dict()
    cursor = IndexCursor.objects.get(deployment=own.eas)
    assert cursor.next_block == w3.eth.block_number + 1 and cursor.last_error == ""
    (skipped,) = cursor.skipped
    receipt = w3.eth.get_transaction_receipt(
        w3.eth.get_block(skipped["block"])["transactions"][0])
    assert skipped["uid"] == future and "beyond 9999-12-31" in skipped["reason"]
    assert skipped["txHash"] == "0x" + receipt["transactionHash"].hex()
    assert not Attestation.objects.filter(uid=future).exists()
    assert Attestation.objects.filter(uid=later).exists()
    page = site.get(reverse("admin:attestations_indexcursor_change", args=[cursor.pk]))
    assert page.status_code == 200 and future.encode() in page.content
    listing = site.get(reverse("admin:attestations_indexcursor_changelist"))
    assert listing.status_code == 200


def test_a_row_the_database_refuses_is_skipped_and_the_others_of_its_range_are_stored(
        onchain, monkeypatch):
    # No value known today makes the database refuse a row (that is what the rest of this
    # file checks); should one appear, the batch is written row by row and only it skipped.
    schema_uid = onchain.schema(DOCUMENT_SCHEMA.encode())
    refused = attest(onchain.node, schema_uid, document(8))
    stored = attest(onchain.node, schema_uid, document(9))
    real_upsert = store.upsert

    def upsert(model, rows, **kwargs):
        if any(row.get("uid") == refused for row in rows):
            # A real refusal on PostgreSQL (its transaction then needs the savepoint's
            # rollback); SQLite casts 'x' to 0 without a word, so it is said here.
            with connection.cursor() as cursor:
                cursor.execute("SELECT CAST('x' AS INTEGER)")
            raise DataError("refused")
        return real_upsert(model, rows, **kwargs)

    monkeypatch.setattr(store, "upsert", upsert)
    onchain.settle()

    assert Attestation.objects.filter(uid=stored).exists()
    assert not Attestation.objects.filter(uid=refused).exists()
    cursor = IndexCursor.objects.get(deployment__kind="eas", chain=onchain.chain)
    (skipped,) = cursor.skipped
    assert skipped["uid"] == refused and skipped["reason"].startswith("DataError")
    assert cursor.last_error == "" and cursor.next_block == onchain.node.w3.eth.block_number + 1
    assert Schema.objects.get(uid=schema_uid).attestation_count == 1

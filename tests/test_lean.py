"""The lean reading of hot request bodies (core/lean.py) gives what the serializer
gives, and leaves everything else to the serializer."""

from datetime import UTC, datetime, timedelta, timezone
from types import SimpleNamespace

import pytest
from djangorestframework_camel_case.render import CamelCaseJSONRenderer
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import serializers as rest_serializers
from rest_framework.exceptions import ValidationError

from bindings.api.serializers import BATCH_LIMIT as WORKFLOW_BATCH_LIMIT
from bindings.api.serializers import JobClaimSerializer, WorkflowBatchCreateSerializer
from bindings.jobs import MAX_CLAIM
from core.lean import (
    _answer_fields,
    _plan,
    _read,
    answer,
    answer_many,
    read_body,
    read_request,
    respond,
    write_answer,
)
from executors.models import Heartbeat
from executors.serializers import HeartbeatResponseSerializer, HeartbeatSerializer
from verification.serializers import (
    BATCH_LIMIT,
    VerifyBatchRequestSerializer,
    VerifyBatchResponseSerializer,
    VerifyBatchResultSerializer,
    VerifyRequestSerializer,
    VerifyResponseSerializer,
)
from verification.services import NOT_VERIFIED, Verification

HASH = "0x" + "ab" * 32
UUID = "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b"

HEARTBEAT_WELL_FORMED = [
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok"},
    {"executor_id": "0B8F4A1E2C7D4E5F8A9B1C2D3E4F5A6B", "status": "busy", "pending_jobs": 0},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "draining",
     "pending_jobs": 1_000_000, "head_block": 2**63 - 1},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok", "pending_jobs": None,
     "head_block": None},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "low_funds",
     "balance_wei": "0"},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "blocked_by_fees",
     "balance_wei": "1" + "0" * 77},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "signer_error",
     "balance_wei": None},
]
HEARTBEAT_ILL_FORMED = [
    {}, [], "ok", None, 5,
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b"},
    {"status": "ok"},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": []},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": {"ok": 1}},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "healthy"},
    {"executor_id": ["0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b"], "status": "ok"},
    {"executor_id": 5, "status": "ok"},
    {"executor_id": "0b8f4a1e", "status": "ok"},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok", "pending_jobs": True},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok", "pending_jobs": 1.0},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok", "pending_jobs": -1},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok", "head_block": 2**63},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok", "head_block": "1"},
    {"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok", "uptime": 1},
    *({"executor_id": "0b8f4a1e-2c7d-4e5f-8a9b-1c2d3e4f5a6b", "status": "ok", "balance_wei": bad}
      for bad in (1, 1.5, "", "01", "-1", " 1", "1e18", "0x10", "1" * 79, str(2**256), [])),
]


VERIFY_WELL_FORMED = [
    {"document_hash": HASH},
    {"document_hash": HASH.upper().replace("0X", "0x"), "chain_id": 1, "live": True},
    {"document_hash": "0X" + "ab" * 32},  # the prefix in either case, as the digits
    {"document_hash": HASH, "chain_id": None, "live": False},
    {"document_hash": HASH, "chain_id": 9_223_372_036_854_775_771},
]
VERIFY_ILL_FORMED = [
    {}, [], None, HASH,
    {"document_hash": HASH[:-1]},
    {"document_hash": " " + HASH},
    {"document_hash": HASH, "chain_id": 0},
    {"document_hash": HASH, "chain_id": "1"},
    {"document_hash": HASH, "chain_id": True},
    {"document_hash": HASH, "chain_id": 9_223_372_036_854_775_772},
    {"document_hash": HASH, "live": 1},
    {"document_hash": HASH, "live": None},
    {"document_hash": HASH, "extra": 1},
    {"document_hash": None},
]
BATCH_WELL_FORMED = [
    {"document_hashes": [HASH]},
    {"document_hashes": [HASH, HASH.upper().replace("0X", "0x"), "0x" + "01" * 32],
     "chain_id": 1},
    {"document_hashes": [HASH] * BATCH_LIMIT, "chain_id": None},
]
BATCH_ILL_FORMED = [
    {}, [], None, {"document_hashes": []}, {"document_hashes": HASH},
    {"document_hashes": [HASH] * (BATCH_LIMIT + 1)},
    {"document_hashes": [HASH, None]}, {"document_hashes": [HASH, HASH[:-1]]},
    {"document_hashes": [HASH, 5]}, {"document_hashes": [[HASH]]},
    {"document_hashes": {"0": HASH}}, {"document_hashes": [HASH], "live": False},
    {"document_hashes": [HASH], "chain_id": "1"},
]
ITEM = {"document_hash": HASH, "chain_id": 31337}
WORKFLOWS_WELL_FORMED = [
    {"workflows": [ITEM]},
    {"workflows": [{**ITEM, "schema_id": HASH.upper().replace("0X", "0x"),
                    "data": {"grade": "A", "nested": {"key_name": [1, None]}}},
                   {**ITEM, "data": {}}, {**ITEM, "document_hash": "0x" + "01" * 32}]},
    {"workflows": [ITEM] * WORKFLOW_BATCH_LIMIT},
]
WORKFLOWS_ILL_FORMED = [
    {}, [], None, {"workflows": []}, {"workflows": ITEM}, {"workflows": [ITEM, None]},
    {"workflows": [ITEM] * (WORKFLOW_BATCH_LIMIT + 1)}, {"workflows": [[ITEM]]},
    {"workflows": [{**ITEM, "document_hash": HASH[:-1]}]},
    {"workflows": [{"document_hash": HASH}]}, {"workflows": [{**ITEM, "chain_id": "1"}]},
    {"workflows": [{**ITEM, "chain_id": 0}]}, {"workflows": [{**ITEM, "data": []}]},
    {"workflows": [{**ITEM, "data": None}]}, {"workflows": [{**ITEM, "extra": 1}]},
    {"workflows": [ITEM], "extra": 1}, {"workflows": [{**ITEM, "schema_id": None}]},
]
CLAIM_WELL_FORMED = [{"executor_id": UUID}, {"executor_id": UUID.upper(), "limit": 1},
                     {"executor_id": UUID, "limit": MAX_CLAIM}]
CLAIM_ILL_FORMED = [{}, [], None, {"limit": 1}, {"executor_id": UUID, "limit": 0},
                    {"executor_id": UUID, "limit": MAX_CLAIM + 1},
                    {"executor_id": UUID, "limit": "5"}, {"executor_id": UUID, "limit": None},
                    {"executor_id": 5}, {"executor_id": UUID, "other": 1}]
CASES = [(HeartbeatSerializer, HEARTBEAT_WELL_FORMED, HEARTBEAT_ILL_FORMED),
         (VerifyRequestSerializer, VERIFY_WELL_FORMED, VERIFY_ILL_FORMED),
         (VerifyBatchRequestSerializer, BATCH_WELL_FORMED, BATCH_ILL_FORMED),
         (WorkflowBatchCreateSerializer, WORKFLOWS_WELL_FORMED, WORKFLOWS_ILL_FORMED),
         (JobClaimSerializer, CLAIM_WELL_FORMED, CLAIM_ILL_FORMED)]
HOT_REQUESTS = [HeartbeatSerializer, VerifyRequestSerializer, VerifyBatchRequestSerializer,
                WorkflowBatchCreateSerializer, JobClaimSerializer]


@pytest.mark.parametrize("serializer_class", HOT_REQUESTS)
def test_each_hot_serializer_has_a_plan(serializer_class):
    assert _plan(serializer_class) is not None


@pytest.mark.parametrize(("serializer_class", "body"),
                         [(cls, body) for cls, good, _ in CASES for body in good])
def test_the_lean_reading_of_a_well_formed_body_is_the_serializers(serializer_class, body):
    serializer = serializer_class(data=body)
    assert serializer.is_valid(), serializer.errors

    assert _read(_plan(serializer_class), body) == dict(serializer.validated_data)
    assert read_body(serializer_class, body) == dict(serializer.validated_data)


@pytest.mark.parametrize(("serializer_class", "body"),
                         [(cls, body) for cls, _, bad in CASES for body in bad])
def test_the_serializer_answers_for_every_body_the_lean_reading_does_not_accept(
        serializer_class, body):
    assert _read(_plan(serializer_class), body) is None
    with pytest.raises(ValidationError):
        read_body(serializer_class, body)


JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-2**64, max_value=2**64),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(
        [HASH, HASH.upper(), HASH[:-1], UUID, UUID.upper(), UUID.replace("-", ""), "ok", "busy",
         "draining", "healthy", "", " ok", "low_funds", "0", "01", "12", str(2**256),
         str(2**256 - 1)]),
    st.text(max_size=8), st.lists(st.integers(), max_size=2),
    st.lists(st.sampled_from([HASH, HASH.upper(), HASH[:-1], None, 1, ""]), max_size=3),
)


@pytest.mark.parametrize("serializer_class", HOT_REQUESTS)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_on_any_body_the_lean_reading_agrees_with_the_serializer(serializer_class, data):
    names = [*serializer_class().fields, "other"]
    body = data.draw(st.dictionaries(st.sampled_from(names), JSON_VALUES, max_size=5))
    serializer = serializer_class(data=body)
    lean = _read(_plan(serializer_class), body)
    if lean is not None:
        assert serializer.is_valid(), serializer.errors
        assert lean == dict(serializer.validated_data)
    elif serializer.is_valid():
        # Declining is always safe (the serializer answers); the plan declines only what
        # it does not know, which a well-formed body of these serializers never is.
        pytest.fail(f"the lean reading declined a valid body: {body!r}")


# Answers ------------------------------------------------------------------------------------



ANSWERS = [
    (VerifyResponseSerializer, NOT_VERIFIED),
    (VerifyResponseSerializer, Verification(False, reason="not_final")),
    (VerifyResponseSerializer, Verification(False)),  # no reason given: null
    (VerifyResponseSerializer, Verification(
        True, attestation_id=HASH, timestamp=datetime(2026, 11, 24, 12, 0, 1, 250_000, UTC),
        chain_id=31337, attester="0x" + "Ab" * 20, schema_id="0x" + "cd" * 32,
        tx_hash="0x" + "ef" * 32, block_number=2**63 - 1, confirmations=0,
        block_hash="0x" + "12" * 32, log_index=2**32 - 1, eas_address="0x" + "34" * 20)),
    (VerifyResponseSerializer, Verification(  # a time in another zone is written in UTC
        True, attestation_id=HASH, timestamp=datetime(2026, 1, 1, tzinfo=timezone(
            timedelta(hours=-14))), chain_id=1, attester="0x" + "00" * 20,
        schema_id=HASH, tx_hash=HASH, block_number=0, confirmations=12)),
    (HeartbeatResponseSerializer, Heartbeat("healthy", datetime(2026, 11, 24, tzinfo=UTC),
                                            None, 3, 10)),
    (HeartbeatResponseSerializer, Heartbeat("draining", datetime(2026, 11, 24, 1, 2, 3, 4, UTC),
                                            2**63 - 1, 1, 0)),
    (HeartbeatResponseSerializer, Heartbeat("blocked_by_fees", datetime(2026, 11, 24, tzinfo=UTC),
                                            30_000_000_000, 10_000, 1_000_000)),
]


@pytest.mark.parametrize(("serializer_class", "instance"), ANSWERS)
def test_an_answer_is_written_as_its_serializer_writes_it(serializer_class, instance):
    assert _answer_fields(serializer_class) is not None  # the plan takes it: no fallback
    assert write_answer(serializer_class, instance) == serializer_class(instance).data


BATCH = [Verification(False, reason="not_found", document_hash=HASH),
         Verification(True, attestation_id=HASH, timestamp=datetime(2026, 11, 24, tzinfo=UTC),
                      chain_id=1, attester="0x" + "ab" * 20, schema_id=HASH, tx_hash=HASH,
                      block_number=7, confirmations=3, block_hash=HASH, log_index=0,
                      eas_address="0x" + "cd" * 20, document_hash="0x" + "01" * 32)]


def test_a_batch_is_rendered_as_drf_renders_it():
    response = answer_many(VerifyBatchResultSerializer, BATCH, key="results")
    assert response.content == CamelCaseJSONRenderer().render(
        VerifyBatchResponseSerializer({"results": BATCH}).data)
    assert b'"getAttestationCall":{"to":"0xcdcd' in response.content


class _Note(rest_serializers.Serializer):
    text = rest_serializers.CharField()
    count_of_things = rest_serializers.IntegerField(allow_null=True)


@pytest.mark.parametrize(("serializer_class", "instance"), [
    *ANSWERS,
    (_Note, SimpleNamespace(text="line\u2028sep\u2029ära \"quoted\" \\ </script>",
                            count_of_things=None)),
])
def test_an_answer_is_rendered_as_drf_renders_it(serializer_class, instance):
    response = answer(serializer_class, instance)
    assert response.content == CamelCaseJSONRenderer().render(serializer_class(instance).data)
    assert response["Content-Type"] == "application/json"


@settings(max_examples=500, deadline=None)
@given(moment=st.datetimes(timezones=st.one_of(
    st.just(UTC), st.builds(lambda minutes: timezone(timedelta(minutes=minutes)),
                            st.integers(-1439, 1439)))))
def test_any_time_is_written_as_drf_writes_it(moment):
    # Years before 1000 and the zones that move a time across a year boundary included.
    try:
        expected = VerifyResponseSerializer().fields["timestamp"].to_representation(moment)
    except OverflowError:  # beyond year 9999 or before 1 in UTC: DRF cannot either
        return
    verification = Verification(False, timestamp=moment)
    assert write_answer(VerifyResponseSerializer, verification)["timestamp"] == expected


class _Priced(rest_serializers.Serializer):
    price = rest_serializers.DecimalField(max_digits=5, decimal_places=2,
                                          coerce_to_string=False)
    tags = rest_serializers.ListField(child=rest_serializers.DecimalField(
        max_digits=5, decimal_places=2, coerce_to_string=False))


def test_an_answer_holding_what_only_the_renderer_writes_is_left_to_it():
    from decimal import Decimal

    instance = SimpleNamespace(price=Decimal("1.50"), tags=[Decimal("2.25")])
    response = answer(_Priced, instance)
    assert response.content == CamelCaseJSONRenderer().render(_Priced(instance).data)
    many = answer_many(_Priced, [instance], key="items")
    assert many.content == CamelCaseJSONRenderer().render({"items": [_Priced(instance).data]})


def _drf_request(body: bytes, content_type: str):
    from rest_framework.request import Request
    from rest_framework.settings import api_settings
    from rest_framework.test import APIRequestFactory

    django_request = APIRequestFactory().post("/v1/verify", body, content_type=content_type)
    return Request(django_request, parsers=[cls() for cls in api_settings.DEFAULT_PARSER_CLASSES])


def _outcome(call):
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - compared by kind and detail
        return type(exc), str(getattr(exc, "detail", exc))


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "text/plain", "application/json; charset=hex"])
@pytest.mark.parametrize("body", [
    b'{"documentHash": "0x' + b"ab" * 32 + b'"}',
    b'{"documentHash": "0x' + b"AB" * 32 + b'", "chainId": 31337, "live": false}',
    b'{"documentHash": "0xab"}', b'{"documentHash": "0x' + b"ab" * 32 + b'", "extra": 1}',
    b"[]", b"{", b'{"documentHash": NaN}', b"\xff\xfe", b"",
])
def test_a_request_body_is_read_as_drf_reads_it(body, content_type):
    def through_drf():
        serializer = VerifyRequestSerializer(data=_drf_request(body, content_type).data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    lean = _outcome(lambda: read_request(VerifyRequestSerializer,
                                         _drf_request(body, content_type)))
    assert lean == _outcome(through_drf)


def test_a_serializers_nested_data_is_rendered_as_drf_renders_it():
    # A batch's answer: ReturnDict / ReturnList / OrderedDict all the way down, user data
    # with keys of its own, a status and headers of its own.
    class Item(rest_serializers.Serializer):
        document_hash = rest_serializers.CharField()
        tx_hashes = rest_serializers.ListField(child=rest_serializers.CharField())
        data = rest_serializers.DictField()

    class Batch(rest_serializers.Serializer):
        work_flows = Item(many=True)

    items = [SimpleNamespace(document_hash=HASH, tx_hashes=["0x01", "0x02"],
                             data={"some_field": {"inner_key": [1, None, "ä\u2028"]}}),
             SimpleNamespace(document_hash=HASH, tx_hashes=[], data={})]
    data = Batch({"work_flows": items}).data
    response = respond(data, status=201, headers={"Location": "/workflows/1"})
    assert response.content == CamelCaseJSONRenderer().render(data)
    assert b'"workFlows":[{"documentHash"' in response.content
    assert b'"data":{"some_field":{"inner_key"' in response.content  # written as given
    assert (response.status_code, response["Location"]) == (201, "/workflows/1")

"""The Django admin of schemas, attestations and index cursors."""

import pytest

from attestations.indexer import index_chain
from attestations.models import Attestation, IndexCursor, Schema
from tests.admin_site import admin_urls_of
from tests.conftest import shown_messages
from tests.factories import AttestationFactory, IndexCursorFactory, SchemaFactory

pytestmark = pytest.mark.django_db

TWO_HASHES = "bytes32 documentHash,bytes32 previousHash,string note"


admin_url = admin_urls_of("attestations")


@pytest.fixture
def two_hash_schema():
    schema = SchemaFactory(schema=TWO_HASHES, fields=[
        {"name": "documentHash", "type": "bytes32"}, {"name": "previousHash", "type": "bytes32"},
        {"name": "note", "type": "string"}])
    for n in range(3):
        AttestationFactory(schema=schema, document_hash="0x" + f"{n + 1:064x}", decoded={
            "documentHash": "0x" + f"{n + 1:064x}", "previousHash": "0x" + f"{n + 9:064x}",
            "note": "x"})
    return schema


def test_the_schema_pages_show_schemas(site, two_hash_schema):
    assert site.get(admin_url("schema", "changelist")).status_code == 200
    page = site.get(admin_url("schema", "change", two_hash_schema.pk))
    assert page.status_code == 200 and TWO_HASHES.encode() in page.content
    assert site.get(admin_url("schema", "add")).status_code == 403


def test_changing_the_document_hash_field_re_derives_the_attestations_hashes(site,
                                                                             two_hash_schema):
    response = site.post(admin_url("schema", "change", two_hash_schema.pk),
                         {"document_hash_field": "previousHash"}, follow=True)
    assert response.status_code == 200
    assert any("re-derived" in m for m in shown_messages(response))
    assert Schema.objects.get(pk=two_hash_schema.pk).document_hash_field == "previousHash"
    assert sorted(Attestation.objects.values_list("document_hash", flat=True)) == [
        "0x" + f"{n + 9:064x}" for n in range(3)]

    site.post(admin_url("schema", "change", two_hash_schema.pk), {"document_hash_field": ""})
    assert set(Attestation.objects.values_list("document_hash", flat=True)) == {None}


@pytest.mark.parametrize("name", ["note", "missing"])
def test_a_document_hash_field_must_be_a_bytes32_field_of_the_schema(site, two_hash_schema,
                                                                     name):
    response = site.post(admin_url("schema", "change", two_hash_schema.pk),
                         {"document_hash_field": name})
    assert response.status_code == 200  # the form again, with its error
    assert b"is not a bytes32 field" in response.content
    assert Schema.objects.get(pk=two_hash_schema.pk).document_hash_field == "documentHash"
    assert Attestation.objects.filter(document_hash="0x" + f"{1:064x}").exists()


def test_attestations_are_shown_read_only(site):
    attestation = AttestationFactory()
    IndexCursorFactory(deployment=attestation.deployment, head_block=20)
    listing = site.get(admin_url("attestation", "changelist"))
    assert listing.status_code == 200 and attestation.uid.encode() in listing.content
    detail = site.get(admin_url("attestation", "change", attestation.pk))
    assert detail.status_code == 200 and b"Save" not in detail.content
    assert site.post(admin_url("attestation", "change", attestation.pk),
                     {"document_hash": "0x" + "00" * 32}).status_code == 403
    assert site.get(admin_url("attestation", "add")).status_code == 403
    assert site.get(admin_url("attestation", "delete", attestation.pk)).status_code == 403
    search = site.get(admin_url("attestation", "changelist"), {"q": attestation.document_hash})
    assert attestation.uid.encode() in search.content


def test_cursors_show_their_lag_and_last_error(site):
    cursor = IndexCursorFactory(head_block=120, next_block=101, last_error="RpcError: boom")
    page = site.get(admin_url("indexcursor", "changelist"))
    assert page.status_code == 200
    assert b"RpcError: boom" in page.content and b">20<" in page.content  # lag 120+1-101
    assert site.get(admin_url("indexcursor", "change", cursor.pk)).status_code == 200


def test_the_re_index_action_asks_for_a_block_and_marks_the_cursors(site):
    cursor = IndexCursorFactory(head_block=120, next_block=121)
    url = admin_url("indexcursor", "changelist")
    refused = site.post(url, {"action": "reindex_from_block", "_selected_action": [cursor.pk],
                              "from_block": ""}, follow=True)
    assert any("Give the block" in m for m in shown_messages(refused))
    assert IndexCursor.objects.get(pk=cursor.pk).reindex_from_block is None

    done = site.post(url, {"action": "reindex_from_block", "_selected_action": [cursor.pk],
                           "from_block": "42"}, follow=True)
    assert any("re-index from block 42" in m for m in shown_messages(done))
    assert IndexCursor.objects.get(pk=cursor.pk).reindex_from_block == 42


@pytest.mark.chain
def test_the_next_run_re_indexes_a_marked_cursor_once(eas_chain):
    from attestations import eas as eas_contracts

    node = eas_chain.node
    schema_uid = node.register_schema()
    eas_contracts.attest(node.w3, node.deployment.eas, schema_uid=schema_uid,
                         data=bytes(32), sender=node.sender)
    index_chain(eas_chain.chain)
    IndexCursor.objects.filter(deployment=eas_chain.eas).update(reindex_from_block=0)

    report = index_chain(eas_chain.chain)

    eas_report = report.deployments[1]
    assert eas_report.rolled_back_from == 0 and eas_report.attestations == 1
    assert IndexCursor.objects.get(deployment=eas_chain.eas).reindex_from_block is None
    assert Schema.objects.get().attestation_count == 1
    assert index_chain(eas_chain.chain).deployments[1].rolled_back_from is None

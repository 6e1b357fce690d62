"""ETag on item reads, If-None-Match (304), If-Match on writes (412), and Cache-Control.
The race of two writers holding one ETag: tests/test_if_match_race.py."""

import pytest
from django.utils import timezone

from bindings.models import Workflow
from registry.models import Category, Chain
from tests.conftest import assert_problem
from tests.factories import (
    AttestationFactory,
    CategoryFactory,
    ChainFactory,
    ExecutorFactory,
    SchemaFactory,
)

pytestmark = pytest.mark.django_db


def etag_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, response.content
    return response["ETag"]


def test_an_item_read_has_a_strong_etag_that_revalidates_with_a_304(admin):
    chain = ChainFactory()
    path = f"/v1/admin/chains/{chain.chain_id}"
    response = admin.get(path)
    etag = response["ETag"]

    assert etag.startswith('"') and etag.endswith('"')  # strong: no W/
    assert response["Cache-Control"] == "private, no-cache"
    assert admin.get(path)["ETag"] == etag  # the same representation, the same tag

    again = admin.get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    # A weak comparison, as RFC 9110 asks of If-None-Match; a list may name it anywhere.
    assert admin.get(path, HTTP_IF_NONE_MATCH=f'"other", W/{etag}').status_code == 304
    assert admin.get(path, HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_the_etag_changes_with_the_representation(admin):
    chain = ChainFactory()
    path = f"/v1/admin/chains/{chain.chain_id}"
    before = etag_of(admin, path)
    Chain.objects.filter(pk=chain.pk).update(name="Renamed")

    after = admin.get(path, HTTP_IF_NONE_MATCH=before)
    assert after.status_code == 200 and after.json()["name"] == "Renamed"
    assert after["ETag"] != before


def test_a_patch_with_the_current_etag_is_applied_and_answers_the_new_etag(admin):
    chain = ChainFactory()
    path = f"/v1/admin/chains/{chain.chain_id}"
    etag = etag_of(admin, path)

    response = admin.patch(path, {"name": "Mine"}, format="json", HTTP_IF_MATCH=etag)

    assert response.status_code == 200, response.content
    assert Chain.objects.get(pk=chain.pk).name == "Mine"
    assert response["ETag"] != etag
    assert response["ETag"] == etag_of(admin, path)  # what a read now says


def test_a_patch_with_a_stale_etag_is_a_412_problem_and_changes_nothing(admin):
    chain = ChainFactory(name="Original")
    path = f"/v1/admin/chains/{chain.chain_id}"
    stale = etag_of(admin, path)
    admin.patch(path, {"name": "First"}, format="json")  # another admin, no If-Match

    response = admin.patch(path, {"name": "Second"}, format="json", HTTP_IF_MATCH=stale)

    body = assert_problem(response, 412, "precondition_failed")
    assert "If-Match" in body["detail"]
    assert Chain.objects.get(pk=chain.pk).name == "First"


def test_without_if_match_a_write_goes_as_before(admin):
    chain = ChainFactory()
    path = f"/v1/admin/chains/{chain.chain_id}"
    assert admin.patch(path, {"name": "A"}, format="json").status_code == 200
    assert admin.patch(path, {"name": "B"}, format="json").status_code == 200
    assert Chain.objects.get(pk=chain.pk).name == "B"


def test_if_match_star_or_a_list_holding_the_current_tag_is_met(admin):
    chain = ChainFactory()
    path = f"/v1/admin/chains/{chain.chain_id}"
    assert admin.patch(path, {"name": "A"}, format="json", HTTP_IF_MATCH="*").status_code == 200
    etag = etag_of(admin, path)
    listed = f'"old", {etag}'
    assert admin.patch(path, {"name": "B"}, format="json", HTTP_IF_MATCH=listed).status_code == 200


def test_a_weak_or_malformed_if_match_never_matches(admin):
    chain = ChainFactory()
    path = f"/v1/admin/chains/{chain.chain_id}"
    etag = etag_of(admin, path)
    for header in (f"W/{etag}", etag.strip('"')):
        response = admin.patch(path, {"name": "X"}, format="json", HTTP_IF_MATCH=header)
        assert_problem(response, 412, "precondition_failed")


def test_a_delete_honours_if_match(admin):
    category = CategoryFactory()
    path = f"/v1/admin/categories/{category.slug}"
    etag = etag_of(admin, path)
    Category.objects.filter(pk=category.pk).update(name="Changed meanwhile")

    assert_problem(admin.delete(path, HTTP_IF_MATCH=etag), 412, "precondition_failed")
    assert Category.objects.filter(pk=category.pk).exists()

    assert admin.delete(path, HTTP_IF_MATCH=etag_of(admin, path)).status_code == 204
    assert not Category.objects.filter(pk=category.pk).exists()


@pytest.mark.parametrize("path", ["/v1/admin/chains/999999", "/v1/admin/executors/null,null",
                                  "/v1/admin/contract-versions/x"])
def test_an_if_match_on_an_unknown_or_malformed_item_is_a_404(admin, path):
    response = admin.patch(path, {"name": "X"}, format="json", HTTP_IF_MATCH='"abc"')
    assert_problem(response, 404)


def test_an_action_on_an_item_takes_the_items_etag_in_if_match(admin):
    chain = ChainFactory()
    path = f"/v1/admin/chains/{chain.chain_id}"
    stale = etag_of(admin, path)
    Chain.objects.filter(pk=chain.pk).update(confirmations=99)

    refused = admin.patch(f"{path}/status", {"status": "inactive"}, format="json",
                          HTTP_IF_MATCH=stale)
    assert_problem(refused, 412, "precondition_failed")
    assert Chain.objects.get(pk=chain.pk).status == "active"

    done = admin.patch(f"{path}/status", {"status": "inactive"}, format="json",
                       HTTP_IF_MATCH=etag_of(admin, path))
    assert done.status_code == 200 and Chain.objects.get(pk=chain.pk).status == "inactive"


def test_an_executors_trust_is_changed_only_from_its_current_etag(admin):
    executor = ExecutorFactory()
    path = f"/v1/admin/executors/{executor.pk}"
    etag = etag_of(admin, path)
    revoked = admin.patch(path, {"trusted": False}, format="json", HTTP_IF_MATCH=etag)
    assert revoked.status_code == 200
    assert revoked["ETag"] == etag_of(admin, path)  # the answer's tag is the record's

    refused = admin.patch(path, {"trusted": True}, format="json", HTTP_IF_MATCH=etag)
    assert_problem(refused, 412, "precondition_failed")
    assert_problem(admin.post(f"{path}/deregister", HTTP_IF_MATCH=etag), 412)


def test_an_rpc_endpoints_etag_covers_what_the_probes_measured(admin):
    from tests.factories import RpcEndpointFactory

    rpc = RpcEndpointFactory()
    path = f"/v1/admin/rpc/{rpc.pk}"
    etag = etag_of(admin, path)
    type(rpc).objects.filter(pk=rpc.pk).update(latency_ms=12.5, last_checked_at=timezone.now())

    # The representation changed (a probe ran): the read is stale, the write is refused.
    response = admin.patch(path, {"priority": 3}, format="json", HTTP_IF_MATCH=etag)
    assert_problem(response, 412, "precondition_failed")
    response = admin.patch(path, {"priority": 3}, format="json", HTTP_IF_MATCH=etag_of(admin, path))
    assert response.status_code == 200, response.content
    assert response["ETag"] == etag_of(admin, path)


def test_lists_carry_no_etag_and_keyed_answers_are_not_stored(admin):
    ChainFactory()
    response = admin.get("/v1/admin/chains")
    assert "ETag" not in response
    assert response["Cache-Control"] == "private, no-store"
    response = admin.post("/v1/admin/categories", {"slug": "s", "name": "S"}, format="json")
    assert response["Cache-Control"] == "private, no-store"


def test_an_error_is_not_stored_and_an_answer_without_a_key_has_no_cache_policy(admin, anon):
    assert admin.get("/v1/admin/chains/999999")["Cache-Control"] == "private, no-store"
    assert "Cache-Control" not in anon.get("/chains")


def test_chains_and_schemas_may_be_kept_a_minute(api):
    chain = ChainFactory()
    schema = SchemaFactory(chain=chain, deployment__chain=chain)
    for path in ("/chains", f"/chains/{chain.chain_id}", "/schemas", f"/schemas/{schema.uid}"):
        response = api.get(path)
        assert response.status_code == 200, (path, response.content)
        assert response["Cache-Control"] == "private, max-age=60", path
    # Their item reads revalidate after the minute, with the ETag.
    etag = api.get(f"/chains/{chain.chain_id}")["ETag"]
    not_modified = api.get(f"/chains/{chain.chain_id}", HTTP_IF_NONE_MATCH=etag)
    assert not_modified.status_code == 304
    assert not_modified["Cache-Control"] == "private, max-age=60"


def test_attestation_and_workflow_reads_have_an_etag_and_are_revalidated(api, api_key):
    attestation = AttestationFactory()
    response = api.get(f"/attestations/{attestation.uid}")
    assert response.status_code == 200, response.content
    assert response["ETag"] and response["Cache-Control"] == "private, no-cache"
    assert api.get("/attestations")["Cache-Control"] == "private, no-store"

    chain = ChainFactory()
    workflow = Workflow.objects.create(
        chain=chain, document_hash="0x" + "d0" * 32, schema_uid="0x" + "5c" * 32,
        created_by=api_key.partition(".")[0], deadline=timezone.now())
    path = f"/workflows/{workflow.pk}"
    etag = etag_of(api, path)
    assert api.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304

"""document.verified and document.revoked end to end: the real EAS contracts on anvil, read
by the project's indexer; the events are written in the indexer's own transactions, so a
revocation is delivered after the one indexing cycle that reads it."""

import pytest

from tests.conftest import make_key
from tests.verification.test_verify_e2e import HASH, Site, make_site
from tests.webhooks.conftest import client_for, deliver_all, subscribe
from webhooks.models import Event

pytestmark = [pytest.mark.chain, pytest.mark.django_db]
DOCUMENT_EVENTS = ["document.verified", "document.revoked"]


@pytest.fixture
def site(eas_chain, executor_client) -> Site:
    return make_site(eas_chain.node, eas_chain.chain, executor_client)


def test_a_watched_document_is_verified_once_final_then_revoked_within_one_indexing_cycle(
        api, receiver, site):
    assert api.post("/v1/watches", {"documentHash": HASH}, format="json").status_code == 201
    _, secret = subscribe(api, receiver.url, DOCUMENT_EVENTS)
    not_watching = client_for(make_key("api"))
    subscribe(not_watching, receiver.url, DOCUMENT_EVENTS)

    bound = site.attest()
    site.index()  # 1 confirmation of the chain's 2: not verified yet
    assert not Event.objects.exists()
    site.mine(1)
    site.index()
    site.revoke(bound)
    site.index()  # the one indexing cycle that reads the revocation

    assert deliver_all() == 2
    verified, revoked = [r.verified(secret) for r in receiver.received]
    assert verified["type"] == "document.verified"
    assert verified["data"]["documentHash"] == HASH
    assert verified["data"]["attestationUid"] == bound.uid
    assert verified["data"]["chainId"] == 31337
    assert verified["data"]["txHash"] == bound.tx_hash
    assert verified["data"]["confirmations"] == 2
    assert revoked["type"] == "document.revoked"
    assert revoked["data"]["attestationUid"] == bound.uid
    assert revoked["data"]["documentHash"] == HASH
    assert revoked["data"]["revokedAt"].endswith("Z")


def test_the_documents_a_key_bound_are_its_own_to_hear_about(api, api_key, receiver, site):
    # A workflow of this key bound the hash: no watch needed.
    from bindings.models import Workflow

    Workflow.objects.create(chain=site.chain, document_hash=HASH, schema_uid=site.schema_uid,
                            deadline="2999-01-01T00:00:00Z",
                            created_by=api_key.split(".")[0])
    _, secret = subscribe(api, receiver.url, ["document.revoked"])
    bound = site.attest()
    site.settle()
    site.revoke(bound)
    site.index()

    deliver_all()
    (revoked,) = [r.verified(secret) for r in receiver.received]
    assert revoked["data"]["attestationUid"] == bound.uid

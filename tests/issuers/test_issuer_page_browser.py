"""The public verification page in Chromium says who issued a document and how well that is
proven: proven (by a real DNS server's TXT record), lapsed (the record removed, checked
again), unproven (the domain names another address), and an impersonation attempt (an
executor named like a proven issuer)."""

import pytest

from executors.models import Executor
from tests.browser import chromium
from tests.verification.conftest import EXECUTOR, attest_by_the_executor, indexed_chain

pytestmark = pytest.mark.django_db(transaction=True)
HASH = "0x" + "d2" * 32
STRANGER = "0x" + "aa" * 20


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 820, "height": 900})
    yield context.new_page()
    context.close()


@pytest.fixture
def attested():
    chain = indexed_chain(chain_id=31337, short_name="anvil", name="Anvil Local",
                          confirmations=12)
    attest_by_the_executor(chain, document_hash=HASH, block_number=950)
    return chain


def issuer(admin, identity, txt_address: str | None, address: str = EXECUTOR) -> dict:
    if txt_address:
        identity.txt("example.edu", f"openatts net=ethereum netId=31337 addr={txt_address}")
    created = admin.post("/v1/admin/issuers", {
        "name": "Example University", "domain": "example.edu",
        "addresses": [{"chainId": 31337, "address": address}]}, format="json").json()
    return admin.post(f"/v1/admin/issuers/{created['id']}/check").json()


def open_verdict(page, live_server):
    page.goto(f"{live_server.url}/verify/{HASH}")
    assert page.inner_text("#verdict-title") == "Verified"


def test_a_proven_issuer_is_named_with_its_proof(page, live_server, attested, admin, identity):
    assert issuer(admin, identity, EXECUTOR)["identity"] == "proven"
    open_verdict(page, live_server)
    assert page.inner_text("#issuer") == (
        "Example University (example.edu) — identity proven by DNS, checked just now")
    assert page.locator("#issuer-name").evaluate("e => e.tagName") == "STRONG"
    assert page.locator("#issuer-warning").count() == 0


def test_a_lapsed_issuer_is_named_with_a_warning(page, live_server, attested, admin, identity):
    proven = issuer(admin, identity, EXECUTOR)
    identity.txt("example.edu")  # the record is removed
    assert admin.post(f"/v1/admin/issuers/{proven['id']}/check").json()["identity"] == "lapsed"
    open_verdict(page, live_server)
    assert page.inner_text("#issuer") == (
        "Example University (example.edu) — identity no longer proven")
    warning = page.locator("#issuer-warning")
    assert warning.get_attribute("role") == "alert"
    assert "example.edu stopped naming this attester" in warning.inner_text()


def test_an_unproven_issuer_is_named_with_a_warning(page, live_server, attested, admin,
                                                    identity):
    assert issuer(admin, identity, STRANGER)["identity"] == "unproven"
    open_verdict(page, live_server)
    assert page.inner_text("#issuer") == (
        "Example University (example.edu) — identity not proven")
    assert "Do not rely on the name Example University" in page.inner_text("#issuer-warning")


def test_an_executor_named_like_a_proven_issuer_is_not_taken_for_it(page, live_server, attested,
                                                                   admin, identity):
    # The real Example University is proven for another address; the executor that attested
    # calls itself by that name.
    assert issuer(admin, identity, STRANGER, address=STRANGER)["identity"] == "proven"
    Executor.objects.filter(address=EXECUTOR).update(name="Example University")
    open_verdict(page, live_server)
    assert page.inner_text("#issuer") == "not identified"
    assert "No organisation has proven" in page.inner_text("#issuer-warning")
    assert "Example University" not in page.inner_text("body")
    assert page.inner_text("#attester") == EXECUTOR

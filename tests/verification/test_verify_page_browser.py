"""The public verification page in a real browser: Debian's Chromium driven by Playwright
(no browser of Playwright's own), against a live server over a real anvil chain whose EAS
attestations the project's indexer has read. Files are hashed by the page's script (Web
Crypto SHA-256, @noble/hashes keccak-256) and never sent. The verdicts are saved as
screenshots: under docs/screenshots/ (linked from the README) with VERIFY_SCREENSHOTS=1,
else in a temporary folder, so that a test run leaves the checkout as it was."""

import hashlib
import os
from pathlib import Path

import pytest
from eth_utils import keccak

from tests.browser import chromium
from tests.conftest import missing
from tests.verification.test_verify_e2e import Site, make_site

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
NOBLE = ROOT / "verification" / "static" / "verification" / "vendor" / "noble-hashes" / "sha3.js"
EXPLORER = "https://explorer.example"


@pytest.fixture(scope="module")
def browser():
    if not NOBLE.exists():
        missing("@noble/hashes is not installed", "run scripts/web_assets.sh (needs npm)")
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser):
    """A page that fails its test when the page's Content-Security-Policy blocked anything
    of its own (the policy allows the page's own files only: nothing of it may need more)."""
    context = browser.new_context(viewport={"width": 820, "height": 900})
    page = context.new_page()
    blocked = []
    page.on("console", lambda message: blocked.append(message.text)
            if "Content Security Policy" in message.text else None)
    yield page
    context.close()
    assert blocked == []


@pytest.fixture
def site(eas_chain, executor_key) -> Site:
    """Chain 31337 with an explorer, and an executor registered as "executor-1"."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_X_API_KEY=executor_key)
    eas_chain.chain.name, eas_chain.chain.explorer_url = "Anvil Local", EXPLORER
    eas_chain.chain.save()
    return make_site(eas_chain.node, eas_chain.chain, client)


def a_file(tmp_path, text: str) -> Path:
    path = tmp_path / "diploma.pdf"
    path.write_bytes(f"%PDF-1.4 a diploma for {text}\n".encode())
    return path


def sha256_of(path: Path) -> str:
    return "0x" + hashlib.sha256(path.read_bytes()).hexdigest()


def pick(page, live_server, path: Path):
    """Open /verify, pick `path` with the file input, and wait for the verdict's page."""
    page.goto(f"{live_server.url}/verify")
    page.set_input_files("#file", str(path))
    page.wait_for_url("**/verify/0x*", timeout=20_000)


def screenshot(page, name: str, tmp_path: Path):
    folder = SCREENSHOTS if os.environ.get("VERIFY_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name), full_page=True)


def test_an_attested_file_verifies_with_its_attester_and_explorer_link(page, live_server, site,
                                                                     tmp_path):
    path = a_file(tmp_path, "Ada Lovelace")
    bound = site.attest(document_hash=sha256_of(path))
    site.settle()
    pick(page, live_server, path)
    assert page.url == f"{live_server.url}/verify/{sha256_of(path)}"
    assert page.inner_text("#verdict-title") == "Verified"
    assert page.inner_text("#attester") == site.node.sender.lower()  # not its own name
    assert page.inner_text("#chain") == "Anvil Local (id 31337)"
    assert page.get_attribute("#tx-link", "href") == f"{EXPLORER}/tx/{bound.tx_hash}"
    assert page.get_attribute("#verdict", "aria-live") == "polite"
    screenshot(page, "verify-verified.png", tmp_path)


def test_a_file_attested_with_its_keccak_256_verifies(page, live_server, site, tmp_path):
    path = a_file(tmp_path, "Grace Hopper")
    keccak_hash = "0x" + keccak(path.read_bytes()).hex()
    site.attest(document_hash=keccak_hash)
    site.settle()
    pick(page, live_server, path)
    assert page.url == f"{live_server.url}/verify/{keccak_hash}"
    assert page.inner_text("#verdict-title") == "Verified"


def test_an_unknown_file_is_not_verified(page, live_server, site, tmp_path):
    path = a_file(tmp_path, "nobody")
    pick(page, live_server, path)
    assert page.url == f"{live_server.url}/verify/{sha256_of(path)}"  # the default's
    assert page.inner_text("#verdict-title") == "Not verified"
    assert page.locator("#attester").count() == 0
    screenshot(page, "verify-unknown.png", tmp_path)


def test_a_revoked_file_is_not_verified(page, live_server, site, tmp_path):
    path = a_file(tmp_path, "Alan Turing")
    bound = site.attest(document_hash=sha256_of(path), revocable=True)
    site.settle()
    site.revoke(bound)
    site.settle()
    pick(page, live_server, path)
    assert page.inner_text("#verdict-title") == "Not verified"
    assert "(revoked)" in page.inner_text("#reason")
    # Which attestation, by whom and when, not only the reason (issue 37 item 7).
    assert page.inner_text("#revoked-attestation") == bound.uid
    assert page.inner_text("#attester") == site.node.sender.lower()
    assert page.inner_text("#revoked-at").endswith(" UTC")
    screenshot(page, "verify-revoked.png", tmp_path)


def test_the_shareable_url_renders_without_javascript(browser, live_server, site, tmp_path):
    path = a_file(tmp_path, "Emmy Noether")
    site.attest(document_hash=sha256_of(path))
    site.settle()
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/verify/{sha256_of(path)}")
        assert page.inner_text("#verdict-title") == "Verified"
        assert page.inner_text("#attester") == site.node.sender.lower()
        assert not page.is_visible("#file")  # the picker needs the script; pasting does not
    finally:
        context.close()


def test_keyboard_only_tab_to_the_hash_field_type_and_enter(page, live_server, site, tmp_path):
    path = a_file(tmp_path, "Katherine Johnson")
    site.attest(document_hash=sha256_of(path))
    site.settle()
    page.goto(f"{live_server.url}/verify")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "hash":
            break
    assert page.evaluate("document.activeElement.id") == "hash"
    page.keyboard.type(sha256_of(path).upper().replace("0X", "0x"))
    page.keyboard.press("Enter")
    page.wait_for_url("**/verify/0x*")
    assert page.url == f"{live_server.url}/verify/{sha256_of(path)}"
    assert page.inner_text("#verdict-title") == "Verified"
    # The evidence opens from the keyboard too: Tab to its summary, Enter.
    assert not page.is_visible("#get-attestation-call")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "SUMMARY":
            break
    page.keyboard.press("Enter")
    assert page.is_visible("#get-attestation-call")
    assert site.node.deployment.eas.lower() in page.inner_text("#get-attestation-call")


def test_a_dropped_file_is_checked_too(page, live_server, site):
    text = "a contract, dropped"
    document_hash = "0x" + hashlib.sha256(text.encode()).hexdigest()
    site.attest(document_hash=document_hash)
    site.settle()
    page.goto(f"{live_server.url}/verify")
    dropped = page.evaluate_handle("""(text) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], "contract.txt", {type: "text/plain"}));
        return transfer;
    }""", text)
    page.dispatch_event("#drop", "drop", {"dataTransfer": dropped})
    page.wait_for_url("**/verify/0x*", timeout=20_000)
    assert page.url == f"{live_server.url}/verify/{document_hash}"
    assert page.inner_text("#verdict-title") == "Verified"


def test_on_a_phone_nothing_is_wider_than_the_screen(browser, live_server, site, tmp_path):
    path = a_file(tmp_path, "Hedy Lamarr")
    site.attest(document_hash=sha256_of(path))
    site.settle()
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    try:
        page = context.new_page()
        for url in ("/verify", f"/verify/{sha256_of(path)}"):
            page.goto(live_server.url + url)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, url
        screenshot(page, "verify-verified-phone.png", tmp_path)
    finally:
        context.close()


def test_a_document_of_a_merkle_batch_shows_its_root_and_proof_to_check(page, live_server):
    # Bound by the root of a batch of five (as the workflow tracking leaves it): the person
    # sees the verdict and that it was one of a batch; the evidence, opened, gives the root
    # the attestation holds and the proof, sibling by sibling, in order.
    from tests.verification.conftest import bind_in_merkle_batch, indexed_chain

    chain = indexed_chain(chain_id=31337, short_name="anvil", confirmations=12)
    documents = ["0x" + hashlib.sha256(f"invoice {n}".encode()).hexdigest() for n in range(5)]
    root, tree = bind_in_merkle_batch(chain, documents)
    page.goto(f"{live_server.url}/verify/{documents[3]}")
    assert page.inner_text("#verdict-title") == "Verified"
    assert "bound by one Merkle root" in page.inner_text("#merkle")
    assert not page.is_visible("#merkle-root")  # in the evidence, closed at first
    page.click("#evidence summary")
    assert page.inner_text("#merkle-root") == tree.root
    siblings = page.locator("#merkle-proof li").all_inner_texts()
    assert siblings == tree.proof(documents[3]) and len(siblings) >= 2
    # The eth_call asks EAS for the root's attestation (getAttestation(uid)).
    assert root.uid[2:] in page.inner_text("#get-attestation-call")


def test_the_page_runs_nothing_but_its_own_files(browser, live_server, site):
    context = browser.new_context()  # not the `page` fixture: these violations are provoked
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/verify")
        assert page.is_visible("#file")  # its own module script ran (it shows the picker)
        seen = page.evaluate("""() => new Promise((resolve) => {
            const seen = [];
            document.addEventListener("securitypolicyviolation",
                                      (e) => seen.push(e.effectiveDirective));
            const inline = document.createElement("script");
            inline.textContent = "window.injected = true";
            document.body.append(inline);
            const foreign = document.createElement("img");
            foreign.src = "https://tracker.example/pixel.png";
            document.body.append(foreign);
            setTimeout(() => resolve({seen, injected: window.injected === true}), 500);
        })""")
    finally:
        context.close()
    assert seen["injected"] is False
    assert set(seen["seen"]) == {"script-src-elem", "img-src"}

"""The issuer pages in a real browser (Debian's Chromium through Playwright), against a live
server over a real anvil chain with the real EAS contracts, the reference executor and the
indexer and tracking of the service: a registrar logs in, drops 1,000 generated files,
follows the run to confirmed, takes the receipt (checked by a separate process through
POST /v1/verify and the Merkle proofs), a slip and a QR code (read back by zbar). Also:
keyboard only, a 360 px screen, 10,000 files without freezing the tab, per-file errors.
Screenshots go to docs/screenshots/ with ISSUE_SCREENSHOTS=1 (the README's flow), else to
a temporary folder."""

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connection

from bindings.models import Workflow
from eas_primitives.merkle import ROOT_SCHEMA
from tests.bindings.test_binding_e2e import index, settle
from tests.bindings.test_binding_modes_e2e import batch_executor, set_mode
from tests.conftest import make_key
from tests.issuance.conftest import PASSWORD, issuer_user
from tests.issuance.test_receipts_and_slips import decoded_qr
from tests.verification.test_verify_page_browser import browser  # noqa: F401
from tests.verification.test_verify_yourself import script  # noqa: F401

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
FILES = int(os.environ.get("ISSUE_TEST_FILES", "1000"))


def screenshot(page, name: str, tmp_path: Path, **options):
    folder = SCREENSHOTS if os.environ.get("ISSUE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name), **options)


def diplomas(folder: Path, count: int, *, size: int = 2048) -> list[Path]:
    """`count` distinct generated files (a diploma each, padded to `size` bytes)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(count):
        text = f"%PDF-1.4 Diploma {n:05d}: Example University awards a degree\n".encode()
        path = folder / f"diploma-{n:05d}.pdf"
        path.write_bytes(text + b"%" * max(0, size - len(text)))
        paths.append(path)
    return paths


@pytest.fixture
def merkle_chain(eas_chain):
    """The anvil chain binding in mode `merkle`, its document and root schemas indexed."""
    eas_chain.node.register_schema()
    eas_chain.node.register_schema(ROOT_SCHEMA)
    index(eas_chain)
    eas_chain.chain.name = "Anvil Local"
    eas_chain.chain.save()
    set_mode("merkle")
    return eas_chain


@pytest.fixture
def registrar_key(db):
    from registry.models import ApiKey

    return ApiKey.issue(name="Registrar of Example University", scope="api")[0]


@pytest.fixture
def page(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1000, "height": 900}, accept_downloads=True)
    yield context.new_page()
    context.close()


def log_in(page, live_server, registrar_key):
    issuer_user("registrar", registrar_key)
    page.goto(f"{live_server.url}/issue")
    assert "/issue/login" in page.url
    page.fill("#id_username", "registrar")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/issue")


class Binder(threading.Thread):
    """The world beside the service: the reference executor binding what is queued, blocks
    mined, the indexer and the tracking run, over and over until stopped."""

    def __init__(self, live_server, chain):
        super().__init__(daemon=True)
        self.lines: list[str] = []
        self.live_server, self.chain, self.key = live_server, chain, make_key("executor")
        self.stopping = threading.Event()
        self.error: BaseException | None = None

    def run(self):
        try:
            while not self.stopping.is_set():
                # A run(once=True) ends its executor: one for each pass (the same address).
                batch_executor(self.live_server, self.chain, 250, self.lines,
                               api_key=self.key).run(once=True)
                self.lines.append(repr(settle(self.chain).as_dict()))
                time.sleep(0.3)
        except BaseException as exc:  # shown by the test
            self.error = exc
        finally:
            connection.close()

    def stop(self):
        self.stopping.set()
        self.join(timeout=60)
        assert self.error is None, repr(self.error)


def test_a_registrar_binds_1000_files_and_takes_away_receipts_slips_and_qr_codes(
        browser, page, live_server, merkle_chain, registrar_key, tmp_path, script):  # noqa: F811
    log_in(page, live_server, registrar_key)
    paths = diplomas(tmp_path / "diplomas", FILES)
    copy = tmp_path / "copy-of-diploma-00007.pdf"
    copy.write_bytes(paths[7].read_bytes())
    page.set_input_files("#files", [str(p) for p in [*paths, copy]])
    page.wait_for_function("!document.getElementById('bind').disabled", timeout=120_000)
    status = page.inner_text("#hash-status")
    assert f"Hashed {FILES + 1} files" in status and f"{FILES} to bind, 1 left out" in status
    assert "the same contents as diploma-00007.pdf" in page.inner_text("#problems")
    screenshot(page, "issue-drop.png", tmp_path, full_page=True)

    binder = Binder(live_server, merkle_chain)
    binder.start()
    try:
        page.click("#bind")
        page.wait_for_url("**/issue/runs/*", timeout=120_000)
        page.wait_for_function(
            "document.getElementById('run-status').textContent.startsWith("
            f"'{FILES} of {FILES} confirmed')", timeout=300_000)
    finally:
        binder.stop()
        print("\n".join(binder.lines[-30:]))
    assert Workflow.objects.filter(state="confirmed").count() == FILES
    assert "copy-of-diploma-00007.pdf" in page.inner_text("#skipped")
    page.reload()
    assert page.inner_text("#count-confirmed") == str(FILES)
    screenshot(page, "issue-run.png", tmp_path)

    with page.expect_download() as download:
        page.click("#receipt-json")
    receipt_path = tmp_path / "receipt.json"
    download.value.save_as(receipt_path)
    receipt = json.loads(receipt_path.read_text())
    assert len(receipt["documents"]) == FILES
    assert {e["state"] for e in receipt["documents"]} == {"confirmed"}
    assert all(e["merkleRoot"] and e["proof"] for e in receipt["documents"])
    # A separate process checks every line: POST /v1/verify, and each Merkle proof alone.
    checked = subprocess.run(
        [sys.executable, "-m", "tests.issuance.check_receipt", live_server.url,
         make_key("api"), str(receipt_path)], cwd=ROOT, capture_output=True, text=True,
        timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{FILES} of {FILES} documents verify; {FILES} Merkle proofs checked" in checked.stdout
    # docs/verify-yourself.md's script checks a receipt's entry on the chain.
    entry = receipt["documents"][3]
    on_chain = subprocess.run(
        [sys.executable, str(script), merkle_chain.node.anvil.url, entry["documentHash"]],
        input=json.dumps(entry["verification"]), capture_output=True, text=True, timeout=60)
    assert on_chain.returncode == 0, on_chain.stdout + on_chain.stderr
    assert "the proof leads to the Merkle root" in on_chain.stdout

    # A QR code, downloaded, names the document's public verdict; so does its slip.
    first = receipt["documents"][0]
    with page.expect_download() as download:
        page.locator("a.qr").first.click()
    assert decoded_qr(Path(download.value.path()).read_bytes(), tmp_path, browser) == (
        f"{live_server.url}/verify/{first['documentHash']}")
    page.locator("a.slip").first.click()
    page.wait_for_url("**/slip")
    assert page.inner_text("#slip-hash") == first["documentHash"]
    assert page.inner_text("#slip-issuer") == "Registrar of Example University"
    assert page.inner_text("#slip-chain") == "Anvil Local (chain id 31337)"
    assert page.get_attribute("#slip-url", "href") == first["verifyUrl"]
    screenshot(page, "issue-slip.png", tmp_path, full_page=True)
    # Printed, a slip is one page.
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1
    # The verdict the QR code leads to: verified.
    page.goto(first["verifyUrl"])
    assert page.inner_text("#verdict-title") == "Verified"


def test_keyboard_only_pick_files_bind_and_reach_the_run(page, live_server, merkle_chain,
                                                         registrar_key, tmp_path):
    # Playwright subscribes to file choosers without waiting for the browser's answer: the
    # subscription made here, before logging in, is in place by the time Space is pressed.
    page.on("filechooser", lambda chooser: None)
    log_in(page, live_server, registrar_key)
    paths = diplomas(tmp_path / "few", 3)
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "files":
            break
    assert page.evaluate("document.activeElement.id") == "files"
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Space")  # as a button: Space opens the file chooser
    chooser.value.set_files([str(p) for p in paths])
    page.wait_for_function("!document.getElementById('bind').disabled", timeout=60_000)
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "bind":
            break
    page.keyboard.press("Enter")
    page.wait_for_url("**/issue/runs/*", timeout=60_000)
    assert page.inner_text("#count-queued") == "3"


def test_on_a_phone_nothing_is_wider_than_the_screen(browser, live_server, merkle_chain,  # noqa: F811
                                                     registrar_key, tmp_path):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    try:
        page = context.new_page()
        log_in(page, live_server, registrar_key)
        page.set_input_files("#files", [str(p) for p in diplomas(tmp_path / "few", 2)])
        page.wait_for_function("!document.getElementById('bind').disabled", timeout=60_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.click("#bind")
        page.wait_for_url("**/issue/runs/*", timeout=60_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, "run"
        page.locator("a.slip").first.click()
        page.wait_for_url("**/slip")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, "slip"
    finally:
        context.close()


def test_10000_files_are_hashed_without_freezing_the_tab(page, live_server, merkle_chain,
                                                         registrar_key, tmp_path):
    log_in(page, live_server, registrar_key)
    paths = diplomas(tmp_path / "many", 10_000, size=512)
    # The stretches the page's thread was busy (50 ms or more), from the browser's own log.
    page.evaluate("""() => {
        window.tasks = [];
        document.getElementById("files").addEventListener("change", () => { window.changed = performance.now(); });
        new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) window.tasks.push([entry.startTime, entry.duration]);
        }).observe({ type: "longtask", buffered: false });
    }""")
    page.set_input_files("#files", [str(p) for p in paths])
    page.wait_for_function("!document.getElementById('bind').disabled", timeout=600_000)
    assert "Hashed 10000 files" in page.inner_text("#hash-status")
    assert "10000 to bind, 0 left out" in page.inner_text("#hash-status")
    # A frozen tab is seconds without a frame; a responsive one has no task near a second.
    # Playwright's setting of 10,000 paths on the input is one long task of the browser's
    # before the change event; from the page's script on (hashing, drawing), none is long.
    changed, tasks = page.evaluate("[window.changed, window.tasks]")
    ours = [duration for start, duration in tasks if start >= changed - 1]
    assert max(ours, default=0) < 1000, tasks


def test_an_unreadable_file_is_listed_and_the_others_go_on(page, live_server, merkle_chain,
                                                           registrar_key, tmp_path):
    log_in(page, live_server, registrar_key)
    paths = diplomas(tmp_path / "some", 2)
    gone = tmp_path / "some" / "removed-after-picking.pdf"
    gone.write_bytes(b"%PDF-1.4 " + b"x" * (40 << 20))  # read in slices: streaming
    page.set_input_files("#files", [str(p) for p in [*paths, gone]])
    gone.write_bytes(b"changed")  # the browser refuses to read a file changed since picked
    page.wait_for_function("!document.getElementById('bind').disabled", timeout=120_000)
    problems = page.inner_text("#problems")
    assert "removed-after-picking.pdf: unreadable" in problems
    assert "2 to bind, 1 left out" in page.inner_text("#hash-status")

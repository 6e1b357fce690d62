"""Receipts (JSON and CSV), QR codes (decoded by zbar's zbarimg, a separate program) and
printable slips (one page each, and a ZIP of them all) of a run."""

import csv
import io
import json
import shutil
import subprocess
import zipfile

import pytest

from bindings.models import Workflow
from tests.conftest import missing
from tests.issuance.conftest import a_hash, create_run, files, send

pytestmark = pytest.mark.django_db

HOST = "http://testserver"


def decoded_qr(svg: bytes, tmp_path, browser=None) -> str:
    """What zbar reads from the SVG drawn as a screen or printer draws it (by Debian's
    Chromium: `browser`, or one started here; zbar's ImageMagick reads no SVG here)."""
    zbarimg, chromium = shutil.which("zbarimg"), shutil.which("chromium")
    if zbarimg is None or chromium is None:
        missing("zbarimg or chromium is not installed", "run scripts/client_tools.sh as root")
    picture = tmp_path / "qr.png"
    if browser is None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            started = playwright.chromium.launch(executable_path=chromium,
                                                 args=["--no-sandbox", "--disable-gpu"])
            try:
                _draw(started, svg, picture)
            finally:
                started.close()
    else:
        _draw(browser, svg, picture)
    read = subprocess.run([zbarimg, "--quiet", "--raw", str(picture)], capture_output=True,
                          text=True, timeout=60)
    assert read.returncode == 0, read.stderr
    return read.stdout.strip()


def _draw(browser, svg: bytes, picture) -> None:
    page = browser.new_page()
    try:
        page.set_content(f'<body style="margin:0;background:#fff">{svg.decode()}</body>')
        page.locator("svg").screenshot(path=str(picture))
    finally:
        page.close()


@pytest.fixture
def run(browser_session, document_schema):
    made = create_run(browser_session)
    send(browser_session, made, files(3))
    return made


def test_the_json_receipt_names_each_document_its_binding_and_verdict(browser_session, run):
    response = browser_session.get(f"/issue/runs/{run['runId']}/receipt.json")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="receipt-{run["runId"]}.json"'
    receipt = json.loads(response.content)
    assert receipt["run"]["runId"] == run["runId"]
    assert receipt["run"]["issuer"] == "Registrar of Example University"
    assert [e["fileName"] for e in receipt["documents"]] == [f["name"] for f in files(3)]
    first = receipt["documents"][0]
    workflow = Workflow.objects.get(document_hash=a_hash(0))
    assert first["workflowId"] == str(workflow.pk) and first["state"] == "queued"
    assert first["verifyUrl"] == f"{HOST}/verify/{a_hash(0)}"
    assert first["chainId"] == 31337 and first["merkleRoot"] is None
    # What POST /v1/verify answers for it (not yet attested: not verified, not found).
    assert first["verification"]["verified"] is False
    assert first["verification"]["reason"] == "not_found"


def test_the_csv_receipt_has_a_line_per_document(browser_session, run):
    response = browser_session.get(f"/issue/runs/{run['runId']}/receipt.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["document_hash"] for r in rows] == [a_hash(n) for n in range(3)]
    assert {r["state"] for r in rows} == {"queued"} and {r["verified"] for r in rows} == {"no"}
    assert rows[2]["verify_url"] == f"{HOST}/verify/{a_hash(2)}"


def test_a_qr_code_names_the_documents_verification_url(browser_session, run, tmp_path):
    response = browser_session.get(f"/issue/runs/{run['runId']}/documents/{a_hash(1)}/qr.svg")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert decoded_qr(response.content, tmp_path) == f"{HOST}/verify/{a_hash(1)}"
    # A hash in capitals is the same document; a malformed one is no document.
    upper = "0x" + a_hash(1)[2:].upper()
    assert browser_session.get(
        f"/issue/runs/{run['runId']}/documents/{upper}/qr.svg").status_code == 200
    assert browser_session.get(
        f"/issue/runs/{run['runId']}/documents/0x12/qr.svg").status_code == 404


def test_a_slip_shows_the_qr_code_hash_issuer_chain_and_date(browser_session, run, tmp_path):
    page = browser_session.get(f"/issue/runs/{run['runId']}/documents/{a_hash(2)}/slip")
    text = page.content.decode()
    assert page.status_code == 200
    assert a_hash(2) in text and "Registrar of Example University" in text
    assert "(chain id 31337)" in text and "diplomas/00002.pdf" in text
    assert "@media print" in text  # its print stylesheet, inline
    svg = text[text.index("<svg"):text.index("</svg>") + 6]
    assert decoded_qr(svg.encode(), tmp_path) == f"{HOST}/verify/{a_hash(2)}"


def test_the_zip_holds_every_slip_of_the_run(browser_session, run):
    response = browser_session.get(f"/issue/runs/{run['runId']}/slips.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert archive.namelist() == ["00001-00000.pdf.html", "00002-00001.pdf.html",
                                  "00003-00002.pdf.html"]
    assert a_hash(1) in archive.read("00002-00001.pdf.html").decode()


def test_a_large_runs_slips_come_in_parts(browser_session, run, monkeypatch):
    monkeypatch.setattr("issuance.slips.SLIPS_PER_ZIP", 2)
    page = browser_session.get(f"/issue/runs/{run['runId']}").content.decode()
    assert "Verification slips 1 to 2" in page and "Verification slips 3 to 3" in page
    names = []
    for part in (1, 2):
        response = browser_session.get(f"/issue/runs/{run['runId']}/slips.zip?part={part}")
        assert response["Content-Disposition"].endswith(f'-part-{part}.zip"')
        names += zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))).namelist()
    assert names == ["00001-00000.pdf.html", "00002-00001.pdf.html", "00003-00002.pdf.html"]
    for part in ("3", "0", "x"):
        assert browser_session.get(
            f"/issue/runs/{run['runId']}/slips.zip?part={part}").status_code == 404


@pytest.mark.parametrize("identity, shown", [
    ("proven", "Example University (example.edu)</dd>"),
    ("lapsed", "Example University (example.edu), identity not proven</dd>"),
])
def test_a_slip_names_the_issuer_of_the_executor_that_bound_it(browser_session, run, identity,
                                                               shown):
    from issuers.models import Issuer, IssuerAddress
    from tests.factories import ExecutorFactory

    workflow = Workflow.objects.get(document_hash=a_hash(2))
    executor = ExecutorFactory(chain=workflow.chain, address="0x" + "e7" * 20)
    Workflow.objects.filter(pk=workflow.pk).update(executor=executor)
    issuer = Issuer.objects.create(name="Example University", domain="example.edu")
    IssuerAddress.objects.create(issuer=issuer, chain=workflow.chain, address=executor.address,
                                 identity=identity)
    text = browser_session.get(
        f"/issue/runs/{run['runId']}/documents/{a_hash(2)}/slip").content.decode()
    assert f'<dd id="slip-issuer">{shown}' in text

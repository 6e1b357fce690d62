"""QR codes and printable verification slips: one per document of a run, and a ZIP of them.

A QR code holds the absolute URL of the document's public verdict (`/verify/0x<hash>`),
encoded by segno (error correction M: a printed code still scans with a fold or a stain). A
slip is one HTML page, its stylesheet and QR code inline, so that a slip taken out of the
ZIP prints the same without the service.
"""

import io
import re
import zipfile

import segno
from django.template.loader import render_to_string

from issuance.models import Run, RunDocument
from issuance.receipts import run_documents, verify_url
from issuers.directory import issuer_of

SLIPS_PER_ZIP = 500


def qr_code(url: str) -> segno.QRCode:
    return segno.make(url, error="m")


def qr_svg(url: str, *, scale: int = 8) -> bytes:
    """A standalone SVG file of `url`'s QR code (with its quiet zone)."""
    out = io.BytesIO()
    qr_code(url).save(out, kind="svg", scale=scale, border=4, title=url)
    return out.getvalue()


def slip_html(request, run: Run, document: RunDocument) -> str:
    url = verify_url(request, document.document_hash)
    workflow = document.workflow
    return render_to_string("issuance/slip.html", {
        "run": run, "document": document, "url": url, "issuer": _issuer(workflow),
        "qr": qr_code(url).svg_inline(scale=5, border=4, title=url, omitsize=True),
        "bound_at": (workflow.confirmed_at if workflow and workflow.confirmed_at
                     else run.created_at),
    }, request=request)


def _issuer(workflow):
    """The issuer of the executor that bound the document (issuers/), or None (then the slip
    names the key's name, as the run page does)."""
    executor = workflow and workflow.executor
    return executor and issuer_of(executor.chain_id, executor.address)


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def slip_file_name(document: RunDocument) -> str:
    """`00042-diploma-ada.pdf.html`: its place in the drop, then its file name made safe."""
    base = _UNSAFE.sub("_", document.name.rsplit("/", 1)[-1])[:80] or "document"
    return f"{document.position + 1:05d}-{base}.html"


class _Pipe:
    """A write-only file the ZIP is written to, emptied after each slip: the archive is
    sent as it is made, never held whole."""

    def __init__(self):
        self.parts: list[bytes] = []

    def write(self, data) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        return data


def zip_parts(count: int) -> list[tuple[int, int, int]]:
    """(part, first, last) of a run of `count` documents: SLIPS_PER_ZIP slips a ZIP, so that
    making one stays well within a web worker's timeout (a QR code costs segno 5-20 ms)."""
    return [(n + 1, start + 1, min(start + SLIPS_PER_ZIP, count))
            for n, start in enumerate(range(0, count, SLIPS_PER_ZIP))]


def slips_zip(request, run: Run, part: int):
    """The ZIP of the slips of `run`'s part `part` (from 1), in drop order, made and sent a
    slip at a time."""
    start = (part - 1) * SLIPS_PER_ZIP
    documents = run_documents(run)[start:start + SLIPS_PER_ZIP]
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for document in documents.iterator(chunk_size=500):
            archive.writestr(slip_file_name(document), slip_html(request, run, document))
            yield pipe.take()
    yield pipe.take()

"""manage.py verify_document: a file hashed with each accepted algorithm (or a hash taken as
is), verified by the service the API uses, the answer printed; exit 0 verified, 1 not, 2 on a
usage error."""

import dataclasses
import io
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

import pytest
from django.core.management import execute_from_command_line
from django.db import connections
from rest_framework.test import APIClient

from core.document_hash import hash_file
from tests.verification.conftest import EXECUTOR, attest_by_the_executor, indexed_chain
from tests.verification.test_verify_e2e import make_site
from verification.services import Verification

pytestmark = pytest.mark.django_db

DIPLOMA = b"%PDF-1.7\nA diploma, awarded to someone.\n"


@dataclasses.dataclass
class Run:
    status: int
    out: str
    err: str


def run(*args) -> Run:
    """The command as a shell runs it (manage.py verify_document ...), with its exit status.
    (A shell's run closes the database connections at the end: not the test's.)"""
    out, err = io.StringIO(), io.StringIO()
    status = 0
    with redirect_stdout(out), redirect_stderr(err), mock.patch.object(connections, "close_all"):
        try:
            execute_from_command_line(["manage.py", "verify_document", *map(str, args)])
        except SystemExit as exc:
            status = exc.code
    return Run(status, out.getvalue(), err.getvalue())


@pytest.fixture
def diploma(tmp_path):
    path = tmp_path / "diploma.pdf"
    path.write_bytes(DIPLOMA)
    return path


def test_an_attested_file_verifies_and_both_algorithms_are_tried(diploma):
    chain = indexed_chain(chain_id=31337, name="Anvil", confirmations=2)
    attestation = attest_by_the_executor(chain, document_hash=hash_file(DIPLOMA))

    result = run(diploma)

    assert result.status == 0, result
    sha256, keccak256 = hash_file(DIPLOMA), hash_file(DIPLOMA, "keccak256")
    lines = result.out.splitlines()
    assert lines[0] == f"sha256 {sha256}: verified"
    assert f"  attestation   {attestation.uid}" in lines
    assert "  chain         31337 (Anvil)" in lines
    assert f"  attester      {EXECUTOR}" in lines
    assert f"  tx            {attestation.tx_hash}" in lines
    assert "  block         900" in lines
    assert "  confirmations 101" in lines
    assert f"  time          {attestation.time.isoformat()}" in lines
    # Each label apart from its value (issue 37 item 6: `timestamp_provenTrue`).
    assert "  offchain      no" in lines and "  time proven   yes" in lines
    printed = lines[1:lines.index(f"keccak256 {keccak256}: not verified")]
    assert [line for line in printed if line[:2] + line[15] != "   " or line[16] == " "] == []
    assert lines[-2:] == [f"keccak256 {keccak256}: not verified", "  reason        not_found"]


def test_a_file_attested_under_keccak256_verifies_too(diploma):
    chain = indexed_chain()
    attest_by_the_executor(chain, document_hash=hash_file(DIPLOMA, "keccak256"))

    result = run(diploma)

    assert result.status == 0, result
    assert result.out.splitlines()[0].endswith(": not verified")
    assert f"keccak256 {hash_file(DIPLOMA, 'keccak256')}: verified" in result.out


def test_an_unknown_file_exits_1_after_trying_each_algorithm(diploma):
    indexed_chain()

    result = run(diploma)

    assert result.status == 1
    assert result.out.splitlines() == [
        f"sha256 {hash_file(DIPLOMA)}: not verified", "  reason        not_found",
        f"keccak256 {hash_file(DIPLOMA, 'keccak256')}: not verified", "  reason        not_found",
    ]


def test_only_the_accepted_algorithms_are_tried_the_default_first(diploma, settings):
    settings.DOCUMENT_HASH_ALGORITHMS = ("keccak256",)
    assert run(diploma).out.splitlines() == [
        f"keccak256 {hash_file(DIPLOMA, 'keccak256')}: not verified", "  reason        not_found"]

    settings.DOCUMENT_HASH_ALGORITHMS = ("keccak256", "sha256")
    verdicts = [line for line in run(diploma).out.splitlines() if not line.startswith(" ")]
    assert [line.split()[0] for line in verdicts] == ["keccak256", "sha256"]


def test_algorithm_narrows_to_one_accepted_algorithm(diploma, settings):
    assert run(diploma, "--algorithm", "keccak256").out.splitlines() == [
        f"keccak256 {hash_file(DIPLOMA, 'keccak256')}: not verified", "  reason        not_found"]

    settings.DOCUMENT_HASH_ALGORITHMS = ("sha256",)
    refused = run(diploma, "--algorithm", "keccak256")
    assert refused.status == 2 and "keccak256 is not accepted here" in refused.err


def test_a_hash_is_taken_as_is_in_any_case():
    chain = indexed_chain()
    attestation = attest_by_the_executor(chain)

    result = run(attestation.document_hash.upper().replace("0X", "0x"))

    assert result.status == 0, result
    assert result.out.splitlines()[0] == f"{attestation.document_hash}: verified"


def test_chain_narrows_the_search_by_id_or_short_name():
    chain = indexed_chain(chain_id=31337, short_name="anvil")
    attestation = attest_by_the_executor(chain)

    assert run(attestation.document_hash, "--chain", "anvil").status == 0
    assert run(attestation.document_hash, "--chain", "31337").status == 0
    other = indexed_chain(chain_id=31338, short_name="other")
    assert run(attestation.document_hash, "--chain", other.chain_id).status == 1
    unknown = run(attestation.document_hash, "--chain", "nowhere")
    assert unknown.status == 2 and "No chain 'nowhere'" in unknown.err


@pytest.mark.parametrize("target", ["0x12", "0x" + "g" * 64, "0x" + "ab" * 33])
def test_a_malformed_hash_exits_2(target):
    result = run(target)
    assert result.status == 2
    assert "is not a document hash (0x + 64 hex digits) nor a file" in result.err


def test_a_missing_file_and_an_algorithm_with_a_hash_exit_2(tmp_path):
    assert run(tmp_path / "nothing.pdf").status == 2
    assert run("0x" + "ab" * 32, "--algorithm", "sha256").status == 2


def test_a_reason_and_other_fields_of_the_answer_are_printed(monkeypatch):
    @dataclasses.dataclass
    class WithMore(Verification):
        revocation_time: str | None = None  # a field the command has no label for

    monkeypatch.setattr("verification.management.commands.verify_document.verify_document",
                        lambda *args, **kwargs: WithMore(verified=False, reason="revoked",
                                                         revocation_time="2026-01-01"))

    result = run("0x" + "ab" * 32)

    assert result.status == 1
    assert result.out.splitlines() == ["0x" + "ab" * 32 + ": not verified",
                                       "  reason        revoked",
                                       "  revocation time 2026-01-01"]


# --- On a chain ------------------------------------------------------------------------------


@pytest.mark.chain
def test_a_file_attested_on_anvil_verifies_through_the_command(eas_chain, executor_key, diploma):
    executor = APIClient()
    executor.credentials(HTTP_X_API_KEY=executor_key)
    site = make_site(eas_chain.node, eas_chain.chain, executor)
    bound = site.attest(document_hash=hash_file(diploma))
    site.settle()

    result = run(diploma, "--live")

    assert result.status == 0, result
    lines = result.out.splitlines()
    assert lines[0] == f"sha256 {hash_file(diploma)}: verified"
    assert f"  attestation   {bound.uid}" in lines
    assert f"  attester      {site.node.sender}" in lines
    assert f"  tx            {bound.tx_hash}" in lines
    assert f"  block         {bound.block_number}" in lines
    # The evidence to re-check it on the chain (docs/verify-yourself.md).
    assert f"  block hash    {bound.block_hash}" in lines
    assert f"  log index     {bound.log_index}" in lines
    eas = site.node.deployment.eas.lower()
    assert f"  eas           {eas}" in lines
    assert f'  eth_call      {{"to": "{eas}", "data": "0xa3112a64{bound.uid[2:]}"}}' in lines
    assert lines[-2].startswith("keccak256 ") and lines[-2].endswith(": not verified")
    assert lines[-1] == "  reason        not_found"
    assert run(diploma).status == 0  # from the index alone too

"""The document hash (core/document_hash.py): the hash of the file's bytes, SHA-256 by
default, keccak-256 also accepted, read in chunks; the setting that says which."""

import hashlib

import pytest
from eth_utils import keccak

from core import document_hash
from core.document_hash import hash_file, parse_algorithms

CONTENT = b"%PDF-1.7 a diploma\n" * 1000


def test_a_file_and_its_bytes_hash_alike_with_either_algorithm(tmp_path, monkeypatch):
    monkeypatch.setattr(document_hash, "CHUNK_BYTES", 7)  # many chunks, one odd tail
    path = tmp_path / "diploma.pdf"
    path.write_bytes(CONTENT)

    assert hash_file(path) == hash_file(CONTENT) == "0x" + hashlib.sha256(CONTENT).hexdigest()
    assert hash_file(str(path), "keccak256") == hash_file(CONTENT, "keccak256") \
        == "0x" + keccak(CONTENT).hex()


def test_keccak256_is_ethereums_not_nist_sha3():
    assert hash_file(b"", "keccak256") == (
        "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
    assert hash_file(b"", "keccak256") != "0x" + hashlib.sha3_256(b"").hexdigest()


def test_an_unknown_algorithm_is_refused():
    with pytest.raises(ValueError, match="unknown hash algorithm 'md5'"):
        hash_file(b"x", "md5")


@pytest.mark.parametrize(("raw", "parsed"), [
    ("sha256,keccak256", ("sha256", "keccak256")),
    ("keccak256", ("keccak256",)),
    (" KECCAK256 , sha256 ", ("keccak256", "sha256")),
])
def test_the_setting_lists_known_algorithms_the_default_first(raw, parsed):
    assert parse_algorithms(raw) == parsed


@pytest.mark.parametrize(("raw", "message"), [
    ("", "separated by commas"),
    ("sha256,", "separated by commas"),
    ("sha256,sha3_256", "unknown hash algorithm"),
    ("sha256,sha256", "twice"),
])
def test_a_bad_setting_is_refused(raw, message):
    with pytest.raises(ValueError, match=message):
        parse_algorithms(raw)

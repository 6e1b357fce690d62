"""The document hash: what a `documentHash` is (docs/api.md, "The document hash").

The hash of the file's bytes as they are, nothing added or normalised: SHA-256 by default,
keccak-256 (Ethereum's, as `eth_utils.keccak`; not NIST SHA3-256, whose padding differs) also
accepted. The setting DOCUMENT_HASH_ALGORITHMS says which of the two a deployment accepts,
the default first. Everything that hashes a document hashes it here.
"""

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from Crypto.Hash import keccak
from django.conf import settings

SHA256 = "sha256"
KECCAK256 = "keccak256"
ALGORITHMS = (SHA256, KECCAK256)
DEFAULT_ALGORITHMS = "sha256,keccak256"
# Files are read this much at a time: a large file is never held in memory whole.
CHUNK_BYTES = 1024 * 1024

HELP_TEXT = (
    "The document's hash, 0x + 64 hex digits: the hash of the file's bytes, SHA-256 by "
    "default, keccak-256 also accepted (`GET /chains` lists each chain's "
    "`documentHashAlgorithms`, the default first)."
)


def new_hasher(algorithm: str):
    """A fresh incremental hasher (`update(bytes)`, `hexdigest()`) for `algorithm`."""
    if algorithm == SHA256:
        return hashlib.sha256()
    if algorithm == KECCAK256:
        return keccak.new(digest_bits=256)
    raise ValueError(f"unknown hash algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")


def hash_stream(stream: BinaryIO, algorithms: Iterable[str]) -> dict[str, str]:
    """The stream's bytes hashed with each of `algorithms` in one reading: {name: "0x..."}."""
    hashers = {name: new_hasher(name) for name in algorithms}
    while chunk := stream.read(CHUNK_BYTES):
        for hasher in hashers.values():
            hasher.update(chunk)
    return {name: "0x" + hasher.hexdigest() for name, hasher in hashers.items()}


def hash_file(path_or_bytes: str | Path | bytes, algorithm: str = SHA256) -> str:
    """The document hash of a file (a path) or of bytes: "0x" + 64 lowercase hex digits."""
    if isinstance(path_or_bytes, bytes | bytearray | memoryview):
        hasher = new_hasher(algorithm)
        hasher.update(bytes(path_or_bytes))
        return "0x" + hasher.hexdigest()
    with open(path_or_bytes, "rb") as stream:
        return hash_stream(stream, [algorithm])[algorithm]


def parse_algorithms(raw: str) -> tuple[str, ...]:
    """The setting's value, `sha256,keccak256`: known names, each once, at least one; the
    first is the default. ValueError saying what is wrong otherwise."""
    names = tuple(name.strip().lower() for name in raw.split(","))
    if not names or any(not name for name in names):
        raise ValueError(f"must list hash algorithms separated by commas, not {raw!r}")
    unknown = [name for name in names if name not in ALGORITHMS]
    if unknown:
        raise ValueError(f"names unknown hash algorithm(s) {', '.join(unknown)}; "
                         f"known: {', '.join(ALGORITHMS)}")
    if len(set(names)) != len(names):
        raise ValueError(f"names an algorithm twice: {raw!r}")
    return names


def accepted_algorithms() -> tuple[str, ...]:
    """The algorithms this deployment accepts, the default first (DOCUMENT_HASH_ALGORITHMS)."""
    return tuple(settings.DOCUMENT_HASH_ALGORITHMS)

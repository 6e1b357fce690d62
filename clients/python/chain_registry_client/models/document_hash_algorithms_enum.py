from typing import Literal, cast

DocumentHashAlgorithmsEnum = Literal["keccak256", "sha256"]

DOCUMENT_HASH_ALGORITHMS_ENUM_VALUES: set[DocumentHashAlgorithmsEnum] = {
    "keccak256",
    "sha256",
}


def check_document_hash_algorithms_enum(value: str) -> DocumentHashAlgorithmsEnum:
    if value in DOCUMENT_HASH_ALGORITHMS_ENUM_VALUES:
        return cast(DocumentHashAlgorithmsEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DOCUMENT_HASH_ALGORITHMS_ENUM_VALUES!r}")

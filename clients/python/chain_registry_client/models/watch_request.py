from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WatchRequest")


@_attrs_define
class WatchRequest:
    """
    Attributes:
        document_hash (str): Send document.verified and document.revoked events about this document hash to this key's
            subscriptions. Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
    """

    document_hash: str

    def to_dict(self) -> dict[str, Any]:
        document_hash = self.document_hash

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documentHash": document_hash,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document_hash = d.pop("documentHash")

        watch_request = cls(
            document_hash=document_hash,
        )

        return watch_request

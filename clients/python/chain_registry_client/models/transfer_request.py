from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TransferRequest")


@_attrs_define
class TransferRequest:
    """
    Attributes:
        key (str): The prefix of the executor key that speaks for it from now on (crk_ and 12 hex digits).
    """

    key: str

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        transfer_request = cls(
            key=key,
        )

        return transfer_request

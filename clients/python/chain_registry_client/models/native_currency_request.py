from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="NativeCurrencyRequest")


@_attrs_define
class NativeCurrencyRequest:
    """
    Attributes:
        name (str):
        symbol (str):
        decimals (int):
    """

    name: str
    symbol: str
    decimals: int

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        symbol = self.symbol

        decimals = self.decimals

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "symbol": symbol,
                "decimals": decimals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        symbol = d.pop("symbol")

        decimals = d.pop("decimals")

        native_currency_request = cls(
            name=name,
            symbol=symbol,
            decimals=decimals,
        )

        return native_currency_request

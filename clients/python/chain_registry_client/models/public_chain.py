from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.binding_mode_enum import BindingModeEnum, check_binding_mode_enum
from ..models.chain_finality_enum import ChainFinalityEnum, check_chain_finality_enum
from ..models.document_hash_algorithms_enum import DocumentHashAlgorithmsEnum, check_document_hash_algorithms_enum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chain_head import ChainHead
    from ..models.executor_summary import ExecutorSummary
    from ..models.native_currency import NativeCurrency
    from ..models.public_deployment import PublicDeployment
    from ..models.rpc_summary import RpcSummary


T = TypeVar("T", bound="PublicChain")


@_attrs_define
class PublicChain:
    """A supported chain as API consumers see it (no RPC URLs: those are administrators').

    Attributes:
        chain_id (int):
        name (str):
        short_name (str):
        native_currency (NativeCurrency):
        confirmations (int): Blocks on top of a record before it counts as final.
        finality (ChainFinalityEnum): * `confirmations` - Confirmations
            * `safe` - Safe
            * `finalized` - Finalized
        stalled (bool): Whether the chain is stalled (`head.stalled`; false before a first run).
        head (ChainHead): What the indexer last saw of the chain (attestations/finality.py).
        deployments (list[PublicDeployment]):
        rpc (RpcSummary):
        executors (ExecutorSummary):
        document_hash_algorithms (list[DocumentHashAlgorithmsEnum]): What a `documentHash` on this chain may be the hash
            of the file's bytes with, the default first (the setting DOCUMENT_HASH_ALGORITHMS, service-wide).
        explorer_url (str | Unset):
        info_url (str | Unset):
        is_testnet (bool | Unset):
        offchain_unanchored (bool | Unset): Offchain attestations on this chain verify without an on-chain timestamp of
            their uid (default: only timestamped ones do; the signed time is the attester's claim).
        binding_mode (BindingModeEnum | Unset): * `single` - Single
            * `multi` - Multi
            * `merkle` - Merkle
    """

    chain_id: int
    name: str
    short_name: str
    native_currency: NativeCurrency
    confirmations: int
    finality: ChainFinalityEnum
    stalled: bool
    head: ChainHead
    deployments: list[PublicDeployment]
    rpc: RpcSummary
    executors: ExecutorSummary
    document_hash_algorithms: list[DocumentHashAlgorithmsEnum]
    explorer_url: str | Unset = UNSET
    info_url: str | Unset = UNSET
    is_testnet: bool | Unset = UNSET
    offchain_unanchored: bool | Unset = UNSET
    binding_mode: BindingModeEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        name = self.name

        short_name = self.short_name

        native_currency = self.native_currency.to_dict()

        confirmations = self.confirmations

        finality: str = self.finality

        stalled = self.stalled

        head = self.head.to_dict()

        deployments = []
        for deployments_item_data in self.deployments:
            deployments_item = deployments_item_data.to_dict()
            deployments.append(deployments_item)

        rpc = self.rpc.to_dict()

        executors = self.executors.to_dict()

        document_hash_algorithms = []
        for document_hash_algorithms_item_data in self.document_hash_algorithms:
            document_hash_algorithms_item: str = document_hash_algorithms_item_data
            document_hash_algorithms.append(document_hash_algorithms_item)

        explorer_url: str | Unset
        if isinstance(self.explorer_url, Unset):
            explorer_url = UNSET
        else:
            explorer_url = self.explorer_url

        info_url: str | Unset
        if isinstance(self.info_url, Unset):
            info_url = UNSET
        else:
            info_url = self.info_url

        is_testnet = self.is_testnet

        offchain_unanchored = self.offchain_unanchored

        binding_mode: str | Unset = UNSET
        if not isinstance(self.binding_mode, Unset):
            binding_mode = self.binding_mode

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chainId": chain_id,
                "name": name,
                "shortName": short_name,
                "nativeCurrency": native_currency,
                "confirmations": confirmations,
                "finality": finality,
                "stalled": stalled,
                "head": head,
                "deployments": deployments,
                "rpc": rpc,
                "executors": executors,
                "documentHashAlgorithms": document_hash_algorithms,
            }
        )
        if explorer_url is not UNSET:
            field_dict["explorerUrl"] = explorer_url
        if info_url is not UNSET:
            field_dict["infoUrl"] = info_url
        if is_testnet is not UNSET:
            field_dict["isTestnet"] = is_testnet
        if offchain_unanchored is not UNSET:
            field_dict["offchainUnanchored"] = offchain_unanchored
        if binding_mode is not UNSET:
            field_dict["bindingMode"] = binding_mode

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chain_head import ChainHead
        from ..models.executor_summary import ExecutorSummary
        from ..models.native_currency import NativeCurrency
        from ..models.public_deployment import PublicDeployment
        from ..models.rpc_summary import RpcSummary

        d = dict(src_dict)
        chain_id = d.pop("chainId")

        name = d.pop("name")

        short_name = d.pop("shortName")

        native_currency = NativeCurrency.from_dict(d.pop("nativeCurrency"))

        confirmations = d.pop("confirmations")

        finality = check_chain_finality_enum(d.pop("finality"))

        stalled = d.pop("stalled")

        head = ChainHead.from_dict(d.pop("head"))

        deployments = []
        _deployments = d.pop("deployments")
        for deployments_item_data in _deployments:
            deployments_item = PublicDeployment.from_dict(deployments_item_data)

            deployments.append(deployments_item)

        rpc = RpcSummary.from_dict(d.pop("rpc"))

        executors = ExecutorSummary.from_dict(d.pop("executors"))

        document_hash_algorithms = []
        _document_hash_algorithms = d.pop("documentHashAlgorithms")
        for document_hash_algorithms_item_data in _document_hash_algorithms:
            document_hash_algorithms_item = check_document_hash_algorithms_enum(document_hash_algorithms_item_data)

            document_hash_algorithms.append(document_hash_algorithms_item)

        def _parse_explorer_url(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        explorer_url = _parse_explorer_url(d.pop("explorerUrl", UNSET))

        def _parse_info_url(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        info_url = _parse_info_url(d.pop("infoUrl", UNSET))

        is_testnet = d.pop("isTestnet", UNSET)

        offchain_unanchored = d.pop("offchainUnanchored", UNSET)

        _binding_mode = d.pop("bindingMode", UNSET)
        binding_mode: BindingModeEnum | Unset
        if isinstance(_binding_mode, Unset):
            binding_mode = UNSET
        else:
            binding_mode = check_binding_mode_enum(_binding_mode)

        public_chain = cls(
            chain_id=chain_id,
            name=name,
            short_name=short_name,
            native_currency=native_currency,
            confirmations=confirmations,
            finality=finality,
            stalled=stalled,
            head=head,
            deployments=deployments,
            rpc=rpc,
            executors=executors,
            document_hash_algorithms=document_hash_algorithms,
            explorer_url=explorer_url,
            info_url=info_url,
            is_testnet=is_testnet,
            offchain_unanchored=offchain_unanchored,
            binding_mode=binding_mode,
        )

        public_chain.additional_properties = d
        return public_chain

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

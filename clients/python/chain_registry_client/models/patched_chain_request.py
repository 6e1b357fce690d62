from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.binding_mode_enum import BindingModeEnum, check_binding_mode_enum
from ..models.chain_finality_enum import ChainFinalityEnum, check_chain_finality_enum
from ..models.chain_status_enum import ChainStatusEnum, check_chain_status_enum
from ..models.executor_trust_enum import ExecutorTrustEnum, check_executor_trust_enum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.native_currency_request import NativeCurrencyRequest


T = TypeVar("T", bound="PatchedChainRequest")


@_attrs_define
class PatchedChainRequest:
    """
    Attributes:
        chain_id (int | Unset):
        name (str | Unset):
        short_name (str | Unset):
        native_currency (NativeCurrencyRequest | Unset):
        explorer_url (str | Unset):
        info_url (str | Unset): The chain's website (http or https URL).
        is_testnet (bool | Unset):
        status (ChainStatusEnum | Unset): * `active` - Active
            * `inactive` - Inactive
        confirmations (int | Unset): Blocks on top of a record before it counts as final.
        finality (ChainFinalityEnum | Unset): * `confirmations` - Confirmations
            * `safe` - Safe
            * `finalized` - Finalized
        stall_blocks (int | None | Unset): No new head for this many block times (or the finality block not advancing
            for as long past its usual lag): the chain is stalled. Empty: the service's default (CHAIN_STALL_BLOCKS).
        offchain_unanchored (bool | Unset): Offchain attestations on this chain verify without an on-chain timestamp of
            their uid (default: only timestamped ones do; the signed time is the attester's claim).
        binding_mode (BindingModeEnum | Unset): * `single` - Single
            * `multi` - Multi
            * `merkle` - Merkle
        max_fee_per_gas_cap (None | str | Unset): The most an executor offers per gas on this chain, in wei: above it,
            it holds (blocked_by_fees) until fees fall. null: no cap. Example: 1500000000000000000.
        replace_after_blocks (int | Unset): Blocks an executor waits for its transaction to be mined before it replaces
            it with higher fees.
        low_funds_batches (int | Unset): An executor whose balance pays for fewer batches than this at the current fees
            reports low_funds (0: never).
        executor_trust (ExecutorTrustEnum | Unset): * `approval` - Approval
            * `automatic` - Automatic
        untrusted_executor_jobs (bool | Unset): Executors not trusted here may claim binding jobs (their attestations
            verify only once they are trusted). Default: they hold a lease but take no jobs.
    """

    chain_id: int | Unset = UNSET
    name: str | Unset = UNSET
    short_name: str | Unset = UNSET
    native_currency: NativeCurrencyRequest | Unset = UNSET
    explorer_url: str | Unset = UNSET
    info_url: str | Unset = UNSET
    is_testnet: bool | Unset = UNSET
    status: ChainStatusEnum | Unset = UNSET
    confirmations: int | Unset = UNSET
    finality: ChainFinalityEnum | Unset = UNSET
    stall_blocks: int | None | Unset = UNSET
    offchain_unanchored: bool | Unset = UNSET
    binding_mode: BindingModeEnum | Unset = UNSET
    max_fee_per_gas_cap: None | str | Unset = UNSET
    replace_after_blocks: int | Unset = UNSET
    low_funds_batches: int | Unset = UNSET
    executor_trust: ExecutorTrustEnum | Unset = UNSET
    untrusted_executor_jobs: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        name = self.name

        short_name = self.short_name

        native_currency: dict[str, Any] | Unset = UNSET
        if not isinstance(self.native_currency, Unset):
            native_currency = self.native_currency.to_dict()

        explorer_url: str | Unset
        if isinstance(self.explorer_url, Unset):
            explorer_url = UNSET
        else:
            explorer_url = self.explorer_url

        info_url = self.info_url

        is_testnet = self.is_testnet

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status

        confirmations = self.confirmations

        finality: str | Unset = UNSET
        if not isinstance(self.finality, Unset):
            finality = self.finality

        stall_blocks: int | None | Unset
        if isinstance(self.stall_blocks, Unset):
            stall_blocks = UNSET
        else:
            stall_blocks = self.stall_blocks

        offchain_unanchored = self.offchain_unanchored

        binding_mode: str | Unset = UNSET
        if not isinstance(self.binding_mode, Unset):
            binding_mode = self.binding_mode

        max_fee_per_gas_cap: None | str | Unset
        if isinstance(self.max_fee_per_gas_cap, Unset):
            max_fee_per_gas_cap = UNSET
        else:
            max_fee_per_gas_cap = self.max_fee_per_gas_cap

        replace_after_blocks = self.replace_after_blocks

        low_funds_batches = self.low_funds_batches

        executor_trust: str | Unset = UNSET
        if not isinstance(self.executor_trust, Unset):
            executor_trust = self.executor_trust

        untrusted_executor_jobs = self.untrusted_executor_jobs

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if chain_id is not UNSET:
            field_dict["chainId"] = chain_id
        if name is not UNSET:
            field_dict["name"] = name
        if short_name is not UNSET:
            field_dict["shortName"] = short_name
        if native_currency is not UNSET:
            field_dict["nativeCurrency"] = native_currency
        if explorer_url is not UNSET:
            field_dict["explorerUrl"] = explorer_url
        if info_url is not UNSET:
            field_dict["infoUrl"] = info_url
        if is_testnet is not UNSET:
            field_dict["isTestnet"] = is_testnet
        if status is not UNSET:
            field_dict["status"] = status
        if confirmations is not UNSET:
            field_dict["confirmations"] = confirmations
        if finality is not UNSET:
            field_dict["finality"] = finality
        if stall_blocks is not UNSET:
            field_dict["stallBlocks"] = stall_blocks
        if offchain_unanchored is not UNSET:
            field_dict["offchainUnanchored"] = offchain_unanchored
        if binding_mode is not UNSET:
            field_dict["bindingMode"] = binding_mode
        if max_fee_per_gas_cap is not UNSET:
            field_dict["maxFeePerGasCap"] = max_fee_per_gas_cap
        if replace_after_blocks is not UNSET:
            field_dict["replaceAfterBlocks"] = replace_after_blocks
        if low_funds_batches is not UNSET:
            field_dict["lowFundsBatches"] = low_funds_batches
        if executor_trust is not UNSET:
            field_dict["executorTrust"] = executor_trust
        if untrusted_executor_jobs is not UNSET:
            field_dict["untrustedExecutorJobs"] = untrusted_executor_jobs

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.native_currency_request import NativeCurrencyRequest

        d = dict(src_dict)
        chain_id = d.pop("chainId", UNSET)

        name = d.pop("name", UNSET)

        short_name = d.pop("shortName", UNSET)

        _native_currency = d.pop("nativeCurrency", UNSET)
        native_currency: NativeCurrencyRequest | Unset
        if isinstance(_native_currency, Unset):
            native_currency = UNSET
        else:
            native_currency = NativeCurrencyRequest.from_dict(_native_currency)

        def _parse_explorer_url(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        explorer_url = _parse_explorer_url(d.pop("explorerUrl", UNSET))

        info_url = d.pop("infoUrl", UNSET)

        is_testnet = d.pop("isTestnet", UNSET)

        _status = d.pop("status", UNSET)
        status: ChainStatusEnum | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = check_chain_status_enum(_status)

        confirmations = d.pop("confirmations", UNSET)

        _finality = d.pop("finality", UNSET)
        finality: ChainFinalityEnum | Unset
        if isinstance(_finality, Unset):
            finality = UNSET
        else:
            finality = check_chain_finality_enum(_finality)

        def _parse_stall_blocks(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        stall_blocks = _parse_stall_blocks(d.pop("stallBlocks", UNSET))

        offchain_unanchored = d.pop("offchainUnanchored", UNSET)

        _binding_mode = d.pop("bindingMode", UNSET)
        binding_mode: BindingModeEnum | Unset
        if isinstance(_binding_mode, Unset):
            binding_mode = UNSET
        else:
            binding_mode = check_binding_mode_enum(_binding_mode)

        def _parse_max_fee_per_gas_cap(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        max_fee_per_gas_cap = _parse_max_fee_per_gas_cap(d.pop("maxFeePerGasCap", UNSET))

        replace_after_blocks = d.pop("replaceAfterBlocks", UNSET)

        low_funds_batches = d.pop("lowFundsBatches", UNSET)

        _executor_trust = d.pop("executorTrust", UNSET)
        executor_trust: ExecutorTrustEnum | Unset
        if isinstance(_executor_trust, Unset):
            executor_trust = UNSET
        else:
            executor_trust = check_executor_trust_enum(_executor_trust)

        untrusted_executor_jobs = d.pop("untrustedExecutorJobs", UNSET)

        patched_chain_request = cls(
            chain_id=chain_id,
            name=name,
            short_name=short_name,
            native_currency=native_currency,
            explorer_url=explorer_url,
            info_url=info_url,
            is_testnet=is_testnet,
            status=status,
            confirmations=confirmations,
            finality=finality,
            stall_blocks=stall_blocks,
            offchain_unanchored=offchain_unanchored,
            binding_mode=binding_mode,
            max_fee_per_gas_cap=max_fee_per_gas_cap,
            replace_after_blocks=replace_after_blocks,
            low_funds_batches=low_funds_batches,
            executor_trust=executor_trust,
            untrusted_executor_jobs=untrusted_executor_jobs,
        )

        return patched_chain_request

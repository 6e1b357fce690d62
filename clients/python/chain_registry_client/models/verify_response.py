from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.verify_reason_enum import VerifyReasonEnum, check_verify_reason_enum

if TYPE_CHECKING:
    from ..models.verify_response_finality_type_0 import VerifyResponseFinalityType0
    from ..models.verify_response_get_attestation_call_type_0 import VerifyResponseGetAttestationCallType0
    from ..models.verify_response_issuer_type_0 import VerifyResponseIssuerType0


T = TypeVar("T", bound="VerifyResponse")


@_attrs_define
class VerifyResponse:
    """What verification found; when nothing verifies, every field but `verified` and
    `reason` is null. A verified answer carries the evidence to re-check it on the chain
    without trusting this service (docs/verify-yourself.md).

        Attributes:
            verified (bool):
            attestation_id (None | str): The EAS attestation UID. Example:
                0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
            timestamp (datetime.datetime | None): When the chain says it was attested.
            chain_id (int | None):
            attester (None | str):  Example: 0xabababababababababababababababababababab.
            schema_id (None | str):  Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
            tx_hash (None | str):  Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
            block_number (int | None):
            confirmations (int | None): Blocks from the attestation's to the head, both included.
            block_hash (None | str): The hash of block `blockNumber` as indexed: still the chain's at that height unless it
                was reorganised. Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
            log_index (int | None): The position of the `Attested` log in block `blockNumber`.
            eas_address (None | str): The EAS contract that holds the attestation. Example:
                0xabababababababababababababababababababab.
            get_attestation_call (None | VerifyResponseGetAttestationCallType0): The call that reads the attestation from
                the chain: send it as `eth_call`'s transaction object (`[{"to": ..., "data": ...}, "latest"]`); docs/verify-
                yourself.md decodes the answer.
            finality (None | VerifyResponseFinalityType0): What "final" meant for this answer: the rule of the attestation's
                chain (of the asked chain when nothing was found there) and its newest final block; null when no chain applies
                (nothing found and no chain asked; an offchain attestation).
            chain_stalled (bool): true when the chain (the attestation's; the asked one when nothing was found) is stalled:
                no new head for a while, or its finalized block not advancing. The answer is then as of the last block the
                service saw, and may change when the chain resumes.
            offchain (bool | None): true: verified through an offchain attestation submitted here (POST
                /attestations/offchain; no transaction, block or getAttestation call); false: through an on-chain one; null when
                not verified.
            timestamp_proven (bool | None): Whether the chain proves `timestamp`: always for on-chain attestations; for an
                offchain one, when its uid was timestamped on chain (then `timestamp` is that time), else `timestamp` is the
                attester's signed claim.
            merkle_root (None | str): Verified through a Merkle batch: the root its attestation (`attestationId`) holds;
                null otherwise. Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
            proof (list[str] | None): With `merkleRoot`: the siblings from the document's leaf
                (keccak256(keccak256(abi.encode(documentHash)))) to the root, each pair hashed sorted, as OpenZeppelin's
                MerkleProof.verify takes them (docs/verify-yourself.md).
            issuer (None | VerifyResponseIssuerType0): The issuer of the attester that made the attestation (an organisation
                an administrator registered, with the domain that proves it), or null: none, or not verified.
            reason (None | VerifyReasonEnum): Why not, when not verified (null when verified): the most telling reason among
                the document's attestations (on `chainId` when given), in this precedence: `not_final` (not final yet under the
                chain's `finality` rule: wait) > `revoked` > `expired` > `not_timestamped` > `undecodable` (its data is not laid
                out as its schema says) > `unproven_issuer` (only where VERIFY_REQUIRE_PROVEN_ISSUER is set: the attester's
                issuer has not proven its identity) > `untrusted_attester` > `chain_inactive` > `invalid_proof` (a given Merkle
                proof leads to no root bound here) > `not_found` (no attestation of it). Each attestation's own reason is its
                first failing rule: chain active, trusted attester, proven issuer (when required), data as its schema says, not
                revoked, not expired, final (as the chain's `finality` rule says).

                * `not_found` - not_found
                * `invalid_proof` - invalid_proof
                * `chain_inactive` - chain_inactive
                * `untrusted_attester` - untrusted_attester
                * `unproven_issuer` - unproven_issuer
                * `undecodable` - undecodable
                * `not_timestamped` - not_timestamped
                * `expired` - expired
                * `revoked` - revoked
                * `not_final` - not_final
    """

    verified: bool
    attestation_id: None | str
    timestamp: datetime.datetime | None
    chain_id: int | None
    attester: None | str
    schema_id: None | str
    tx_hash: None | str
    block_number: int | None
    confirmations: int | None
    block_hash: None | str
    log_index: int | None
    eas_address: None | str
    get_attestation_call: None | VerifyResponseGetAttestationCallType0
    finality: None | VerifyResponseFinalityType0
    chain_stalled: bool
    offchain: bool | None
    timestamp_proven: bool | None
    merkle_root: None | str
    proof: list[str] | None
    issuer: None | VerifyResponseIssuerType0
    reason: None | VerifyReasonEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.verify_response_finality_type_0 import VerifyResponseFinalityType0
        from ..models.verify_response_get_attestation_call_type_0 import VerifyResponseGetAttestationCallType0
        from ..models.verify_response_issuer_type_0 import VerifyResponseIssuerType0

        verified = self.verified

        attestation_id: None | str
        attestation_id = self.attestation_id

        timestamp: None | str
        if isinstance(self.timestamp, datetime.datetime):
            timestamp = self.timestamp.isoformat()
        else:
            timestamp = self.timestamp

        chain_id: int | None
        chain_id = self.chain_id

        attester: None | str
        attester = self.attester

        schema_id: None | str
        schema_id = self.schema_id

        tx_hash: None | str
        tx_hash = self.tx_hash

        block_number: int | None
        block_number = self.block_number

        confirmations: int | None
        confirmations = self.confirmations

        block_hash: None | str
        block_hash = self.block_hash

        log_index: int | None
        log_index = self.log_index

        eas_address: None | str
        eas_address = self.eas_address

        get_attestation_call: dict[str, Any] | None
        if isinstance(self.get_attestation_call, VerifyResponseGetAttestationCallType0):
            get_attestation_call = self.get_attestation_call.to_dict()
        else:
            get_attestation_call = self.get_attestation_call

        finality: dict[str, Any] | None
        if isinstance(self.finality, VerifyResponseFinalityType0):
            finality = self.finality.to_dict()
        else:
            finality = self.finality

        chain_stalled = self.chain_stalled

        offchain: bool | None
        offchain = self.offchain

        timestamp_proven: bool | None
        timestamp_proven = self.timestamp_proven

        merkle_root: None | str
        merkle_root = self.merkle_root

        proof: list[str] | None
        if isinstance(self.proof, list):
            proof = self.proof

        else:
            proof = self.proof

        issuer: dict[str, Any] | None
        if isinstance(self.issuer, VerifyResponseIssuerType0):
            issuer = self.issuer.to_dict()
        else:
            issuer = self.issuer

        reason: None | str
        if isinstance(self.reason, str):
            reason = self.reason
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "verified": verified,
                "attestationId": attestation_id,
                "timestamp": timestamp,
                "chainId": chain_id,
                "attester": attester,
                "schemaId": schema_id,
                "txHash": tx_hash,
                "blockNumber": block_number,
                "confirmations": confirmations,
                "blockHash": block_hash,
                "logIndex": log_index,
                "easAddress": eas_address,
                "getAttestationCall": get_attestation_call,
                "finality": finality,
                "chainStalled": chain_stalled,
                "offchain": offchain,
                "timestampProven": timestamp_proven,
                "merkleRoot": merkle_root,
                "proof": proof,
                "issuer": issuer,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.verify_response_finality_type_0 import VerifyResponseFinalityType0
        from ..models.verify_response_get_attestation_call_type_0 import VerifyResponseGetAttestationCallType0
        from ..models.verify_response_issuer_type_0 import VerifyResponseIssuerType0

        d = dict(src_dict)
        verified = d.pop("verified")

        def _parse_attestation_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        attestation_id = _parse_attestation_id(d.pop("attestationId"))

        def _parse_timestamp(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                timestamp_type_0 = isoparse(data)

                return timestamp_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        timestamp = _parse_timestamp(d.pop("timestamp"))

        def _parse_chain_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        chain_id = _parse_chain_id(d.pop("chainId"))

        def _parse_attester(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        attester = _parse_attester(d.pop("attester"))

        def _parse_schema_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        schema_id = _parse_schema_id(d.pop("schemaId"))

        def _parse_tx_hash(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tx_hash = _parse_tx_hash(d.pop("txHash"))

        def _parse_block_number(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        block_number = _parse_block_number(d.pop("blockNumber"))

        def _parse_confirmations(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        confirmations = _parse_confirmations(d.pop("confirmations"))

        def _parse_block_hash(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        block_hash = _parse_block_hash(d.pop("blockHash"))

        def _parse_log_index(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        log_index = _parse_log_index(d.pop("logIndex"))

        def _parse_eas_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        eas_address = _parse_eas_address(d.pop("easAddress"))

        def _parse_get_attestation_call(data: object) -> None | VerifyResponseGetAttestationCallType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                get_attestation_call_type_0 = VerifyResponseGetAttestationCallType0.from_dict(data)

                return get_attestation_call_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VerifyResponseGetAttestationCallType0, data)

        get_attestation_call = _parse_get_attestation_call(d.pop("getAttestationCall"))

        def _parse_finality(data: object) -> None | VerifyResponseFinalityType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                finality_type_0 = VerifyResponseFinalityType0.from_dict(data)

                return finality_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VerifyResponseFinalityType0, data)

        finality = _parse_finality(d.pop("finality"))

        chain_stalled = d.pop("chainStalled")

        def _parse_offchain(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        offchain = _parse_offchain(d.pop("offchain"))

        def _parse_timestamp_proven(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        timestamp_proven = _parse_timestamp_proven(d.pop("timestampProven"))

        def _parse_merkle_root(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        merkle_root = _parse_merkle_root(d.pop("merkleRoot"))

        def _parse_proof(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                proof_type_0 = cast(list[str], data)

                return proof_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        proof = _parse_proof(d.pop("proof"))

        def _parse_issuer(data: object) -> None | VerifyResponseIssuerType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                issuer_type_0 = VerifyResponseIssuerType0.from_dict(data)

                return issuer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VerifyResponseIssuerType0, data)

        issuer = _parse_issuer(d.pop("issuer"))

        def _parse_reason(data: object) -> None | VerifyReasonEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_0 = check_verify_reason_enum(data)

                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VerifyReasonEnum, data)

        reason = _parse_reason(d.pop("reason"))

        verify_response = cls(
            verified=verified,
            attestation_id=attestation_id,
            timestamp=timestamp,
            chain_id=chain_id,
            attester=attester,
            schema_id=schema_id,
            tx_hash=tx_hash,
            block_number=block_number,
            confirmations=confirmations,
            block_hash=block_hash,
            log_index=log_index,
            eas_address=eas_address,
            get_attestation_call=get_attestation_call,
            finality=finality,
            chain_stalled=chain_stalled,
            offchain=offchain,
            timestamp_proven=timestamp_proven,
            merkle_root=merkle_root,
            proof=proof,
            issuer=issuer,
            reason=reason,
        )

        verify_response.additional_properties = d
        return verify_response

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

"""The chain side: sign an EAS `attest` (one job) or `multiAttest` (a batch of jobs) with the
executor's own key (local nonce count, gas estimate, fees), send it, wait for its receipt,
read the attestation uids from it. The EAS address comes with each job (`easAddress`, as
GET /chains lists it: an executor key has no access to /chains itself)."""

import logging

from eth_account import Account
from web3 import HTTPProvider, Web3
from web3.logs import DISCARD

from eas_primitives.abi import ZERO_ADDRESS, ZERO_UID, eas_abi

logger = logging.getLogger(__name__)


def web3_over(rpc_url: str) -> Web3:
    """A Web3 on one RPC URL (EXECUTOR_RPC_URL)."""
    return Web3(HTTPProvider(rpc_url, request_kwargs={"timeout": 10}))


class Signer:
    """Signs and sends EAS attestations from one key, keeping its own nonce."""

    def __init__(self, w3: Web3, private_key: str, chain_id: int):
        self.w3 = w3
        self.account = Account.from_key(private_key)
        self.chain_id = chain_id
        self._nonce: int | None = None

    def _next_nonce(self) -> int:
        # The chain's pending count, unless ours is ahead (transactions not yet propagated).
        on_chain = self.w3.eth.get_transaction_count(self.account.address, "pending")
        self._nonce = max(on_chain, self._nonce or 0)
        return self._nonce

    def _fees(self) -> dict:
        base = self.w3.eth.get_block("latest").get("baseFeePerGas")
        if base is None:
            return {"gasPrice": self.w3.eth.gas_price}
        tip = self.w3.eth.max_priority_fee
        return {"maxFeePerGas": 2 * base + tip, "maxPriorityFeePerGas": tip}

    def attest(self, job: dict) -> str:
        """Send the attestation of a job; returns the transaction hash."""
        request = (_bytes(job["schemaId"]), request_data(job))
        return self._send(self._eas(job).functions.attest(request))

    def multi_attest(self, jobs: list[dict]) -> str:
        """Send the attestations of jobs (of one chain, so one EAS) in one `multiAttest`: a
        MultiAttestationRequest per schema, in the order of each schema's first job; the
        `Attested` logs come in that order (attested_uids)."""
        requests = [(_bytes(schema), [request_data(job) for job in group])
                    for schema, group in by_schema(jobs).items()]
        return self._send(self._eas(jobs[0]).functions.multiAttest(requests))

    def _eas(self, job: dict):
        if not job.get("easAddress"):
            raise LookupError(f"Chain {self.chain_id} has no EAS deployment registered.")
        return self.w3.eth.contract(address=Web3.to_checksum_address(job["easAddress"]),
                                    abi=eas_abi())

    def _send(self, call) -> str:
        """Sign and send a contract call; returns the transaction hash."""
        for retry in range(2):
            tx = {"from": self.account.address, "chainId": self.chain_id,
                  "nonce": self._next_nonce(), **self._fees()}
            tx["gas"] = call.estimate_gas(tx) * 6 // 5  # a fifth more than estimated
            signed = self.account.sign_transaction(call.build_transaction(tx))
            try:
                tx_hash = self.w3.eth.send_raw_transaction(signed.raw_transaction)
            except ValueError as exc:
                if retry == 0 and "nonce" in str(exc).lower():
                    self._nonce = None  # another sender used the key: read it again
                    continue
                raise
            self._nonce = tx["nonce"] + 1
            return "0x" + bytes(tx_hash).hex()
        raise RuntimeError("unreachable")

    def attested_uids(self, receipt, eas_address: str) -> list[str]:
        """The uids of the `Attested` events the EAS contract itself emitted in `receipt`,
        in log order: a schema's resolver is called within the transaction and can emit
        events of the same signature, which are not attestations."""
        own = [log for log in receipt["logs"] if log["address"].lower() == eas_address.lower()]
        eas = self.w3.eth.contract(address=Web3.to_checksum_address(eas_address), abi=eas_abi())
        events = eas.events.Attested().process_receipt({**receipt, "logs": own}, errors=DISCARD)
        return ["0x" + bytes(event["args"]["uid"]).hex() for event in events]

    def wait(self, tx_hash: str, timeout: float) -> dict | None:
        """The receipt, or None when it did not come within `timeout` seconds."""
        try:
            return self.w3.eth.wait_for_transaction_receipt(tx_hash, timeout=timeout,
                                                            poll_latency=0.2)
        except Exception as exc:  # web3's TimeExhausted, or the node went away
            logger.warning("No receipt for %s within %s s: %s", tx_hash, timeout, exc)
            return None


def by_schema(jobs: list[dict]) -> dict[str, list[dict]]:
    """Jobs grouped by schema, in the order of each schema's first job: the requests of a
    multiAttest, and so the order of its `Attested` logs."""
    groups: dict[str, list[dict]] = {}
    for job in jobs:
        groups.setdefault(job["schemaId"], []).append(job)
    return groups


def request_data(job: dict) -> tuple:
    """A job's AttestationRequestData: (recipient, expirationTime, revocable, refUID, data,
    value)."""
    return (Web3.to_checksum_address(ZERO_ADDRESS), 0, job.get("revocable", True),
            _bytes(ZERO_UID), _bytes(job["encodedData"]), 0)


def _bytes(hex_string: str) -> bytes:
    return bytes.fromhex(hex_string[2:])

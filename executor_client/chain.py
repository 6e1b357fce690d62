"""The chain side: sign an EAS `attest` with the executor's own key (local nonce count, gas
estimate, fees), send it, wait for its receipt. The EAS address comes with each job
(`easAddress`, as GET /chains lists it: an executor key has no access to /chains itself)."""

import logging

from eth_account import Account
from web3 import HTTPProvider, Web3

from core.eas_abi import ZERO_ADDRESS, ZERO_UID, eas_abi

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
        request = (bytes.fromhex(job["schemaId"][2:]), (
            Web3.to_checksum_address(ZERO_ADDRESS), 0, job.get("revocable", True),
            bytes.fromhex(ZERO_UID[2:]), bytes.fromhex(job["encodedData"][2:]), 0))
        if not job.get("easAddress"):
            raise LookupError(f"Chain {self.chain_id} has no EAS deployment registered.")
        eas = self.w3.eth.contract(address=Web3.to_checksum_address(job["easAddress"]),
                                   abi=eas_abi())
        call = eas.functions.attest(request)
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

    def wait(self, tx_hash: str, timeout: float) -> dict | None:
        """The receipt, or None when it did not come within `timeout` seconds."""
        try:
            return self.w3.eth.wait_for_transaction_receipt(tx_hash, timeout=timeout,
                                                            poll_latency=0.2)
        except Exception as exc:  # web3's TimeExhausted, or the node went away
            logger.warning("No receipt for %s within %s s: %s", tx_hash, timeout, exc)
            return None

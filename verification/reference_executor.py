"""The reference executor (SPEC section 8): an external executor, over the HTTP API only.

It registers its address on a chain, keeps its lease alive with heartbeats (a thread),
claims jobs, signs an EAS `attest` transaction for each with its own key (local nonce
management, gas estimation) to the chain's EAS deployment named in the job (`easAddress`,
as GET /chains lists it: an executor key has no access to /chains itself), sends it through the chain's best RPC endpoint (or
EXECUTOR_RPC_URL), reports the hash (or the error it met), and waits for the receipt with a
timeout. A stop request (SIGTERM) lets the job in hand finish first.
"""

import logging
import threading
from dataclasses import dataclass

import requests
from eth_account import Account
from web3 import Web3

from attestations.eas import ZERO_ADDRESS, ZERO_UID, eas_abi

logger = logging.getLogger(__name__)
VERSION = "reference-1.0"


class ServiceError(Exception):
    """The service answered with an error (a problem document)."""

    def __init__(self, response: requests.Response):
        try:
            detail = response.json().get("detail", response.text)
        except ValueError:
            detail = response.text[:200]
        super().__init__(f"{response.request.method} {response.url}: {response.status_code} {detail}")
        self.status = response.status_code


class ServiceClient:
    """The service's HTTP API, as an executor uses it."""

    def __init__(self, base_url: str, api_key: str, *, timeout: float = 10.0):
        self.base_url = base_url.rstrip("/")
        self.session = requests.Session()
        self.session.headers.update({"X-API-Key": api_key, "Accept": "application/json"})
        self.timeout = timeout

    def _call(self, method: str, path: str, body: dict | None = None):
        response = self.session.request(method, self.base_url + path, json=body,
                                        timeout=self.timeout)
        if response.status_code >= 400:
            raise ServiceError(response)
        return response.json() if response.status_code != 204 else None

    def register(self, chain_ref: str, address: str, name: str) -> dict:
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/register",
                          {"address": address, "name": name, "version": VERSION,
                           "capabilities": ["eas.attest"]})

    def heartbeat(self, chain_ref: str, executor_id: str, status: str, pending_jobs: int) -> dict:
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/heartbeat",
                          {"executorId": executor_id, "status": status,
                           "pendingJobs": pending_jobs})

    def claim(self, chain_ref: str, executor_id: str) -> dict | None:
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/jobs/claim",
                          {"executorId": executor_id})

    def report(self, chain_ref: str, workflow_id: str, executor_id: str, **result) -> dict:
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/jobs/{workflow_id}/result",
                          {"executorId": executor_id, **result})


@dataclass
class Sent:
    workflow_id: str
    tx_hash: str


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


class ReferenceExecutor:
    def __init__(self, service: ServiceClient, chain_ref: str, private_key: str, web3_for, *,
                 name: str = "reference-executor", receipt_timeout: float = 120.0,
                 poll_seconds: float = 2.0, out=None):
        self.service = service
        self.chain_ref = chain_ref
        self.name = name
        self.receipt_timeout = receipt_timeout
        self.poll_seconds = poll_seconds
        self.stopping = threading.Event()
        self.out = out or (lambda line: logger.info(line))
        self.private_key = private_key
        self.address = Account.from_key(private_key).address.lower()
        self.web3_for = web3_for  # chain id -> Web3
        self.signer: Signer | None = None
        self.executor_id: str | None = None
        self.pending = 0
        self.interval = 10

    def stop(self) -> None:
        """Finish the job in hand, then leave (SIGTERM)."""
        self.stopping.set()

    def register(self) -> None:
        registered = self.service.register(self.chain_ref, self.address, self.name)
        self.executor_id = registered["executorId"]
        self.interval = registered["heartbeatIntervalSeconds"]
        if self.signer is None:
            chain_id = registered["chainId"]
            self.signer = Signer(self.web3_for(chain_id), self.private_key, chain_id)
        self.out(f"registered {self.address} on chain {registered['chainId']} as "
                 f"{self.executor_id}")

    def _heartbeats(self) -> None:
        while not self.stopping.wait(self.interval):
            try:
                self.service.heartbeat(self.chain_ref, self.executor_id,
                                       "busy" if self.pending else "ok", self.pending)
            except (requests.RequestException, ServiceError) as exc:
                logger.warning("Heartbeat failed: %s", exc)
                if isinstance(exc, ServiceError) and exc.status == 404:
                    self.register()  # deregistered or forgotten: register again
        try:
            self.service.heartbeat(self.chain_ref, self.executor_id, "draining", self.pending)
        except (requests.RequestException, ServiceError):
            pass

    def work_once(self) -> Sent | None:
        """Claim one job and send its attestation; None when nothing is queued."""
        job = self.service.claim(self.chain_ref, self.executor_id)
        if job is None:
            return None
        workflow_id = job["workflowId"]
        self.pending += 1
        try:
            tx_hash = self.signer.attest(job)
        except Exception as exc:  # a revert in the estimate, a refused transaction, ...
            self.out(f"workflow {workflow_id}: error {exc}")
            self.service.report(self.chain_ref, workflow_id, self.executor_id,
                                error=str(exc)[:2000])
            return Sent(workflow_id, "")
        finally:
            self.pending -= 1
        self.service.report(self.chain_ref, workflow_id, self.executor_id, txHash=tx_hash)
        self.out(f"workflow {workflow_id}: sent {tx_hash}")
        return Sent(workflow_id, tx_hash)

    def run(self, *, once: bool = False) -> list[Sent]:
        """Work until stopped; with `once`, until the queue is empty and the receipts are in."""
        self.register()
        beats = threading.Thread(target=self._heartbeats, daemon=True)
        beats.start()
        sent: list[Sent] = []
        try:
            while not self.stopping.is_set():
                try:
                    done = self.work_once()
                except (requests.RequestException, ServiceError) as exc:
                    logger.warning("Claim failed: %s", exc)
                    done = None
                if done is not None:
                    sent.append(done)
                    if not once and done.tx_hash:
                        self._receipt(done)
                elif once:
                    break
                else:
                    self.stopping.wait(self.poll_seconds)
            if once:
                for done in sent:
                    if done.tx_hash:
                        self._receipt(done)
        finally:
            self.stopping.set()
            beats.join(timeout=self.service.timeout + 1)
        return sent

    def _receipt(self, done: Sent) -> None:
        receipt = self.signer.wait(done.tx_hash, self.receipt_timeout)
        if receipt is not None:
            outcome = "mined" if receipt["status"] == 1 else "reverted"
            self.out(f"workflow {done.workflow_id}: {outcome} in block {receipt['blockNumber']}")


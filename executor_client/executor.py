"""The executor's loop: register its address on a chain, keep its lease alive with heartbeats
(a thread), claim jobs, attest each, report the hash (or the error it met), wait for the
receipt with a timeout. A stop request (SIGTERM) lets the job in hand finish first."""

import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import requests
from eth_account import Account
from web3 import Web3

from executor_client.chain import Signer
from executor_client.service import ServiceClient, ServiceError

logger = logging.getLogger(__name__)


@dataclass
class Sent:
    workflow_id: str
    tx_hash: str


class ReferenceExecutor:
    def __init__(self, service: ServiceClient, chain_ref: str, private_key: str,
                 web3_for: Callable[[int], Web3], *, name: str = "reference-executor",
                 receipt_timeout: float = 120.0, poll_seconds: float = 2.0, out=None):
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


@contextmanager
def stopped_by_signals(executor: ReferenceExecutor) -> Iterator[None]:
    """SIGTERM and Ctrl-C ask `executor` to stop (the job in hand finishes) while inside;
    the previous handlers come back on leaving."""
    previous = {signum: signal.signal(signum, lambda *_: executor.stop())
                for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

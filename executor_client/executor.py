"""The executor's loop: register its address on a chain, keep its lease alive with heartbeats
(a thread), claim jobs (one, or a batch of up to `batch`), bind them as each job's
`bindingMode` says, report the hashes (or the errors met), wait for the receipts with a
timeout and log the attestation uids they hold. A stop request (SIGTERM) lets the jobs in
hand finish first.

Binding modes: `single` jobs are attested one transaction each; `multi` jobs of a claimed
batch together, in one multiAttest; `merkle` jobs by one attestation of the Merkle root of
their documents (executor_client/merkle.py), reported with the root.
"""

import logging
import queue
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

import requests
from eth_account import Account
from web3 import Web3

from executor_client.chain import Signer, by_schema
from executor_client.merkle import root_request
from executor_client.service import ServiceClient, ServiceError

logger = logging.getLogger(__name__)


@dataclass
class Sent:
    """What came of one job: the transaction sent (`tx_hash`), or the error met."""

    workflow_id: str
    tx_hash: str
    error: str = ""
    eas_address: str = ""
    position: int = 0  # its place among the transaction's `Attested` logs
    merkle_root: str = ""  # bound in a Merkle batch: the root attested in `tx_hash`

    def result(self) -> dict:
        """The job's result as POST .../jobs/results takes it."""
        outcome = {"txHash": self.tx_hash} if self.tx_hash else {"error": self.error[:2000]}
        if self.tx_hash and self.merkle_root:
            outcome["merkleRoot"] = self.merkle_root
        return {"workflowId": self.workflow_id, **outcome}


class ReferenceExecutor:
    def __init__(self, service: ServiceClient, chain_ref: str, private_key: str,
                 web3_for: Callable[[int], Web3], *, name: str = "reference-executor",
                 receipt_timeout: float = 120.0, poll_seconds: float = 2.0, batch: int = 1,
                 out=None):
        self.service = service
        self.chain_ref = chain_ref
        self.name = name
        self.receipt_timeout = receipt_timeout
        self.poll_seconds = poll_seconds
        self.batch = batch  # jobs per claim; 1: one job per claim and per report
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

    def work_once(self) -> list[Sent]:
        """Claim jobs (one, or up to `batch`), bind them, report what came of each; empty
        when nothing is queued."""
        if self.batch == 1:
            job = self.service.claim(self.chain_ref, self.executor_id)
            jobs = [] if job is None else [job]
        else:
            jobs = self.service.claim(self.chain_ref, self.executor_id, limit=self.batch)["jobs"]
        if not jobs:
            return []
        self.pending += len(jobs)
        try:
            sent = self._bind(jobs)
        finally:
            self.pending -= len(jobs)
        if self.batch == 1:
            (one,) = sent
            self.service.report(self.chain_ref, one.workflow_id, self.executor_id,
                                **{k: v for k, v in one.result().items() if k != "workflowId"})
        else:
            self.service.report_many(self.chain_ref, self.executor_id, [s.result() for s in sent])
        for done in sent:
            what = f"sent {done.tx_hash}" if done.tx_hash else f"error {done.error}"
            self.out(f"workflow {done.workflow_id}: {what}")
        return sent

    def _bind(self, jobs: list[dict]) -> list[Sent]:
        """Send the jobs' attestations: a transaction per `single` job, one attestation of
        the Merkle root of the `merkle` ones, one multiAttest for the others (grouped per
        schema, as the logs of its receipt will be)."""
        modes = {"single": [], "merkle": [], "multi": []}
        for job in jobs:
            modes.get(job.get("bindingMode"), modes["multi"]).append(job)
        together = [job for group in by_schema(modes["multi"]).values() for job in group]
        sent = [s for job in modes["single"] for s in self._send([job], self.signer.attest, job)]
        if modes["merkle"]:
            root, request = root_request(modes["merkle"])
            sent += [replace(s, merkle_root=root, position=0)  # one Attested log: the root's
                     for s in self._send(modes["merkle"], self.signer.attest, request)]
        if together:
            sent += self._send(together, self.signer.multi_attest, together)
        return sent

    def _send(self, jobs: list[dict], send, argument) -> list[Sent]:
        try:
            tx_hash = send(argument)
        except Exception as exc:  # a revert in the estimate, a refused transaction, ...
            return [Sent(job["workflowId"], "", error=str(exc)) for job in jobs]
        return [Sent(job["workflowId"], tx_hash, eas_address=job.get("easAddress") or "",
                     position=index) for index, job in enumerate(jobs)]

    def run(self, *, once: bool = False) -> list[Sent]:
        """Work until stopped; with `once`, until the queue is empty and the receipts are in."""
        self.register()
        beats = threading.Thread(target=self._heartbeats, daemon=True)
        beats.start()
        # Receipts are waited for beside the claims: the next batch is claimed and sent
        # while the last one is being mined (the signer counts its nonces itself).
        mined: queue.Queue[list[Sent] | None] = queue.Queue()
        watcher = threading.Thread(target=self._watch_receipts, args=(mined,), daemon=True)
        watcher.start()
        sent: list[Sent] = []
        try:
            while not self.stopping.is_set():
                try:
                    done = self.work_once()
                except (requests.RequestException, ServiceError) as exc:
                    logger.warning("Claim failed: %s", exc)
                    done = []
                if done:
                    sent.extend(done)
                    if not once:
                        mined.put(done)
                elif once:
                    break
                else:
                    self.stopping.wait(self.poll_seconds)
            if once:
                mined.put(sent)
        finally:
            mined.put(None)
            watcher.join()  # each receipt waits receipt_timeout at most
            self.stopping.set()
            beats.join(timeout=self.service.timeout + 1)
        return sent

    def _watch_receipts(self, mined: "queue.Queue[list[Sent] | None]") -> None:
        while (sent := mined.get()) is not None:
            try:
                self._receipts(sent)
            except Exception as exc:  # the node went away: the service tracks them anyway
                logger.warning("Reading receipts failed: %s", exc)

    def _receipts(self, sent: list[Sent]) -> None:
        """Wait for each transaction's receipt once, and log what came of its jobs, with the
        uid of each attestation (read from the EAS contract's own logs)."""
        by_tx: dict[str, list[Sent]] = {}
        for done in sent:
            if done.tx_hash:
                by_tx.setdefault(done.tx_hash, []).append(done)
        for tx_hash, together in by_tx.items():
            receipt = self.signer.wait(tx_hash, self.receipt_timeout)
            if receipt is None:
                continue
            block = receipt["blockNumber"]
            if receipt["status"] != 1:
                for done in together:
                    self.out(f"workflow {done.workflow_id}: reverted in block {block}")
                continue
            uids = self.signer.attested_uids(receipt, together[0].eas_address)
            for done in together:
                uid = uids[done.position] if done.position < len(uids) else "(no Attested log)"
                self.out(f"workflow {done.workflow_id}: mined in block {block} as {uid}")


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

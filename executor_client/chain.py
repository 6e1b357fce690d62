"""The chain side: the EAS `attest` (one job) and `multiAttest` (a batch of jobs) calls, and
the attestation uids of their receipts. The EAS address comes with each job (`easAddress`,
as GET /chains lists it: an executor key has no access to /chains itself). Signing and
sending are transactions.py's."""

from web3 import HTTPProvider, Web3
from web3.logs import DISCARD

from eas_primitives.abi import ZERO_ADDRESS, ZERO_UID, eas_abi


def web3_over(rpc_url: str) -> Web3:
    """A Web3 on one RPC URL (EXECUTOR_RPC_URL)."""
    return Web3(HTTPProvider(rpc_url, request_kwargs={"timeout": 10}))


class Eas:
    """The EAS calls of the executor's jobs (sent through transactions.Outbox), and the
    attestation uids of their receipts."""

    def __init__(self, w3: Web3):
        self.w3 = w3

    def attest(self, job: dict):
        """The `attest` call of a job (or of a Merkle root, as merkle.root_request gives it)."""
        request = (_bytes(job["schemaId"]), request_data(job))
        return self._eas(job).functions.attest(request)

    def multi_attest(self, jobs: list[dict]):
        """The `multiAttest` of jobs (of one chain, so one EAS): a MultiAttestationRequest
        per schema, in the order of each schema's first job; the `Attested` logs come in
        that order (attested_uids)."""
        requests = [(_bytes(schema), [request_data(job) for job in group])
                    for schema, group in by_schema(jobs).items()]
        return self._eas(jobs[0]).functions.multiAttest(requests)

    def _eas(self, job: dict):
        if not job.get("easAddress"):
            raise LookupError("The chain has no EAS deployment registered.")
        return self.w3.eth.contract(address=Web3.to_checksum_address(job["easAddress"]),
                                    abi=eas_abi())

    def attested_uids(self, receipt, eas_address: str) -> list[str]:
        """The uids of the `Attested` events the EAS contract itself emitted in `receipt`,
        in log order: a schema's resolver is called within the transaction and can emit
        events of the same signature, which are not attestations."""
        own = [log for log in receipt["logs"] if log["address"].lower() == eas_address.lower()]
        eas = self.w3.eth.contract(address=Web3.to_checksum_address(eas_address), abi=eas_abi())
        events = eas.events.Attested().process_receipt({**receipt, "logs": own}, errors=DISCARD)
        return ["0x" + bytes(event["args"]["uid"]).hex() for event in events]


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

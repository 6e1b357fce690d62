"""The service's HTTP API, as an executor uses it (an executor-scope key in X-API-Key)."""

from collections.abc import Callable

import requests

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
    """Register, heartbeat, claim jobs, report their results."""

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

    def register(self, chain_ref: str, address: str, name: str, *,
                 sign_message: Callable[[str], str]) -> dict:
        """Register `address`, proving it holds the address's key: the service's challenge
        (an EIP-4361 message naming this address) signed by `sign_message`."""
        challenge = self._call("POST", f"/v1/chain-registry/{chain_ref}/challenge",
                               {"address": address})
        message = challenge["message"]
        # Sign only a sign-in message for this address: never whatever text a service sends.
        lines = message.split("\n")
        if (len(lines) < 2 or not lines[0].endswith(" wants you to sign in with your Ethereum "
                                                    "account:")
                or lines[1].lower() != address.lower()):
            raise ValueError("The service's challenge is not a sign-in message for "
                             f"{address}: not signed.")
        proof = {"message": message, "signature": sign_message(message)}
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/register",
                          {"address": address, "name": name, "version": VERSION,
                           "capabilities": ["eas.attest"], "proof": proof})

    def heartbeat(self, chain_ref: str, executor_id: str, status: str, pending_jobs: int, *,
                  head_block: int | None = None, balance_wei: int | None = None) -> dict:
        """Renew the lease; the answer carries the chain's fee policy (fees.Policy)."""
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/heartbeat",
                          {"executorId": executor_id, "status": status,
                           "pendingJobs": pending_jobs, "headBlock": head_block,
                           "balanceWei": None if balance_wei is None else str(balance_wei)})

    def claim(self, chain_ref: str, executor_id: str, limit: int | None = None):
        """One job (None when none is queued); with `limit`, `{"jobs": [...]}`."""
        body = {"executorId": executor_id} | ({} if limit is None else {"limit": limit})
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/jobs/claim", body)

    def report(self, chain_ref: str, workflow_id: str, executor_id: str, **result) -> dict:
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/jobs/{workflow_id}/result",
                          {"executorId": executor_id, **result})

    def report_many(self, chain_ref: str, executor_id: str, results: list[dict]) -> dict:
        return self._call("POST", f"/v1/chain-registry/{chain_ref}/jobs/results",
                          {"executorId": executor_id, "results": results})

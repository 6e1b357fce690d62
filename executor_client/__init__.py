"""The reference executor (SPEC section 8): an executor outside the service, over its HTTP API
only. It never imports the service (no Django, settings, models or database): only libraries
and eas_primitives (the EAS ABI and the Merkle tree), so that it runs on a machine that has
nothing of the service but its URL.

    python -m executor_client --chain anvil --once   (python -m executor_client --help)

service.py speaks the HTTP API, chain.py signs and sends the EAS attestations, executor.py
is the loop: register, heartbeat (a thread), claim, attest, report, wait for the receipt.
"""

from executor_client.chain import Signer, web3_over
from executor_client.executor import ReferenceExecutor, Sent, stopped_by_signals
from executor_client.service import ServiceClient, ServiceError

__all__ = ["ReferenceExecutor", "Sent", "ServiceClient", "ServiceError", "Signer",
           "stopped_by_signals", "web3_over"]

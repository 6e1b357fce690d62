"""The reference executor (SPEC section 8): an executor outside the service, over its HTTP API
only. It never imports the service (no Django, settings, models or database): only libraries
and eas_primitives (the EAS ABI and the Merkle tree), so that it runs on a machine that has
nothing of the service but its URL.

    python -m executor_client --chain anvil --once   (python -m executor_client --help)

service.py speaks the HTTP API; signers.py signs (a remote signer, or a key file for
development); chain.py builds the EAS calls; transactions.py sends them and tends each
until it is mined (replaced, re-sent, reported under the mined hash), fees.py prices them,
journal.py keeps them on disk; executor.py is the loop: register, heartbeat (a thread),
look at the chain, claim, attest, report.
"""

from executor_client.chain import web3_over
from executor_client.executor import ReferenceExecutor, Sent, stopped_by_signals
from executor_client.service import ServiceClient, ServiceError
from executor_client.signers import LocalKey, RemoteSigner, SignerError

__all__ = ["LocalKey", "ReferenceExecutor", "RemoteSigner", "Sent", "ServiceClient",
           "ServiceError", "SignerError", "stopped_by_signals", "web3_over"]

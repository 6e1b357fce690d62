"""python -m executor_client: the reference executor on its own, without the service's code.

Its configuration comes from the arguments, else the environment. The executor key
(EXECUTOR_API_KEY) comes from the environment only, as command lines are visible to every
user of the machine (ps); the signing key never comes from either: a remote signer
(EXECUTOR_SIGNER_URL) holds it, or, for development, a file (EXECUTOR_KEY_FILE, a Docker
secret).
"""

import argparse
import logging
import os
import sys

import requests

from executor_client.chain import web3_over
from executor_client.executor import ReferenceExecutor, stopped_by_signals
from executor_client.service import ServiceClient, ServiceError
from executor_client.signers import SignerError, configured_signer

RETIRED = ("The signing key is no longer read from EXECUTOR_PRIVATE_KEY: use a remote signer "
           "(EXECUTOR_SIGNER_URL) or, for development, a key file (EXECUTOR_KEY_FILE).")


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m executor_client",
        description="Run the reference executor of a chain over the service's HTTP API, "
                    "signing EAS attestations through a remote signer (EXECUTOR_SIGNER_URL) "
                    "or with a key file (EXECUTOR_KEY_FILE, for development), and "
                    "authenticating with the executor key EXECUTOR_API_KEY (environment).")
    parser.add_argument("--chain", help="A chain id or short name (else EXECUTOR_CHAIN).")
    parser.add_argument("--service-url", help="The service's base URL (else SERVICE_URL).")
    parser.add_argument("--rpc-url", help="The chain's RPC URL (else EXECUTOR_RPC_URL).")
    add_common_arguments(parser)
    return parser


def add_common_arguments(parser) -> None:
    """The options `manage.py run_executor` shares."""
    parser.add_argument("--once", action="store_true",
                        help="Process what is queued now, wait for the receipts, exit 0.")
    parser.add_argument("--name", default="reference-executor",
                        help="The name it registers under (default: reference-executor).")
    parser.add_argument("--receipt-timeout", type=float, default=120.0,
                        help="Seconds to wait for what it sent to be mined, when leaving "
                             "(default: 120).")
    parser.add_argument("--poll-seconds", type=float, default=2.0,
                        help="Seconds between claims when the queue is empty (default: 2).")
    parser.add_argument("--batch", type=batch_size, default=1,
                        help="Jobs per claim, 1 to 500 (default 1: one job per claim and per "
                             "report); a claimed batch's `multi` jobs share one multiAttest "
                             "(or a few, each at most a quarter of a block's gas), and its "
                             "results go back in one report.")
    parser.add_argument("--journal",
                        help="A file that keeps the transactions in flight across restarts "
                             "(else EXECUTOR_JOURNAL; none by default).")
    parser.add_argument("--signer-timeout", type=float, default=10.0,
                        help="Seconds to wait for the remote signer (default: 10).")
    parser.add_argument("--resend-within", type=float, default=30.0,
                        help="Seconds within which a dropped transaction is sent again; "
                             "later it is cancelled (keep it under the service's "
                             "WORKFLOW_TX_MISSING_GRACE_SECONDS; default: 30).")


def batch_size(value: str) -> int:
    number = int(value)
    if not 1 <= number <= 500:
        raise argparse.ArgumentTypeError("expected 1 to 500")
    return number


def main(argv: list[str] | None = None, environ=os.environ) -> int:
    parser = arguments()
    args = parser.parse_args(argv)
    if environ.get("EXECUTOR_PRIVATE_KEY"):
        parser.error(RETIRED)
    needed = {"EXECUTOR_CHAIN": args.chain or environ.get("EXECUTOR_CHAIN", ""),
              "SERVICE_URL": args.service_url or environ.get("SERVICE_URL", ""),
              "EXECUTOR_API_KEY": environ.get("EXECUTOR_API_KEY", ""),
              "EXECUTOR_RPC_URL": args.rpc_url or environ.get("EXECUTOR_RPC_URL", "")}
    flags = {"EXECUTOR_CHAIN": "--chain", "SERVICE_URL": "--service-url",
             "EXECUTOR_RPC_URL": "--rpc-url"}
    missing = [f"{variable} (or {flags[variable]})" if variable in flags else variable
               for variable, value in needed.items() if not value]
    if missing:
        parser.error(f"Set {', '.join(missing)}.")
    logging.basicConfig(level=logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        signer = configured_signer(signer_url=environ.get("EXECUTOR_SIGNER_URL", ""),
                                   key_file=environ.get("EXECUTOR_KEY_FILE", ""),
                                   address=environ.get("EXECUTOR_ADDRESS", ""),
                                   timeout=args.signer_timeout)
    except ValueError as exc:
        parser.error(str(exc))

    w3 = web3_over(needed["EXECUTOR_RPC_URL"])  # no database here to find the chain's best
    service = ServiceClient(needed["SERVICE_URL"], needed["EXECUTOR_API_KEY"])
    executor = ReferenceExecutor(service, needed["EXECUTOR_CHAIN"], signer, lambda chain_id: w3,
                                 name=args.name, receipt_timeout=args.receipt_timeout,
                                 poll_seconds=args.poll_seconds, batch=args.batch,
                                 journal=args.journal or environ.get("EXECUTOR_JOURNAL") or None,
                                 resend_within=args.resend_within,
                                 out=lambda line: print(line, flush=True))
    try:
        with stopped_by_signals(executor):
            sent = executor.run(once=args.once)
    except (requests.RequestException, ServiceError, SignerError, ValueError) as exc:
        # registering failed (refused, or its challenge could not be signed)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"done: {len(sent)} job(s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

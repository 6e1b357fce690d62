"""python -m executor_client: the reference executor on its own, without the service's code.

Its configuration comes from the arguments, else the environment; the two secrets (the
executor key and the signing key) from the environment only, as command lines are visible
to every user of the machine (ps).
"""

import argparse
import logging
import os
import sys

import requests

from executor_client.chain import web3_over
from executor_client.executor import ReferenceExecutor, stopped_by_signals
from executor_client.service import ServiceClient, ServiceError


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m executor_client",
        description="Run the reference executor of a chain over the service's HTTP API, "
                    "signing EAS attestations with EXECUTOR_PRIVATE_KEY (environment) and "
                    "authenticating with the executor key EXECUTOR_API_KEY (environment).")
    parser.add_argument("--chain", help="A chain id or short name (else EXECUTOR_CHAIN).")
    parser.add_argument("--service-url", help="The service's base URL (else SERVICE_URL).")
    parser.add_argument("--rpc-url", help="The chain's RPC URL (else EXECUTOR_RPC_URL).")
    parser.add_argument("--once", action="store_true",
                        help="Process what is queued now, wait for the receipts, exit 0.")
    parser.add_argument("--name", default="reference-executor")
    parser.add_argument("--receipt-timeout", type=float, default=120.0)
    parser.add_argument("--poll-seconds", type=float, default=2.0)
    parser.add_argument("--batch", type=batch_size, default=1,
                        help="Jobs per claim, 1 to 500 (default 1: one job per claim and per "
                             "report); a claimed batch's `multi` jobs share one multiAttest, "
                             "and its results go back in one report.")
    return parser


def batch_size(value: str) -> int:
    number = int(value)
    if not 1 <= number <= 500:
        raise argparse.ArgumentTypeError("expected 1 to 500")
    return number


def main(argv: list[str] | None = None, environ=os.environ) -> int:
    parser = arguments()
    args = parser.parse_args(argv)
    needed = {"EXECUTOR_CHAIN": args.chain or environ.get("EXECUTOR_CHAIN", ""),
              "SERVICE_URL": args.service_url or environ.get("SERVICE_URL", ""),
              "EXECUTOR_API_KEY": environ.get("EXECUTOR_API_KEY", ""),
              "EXECUTOR_PRIVATE_KEY": environ.get("EXECUTOR_PRIVATE_KEY", ""),
              "EXECUTOR_RPC_URL": args.rpc_url or environ.get("EXECUTOR_RPC_URL", "")}
    flags = {"EXECUTOR_CHAIN": "--chain", "SERVICE_URL": "--service-url",
             "EXECUTOR_RPC_URL": "--rpc-url"}
    missing = [f"{variable} (or {flags[variable]})" if variable in flags else variable
               for variable, value in needed.items() if not value]
    if missing:
        parser.error(f"Set {', '.join(missing)}.")
    logging.basicConfig(level=logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    w3 = web3_over(needed["EXECUTOR_RPC_URL"])  # no database here to find the chain's best
    service = ServiceClient(needed["SERVICE_URL"], needed["EXECUTOR_API_KEY"])
    try:
        executor = ReferenceExecutor(service, needed["EXECUTOR_CHAIN"],
                                     needed["EXECUTOR_PRIVATE_KEY"], lambda chain_id: w3,
                                     name=args.name, receipt_timeout=args.receipt_timeout,
                                     poll_seconds=args.poll_seconds, batch=args.batch,
                                     out=lambda line: print(line, flush=True))
    except (LookupError, ValueError) as exc:  # a key that is no private key
        parser.error(str(exc))
    try:
        with stopped_by_signals(executor):
            sent = executor.run(once=args.once)
    except (requests.RequestException, ServiceError) as exc:  # registering failed
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"done: {len(sent)} job(s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

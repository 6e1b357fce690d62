"""The reference executor (executor_client) with the service's configuration: its settings
for the signing key, and without EXECUTOR_RPC_URL the chain's best RPC endpoint from the
database. `python -m executor_client` runs the same executor without any of the service."""

import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from web3 import Web3

from executor_client import ReferenceExecutor, ServiceClient, stopped_by_signals, web3_over
from executor_client.__main__ import batch_size
from registry.chain_client import chain_client
from registry.models import Chain


class Command(BaseCommand):
    help = ("Run the reference executor of a chain over the service's HTTP API (SERVICE_URL, "
            "EXECUTOR_API_KEY), signing EAS attestations with EXECUTOR_PRIVATE_KEY.")

    def add_arguments(self, parser):
        parser.add_argument("--chain", required=True, help="A chain id or short name.")
        parser.add_argument("--once", action="store_true",
                            help="Process what is queued now, wait for the receipts, exit 0.")
        parser.add_argument("--name", default="reference-executor",
                            help="The name it registers under (default: reference-executor).")
        parser.add_argument("--receipt-timeout", type=float, default=120.0,
                            help="Seconds to wait for a transaction's receipt (default: 120).")
        parser.add_argument("--poll-seconds", type=float, default=2.0,
                            help="Seconds between claims when the queue is empty (default: 2).")
        parser.add_argument("--batch", type=batch_size, default=1,
                            help="Jobs per claim, 1 to 500 (default: 1, one job per claim and "
                                 "per report).")

    def handle(self, *args, chain, once, name, receipt_timeout, poll_seconds, batch, **options):
        needed = {"SERVICE_URL": os.environ.get("SERVICE_URL", ""),
                  "EXECUTOR_API_KEY": os.environ.get("EXECUTOR_API_KEY", ""),
                  "EXECUTOR_PRIVATE_KEY": settings.EXECUTOR_PRIVATE_KEY}
        missing = [variable for variable, value in needed.items() if not value]
        if missing:
            raise CommandError(f"Set {', '.join(missing)}.")
        rpc_url = os.environ.get("EXECUTOR_RPC_URL", "")

        def web3_for(chain_id: int) -> Web3:
            if rpc_url:
                return web3_over(rpc_url)
            return chain_client(Chain.objects.get(pk=chain_id))  # its best endpoint

        service = ServiceClient(needed["SERVICE_URL"], needed["EXECUTOR_API_KEY"])
        try:
            executor = ReferenceExecutor(service, chain, needed["EXECUTOR_PRIVATE_KEY"], web3_for,
                                         name=name,
                                         receipt_timeout=receipt_timeout,
                                         poll_seconds=poll_seconds, batch=batch,
                                         out=self.stdout.write)
        except (LookupError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        with stopped_by_signals(executor):
            sent = executor.run(once=once)
        self.stdout.write(f"done: {len(sent)} job(s)")

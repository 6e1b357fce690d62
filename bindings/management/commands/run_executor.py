"""The reference executor (executor_client) with the service's configuration: its settings
for the signer (EXECUTOR_SIGNER_URL, else EXECUTOR_KEY_FILE) and the journal, and without
EXECUTOR_RPC_URL the chain's best RPC endpoint from the database. `python -m
executor_client` runs the same executor without any of the service."""

import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from web3 import Web3

from executor_client import ReferenceExecutor, ServiceClient, stopped_by_signals, web3_over
from executor_client.__main__ import RETIRED, add_common_arguments
from executor_client.signers import configured_signer
from registry.chain_client import chain_client
from registry.models import Chain


class Command(BaseCommand):
    help = ("Run the reference executor of a chain over the service's HTTP API (SERVICE_URL, "
            "EXECUTOR_API_KEY), signing EAS attestations through a remote signer "
            "(EXECUTOR_SIGNER_URL) or with a key file (EXECUTOR_KEY_FILE).")

    def add_arguments(self, parser):
        parser.add_argument("--chain", help="A chain id or short name (else EXECUTOR_CHAIN).")
        add_common_arguments(parser)

    def handle(self, *args, chain, once, name, receipt_timeout, poll_seconds, batch, journal,
               signer_timeout, resend_within, **options):
        if os.environ.get("EXECUTOR_PRIVATE_KEY"):
            raise CommandError(RETIRED)
        chain = chain or os.environ.get("EXECUTOR_CHAIN", "")
        needed = {"EXECUTOR_CHAIN (or --chain)": chain,
                  "SERVICE_URL": os.environ.get("SERVICE_URL", ""),
                  "EXECUTOR_API_KEY": os.environ.get("EXECUTOR_API_KEY", "")}
        missing = [variable for variable, value in needed.items() if not value]
        try:
            signer = None if missing else configured_signer(
                signer_url=settings.EXECUTOR_SIGNER_URL, key_file=settings.EXECUTOR_KEY_FILE,
                address=settings.EXECUTOR_ADDRESS, timeout=signer_timeout)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if missing:
            raise CommandError(f"Set {', '.join(missing)}.")
        rpc_url = os.environ.get("EXECUTOR_RPC_URL", "")

        def web3_for(chain_id: int) -> Web3:
            if rpc_url:
                return web3_over(rpc_url)
            return chain_client(Chain.objects.get(pk=chain_id))  # its best endpoint

        service = ServiceClient(needed["SERVICE_URL"], needed["EXECUTOR_API_KEY"])
        executor = ReferenceExecutor(service, chain, signer, web3_for, name=name,
                                     receipt_timeout=receipt_timeout, poll_seconds=poll_seconds,
                                     batch=batch, journal=journal or settings.EXECUTOR_JOURNAL
                                     or None, resend_within=resend_within,
                                     out=self.stdout.write)
        with stopped_by_signals(executor):
            sent = executor.run(once=once)
        self.stdout.write(f"done: {len(sent)} job(s)")

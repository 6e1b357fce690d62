import signal

from django.core.management.base import BaseCommand, CommandError

from ops.follower import STATUS_MAX_AGE, Follower, follower_status


class Command(BaseCommand):
    help = ("Follow the head of every active chain (a websocket newHeads subscription where "
            "the chain has a ws(s) RPC endpoint, else polling at its block time) and, on each "
            "new block, index the chain and track its workflows: queued on Celery with a "
            "broker, in this process without one. Runs until SIGTERM or Ctrl-C. --check "
            "tells whether a running follower wrote its status lately (needs a shared cache).")

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="Exit 0 if a follower wrote its status within "
                            f"{STATUS_MAX_AGE} s and print its chains, else exit 1.")

    def handle(self, *args, check: bool, **options):
        if check:
            self.show_status()
            return
        follower = Follower()

        def stop(*_):
            follower.stop.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        follower.run()

    def show_status(self) -> None:
        age, chains = follower_status()
        if age is None or age > STATUS_MAX_AGE:
            raise CommandError("No follower wrote its status "
                               + ("yet." if age is None else f"for {age:.0f} s."))
        self.stdout.write(f"Follower alive ({age:.0f} s ago), {len(chains)} chain(s)")
        for chain_id, status in sorted(chains.items()):
            self.stdout.write(f"  chain {chain_id}: {status['mode']}, a block every "
                              f"{status['blockTime']:.2f} s, head {status['head']}")

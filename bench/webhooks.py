"""Webhooks: what a subscription adds to a workflow transition, and how fast events reach a
local receiver.

1. Transitions: 4 executors claim queued workflows through gunicorn (bench/workflows.py's
   drain: each claim is the transition queued -> dispatched, with its row lock, UPDATE and
   recorded transition), in paired rounds without and with an admin's subscription to
   `workflow.state_changed` (each claim then also writes the event and its delivery, in the
   claim's transaction). Target: transitions/s with a subscription within 10 % of without.
   Delivery runs are queued on a Redis broker that no worker reads (the round measures the
   writer's side; the queue is emptied at the end).
2. Delivery: the events the rounds wrote are delivered (signed, one POST each, in order) to
   a receiver on 127.0.0.1 by the delivery run a worker would do: events per second for one
   subscription (its events go out one at a time, by design), and for 4 subscriptions
   delivered side by side.

    .venv/bin/python bench/webhooks.py [--workflows 2000] [--rounds 3] [--workers 2]

Set DATABASE_URL to use another database (default: a local PostgreSQL
`chain_registry_bench`) and BENCH_REDIS_URL for the broker (redis://127.0.0.1:6379/12).
Everything it inserts is removed at the end.
"""

import argparse
import os
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import harness
import workflows as claims
from harness import gunicorn, say

BROKER = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")


class Receiver:
    """Answers 204 to every POST and counts them."""

    def __init__(self):
        self.count = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as a real receiver would

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.count += 1
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"


def subscribe(url: str, n: int = 1) -> list:
    from webhooks.models import Subscription
    from webhooks.secrets import new_secret, seal

    return [Subscription.objects.create(owner="bench", owner_is_admin=True, url=url,
                                        event_types=["workflow.state_changed"],
                                        secret_encrypted=seal(new_secret()))
            for _ in range(n)]


def transitions_per_second(env, args, subscribed: bool, url: str) -> float:
    from webhooks.models import Subscription

    Subscription.objects.filter(owner="bench").update(enabled=subscribed)
    raw_key, executor_ids = claims.prepare(args.workflows, args.executors)
    with gunicorn(env, workers=args.workers) as port:
        got, errors, seconds = claims.drain(port, raw_key, executor_ids)
    handed = sum(len(jobs) for jobs in got.values())
    if errors or handed != args.workflows:
        raise SystemExit(f"claims went wrong: {handed} handed out, errors {dict(errors)}")
    return handed / seconds


def transition_milliseconds(count: int, subscribed: bool) -> float:
    """In this process, without HTTP: the mean time of one transition (queued -> expired,
    each in its own transaction) of `count` workflows, so the added cost shows undiluted."""
    from django.db import transaction

    from bindings.models import Workflow, WorkflowState
    from webhooks import routing
    from webhooks.models import Subscription

    Subscription.objects.filter(owner="bench").update(enabled=subscribed)
    routing.forget()
    claims.prepare(count, 1)
    rows = list(Workflow.objects.filter(chain_id=claims.CHAIN))
    started = time.perf_counter()
    for workflow in rows:
        with transaction.atomic():
            workflow.transition(WorkflowState.EXPIRED, cause="bench")
    seconds = time.perf_counter() - started
    claims.cleanup()
    return seconds / count * 1000


def deliveries_per_second(subscriptions: list) -> float:
    from django.db import connection

    from webhooks.delivery import subscription_deliver

    delivered, lock = [], threading.Lock()

    def run(subscription_id):
        count = subscription_deliver(subscription_id)
        with lock:
            delivered.append(count)
        connection.close()

    threads = [threading.Thread(target=run, args=(s.pk,)) for s in subscriptions]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(delivered) / (time.perf_counter() - started)


def copy_events(source, targets: list) -> int:
    """Give each target subscription a pending delivery of every event `source` got."""
    from webhooks.models import Delivery

    events = list(Delivery.objects.filter(subscription=source).values_list("event_id", flat=True))
    for subscription in targets:
        Delivery.objects.bulk_create(Delivery(event_id=e, subscription=subscription)
                                     for e in events)
    return len(events)


def cleanup() -> None:
    import redis

    from webhooks.models import Event, Subscription

    claims.cleanup()
    Subscription.objects.filter(owner="bench").delete()
    Event.objects.filter(type="workflow.state_changed", data__workflowId__isnull=False,
                         deliveries__isnull=True).delete()
    redis.Redis.from_url(BROKER).delete("celery")  # the runs nobody read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workflows", type=int, default=2000, help="claims per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--executors", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    extra = {"CELERY_BROKER_URL": BROKER, "WEBHOOKS_ALLOW_PRIVATE": "true"}
    os.environ.update(extra)  # this process delivers too
    env = harness.django_database(**extra)
    receiver = Receiver()
    try:
        cleanup()
        subscriptions = subscribe(receiver.url)
        without, with_one = [], []
        for _ in range(args.rounds):
            without.append(transitions_per_second(env, args, False, receiver.url))
            with_one.append(transitions_per_second(env, args, True, receiver.url))
            claims.cleanup()  # the workflows; the events stay, to be delivered below
        ratios = [w / b for b, w in zip(without, with_one)]
        median = statistics.median(ratios)
        say(f"transitions/s (claims through gunicorn, {args.executors} executors, "
            f"{args.workers} workers, {args.workflows} per round):",
            "  without a subscription: " + ", ".join(f"{r:.0f}" for r in without),
            "  with one:               " + ", ".join(f"{r:.0f}" for r in with_one),
            f"  with / without: median {median:.1%} (each pair: "
            + ", ".join(f"{r:.1%}" for r in ratios) + ")   target: at least 90%  "
            + ("PASS" if median >= 0.9 else "FAIL"))

        plain, added = [], []
        for _ in range(args.rounds):
            plain.append(transition_milliseconds(args.workflows, False))
            added.append(transition_milliseconds(args.workflows, True))
        say(f"one transition in-process (no HTTP), {args.workflows} per round: without "
            + ", ".join(f"{m:.2f}" for m in plain) + " ms; with a subscription "
            + ", ".join(f"{m:.2f}" for m in added) + " ms; added: median "
            f"{statistics.median(added) - statistics.median(plain):.2f} ms per transition")

        (first,) = subscriptions
        events = first.deliveries.count()
        one = deliveries_per_second(subscriptions)
        say(f"deliveries to a receiver on 127.0.0.1: {events} events of one subscription: "
            f"{one:.0f} events/s (in order, one at a time)")
        four = subscribe(receiver.url, 4)
        copied = copy_events(first, four)
        side_by_side = deliveries_per_second(four)
        say(f"  4 subscriptions side by side, {copied} events each: {side_by_side:.0f} events/s",
            f"  (the receiver got {receiver.count} POSTs in all)")
    finally:
        cleanup()


if __name__ == "__main__":
    main()

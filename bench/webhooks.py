"""Webhooks: what subscriptions add to executor job claims, what the fan-out costs the
webhooks worker, and how fast events reach a local receiver.

1. Claims: 4 executors claim queued workflows through gunicorn (bench/workflows.py's drain:
   each claim is the transition queued -> dispatched, with its row lock, UPDATE and recorded
   transition), in interleaved rounds with 0, 1 and 1,000 subscriptions to
   `workflow.state_changed` of other keys than the executor's (admin keys, which receive
   every workflow's events: 1,000 is 40 keys of 25, the cap per key). With subscriptions a
   claim also writes its event, one row whatever their number, in its transaction; the
   deliveries are the webhooks worker's, after the commit (its fan-out is queued on a Redis
   broker that no worker reads; the queue is emptied at the end). Target: claims/s with 1
   and with 1,000 subscriptions at least 90 % of the rate without.
2. Fan-out: the webhooks worker's side, in this process: `--fan-out-events` events of the
   1,000-subscription rounds given their 1,000 deliveries each.
3. Delivery: the events of the 1-subscription rounds are fanned out and delivered (signed,
   one POST each, in order) to a receiver on 127.0.0.1 by the delivery run a worker does:
   events per second for one subscription (its events go out one at a time, by design), and
   for 4 subscriptions delivered side by side.

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
OWNER = "bench-webhooks"  # the subscriptions' owners: OWNER-one, OWNER-00 ... OWNER-39
MANY_KEYS, PER_KEY = 40, 25


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


def subscribe(url: str, owners: list[str], per_owner: int = 1) -> list:
    """Admin subscriptions (the ORM: the cap is the API's), disabled until a round needs
    them."""
    from webhooks.models import Subscription
    from webhooks.secrets import new_secret, seal

    secret = seal(new_secret())
    return Subscription.objects.bulk_create(
        Subscription(owner=owner, owner_is_admin=True, url=url, enabled=False,
                     event_types=["workflow.state_changed"], secret_encrypted=secret)
        for owner in owners for _ in range(per_owner))


def enable_only(owners: set[str]) -> None:
    from django.utils import timezone

    from webhooks import routing
    from webhooks.models import Subscription

    bench, now = Subscription.objects.filter(owner__startswith=OWNER), timezone.now()
    bench.exclude(owner__in=owners).update(enabled=False, updated_at=now)
    bench.filter(owner__in=owners).update(enabled=True, updated_at=now)
    routing.forget()


def claims_per_second(env, args, owners: set[str]) -> tuple[float, float, list[int]]:
    """One round with the subscriptions of `owners` enabled: claims per second of wall time,
    claims per CPU second of the service (gunicorn's workers and PostgreSQL), and the ids of
    the events the round wrote."""
    from webhooks.models import Event

    enable_only(owners)
    raw_key, executor_ids = claims.prepare(args.workflows, args.executors)
    before = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
    cpu = harness.CpuUse()
    with gunicorn(env, workers=args.workers) as port:
        with cpu.measuring(port):
            got, errors, seconds = claims.drain(port, raw_key, executor_ids)
    handed = sum(len(jobs) for jobs in got.values())
    if errors or handed != args.workflows:
        raise SystemExit(f"claims went wrong: {handed} handed out, errors {dict(errors)}")
    claims.cleanup()  # the workflows; the events stay
    written = list(Event.objects.filter(id__gt=before).values_list("id", flat=True))
    return handed / seconds, handed / (cpu.server + cpu.database), written


def transition_milliseconds(count: int, owners: set[str]) -> float:
    """In this process, without HTTP: the mean time of one transition (queued -> expired,
    each in its own transaction) of `count` workflows, so the added cost shows undiluted."""
    from django.db import transaction

    from bindings.models import Workflow, WorkflowState

    enable_only(owners)
    claims.prepare(count, 1)
    rows = list(Workflow.objects.filter(chain_id=claims.CHAIN))
    started = time.perf_counter()
    for workflow in rows:
        with transaction.atomic():
            workflow.transition(WorkflowState.EXPIRED, cause="bench")
    seconds = time.perf_counter() - started
    claims.cleanup()
    return seconds / count * 1000


def fan_out_seconds(events: list[int], many: set[str]) -> tuple[int, float]:
    """The webhooks worker's fan-out of `events` to the subscriptions of `many`: (deliveries
    written, seconds)."""
    from webhooks.models import Event
    from webhooks.outbox import fan_out

    enable_only(many)
    started = time.perf_counter()
    done = fan_out()
    seconds = time.perf_counter() - started
    if done.events != len(events):
        raise SystemExit(f"fan-out went wrong: {done.events} events, {len(events)} expected")
    Event.objects.filter(id__in=events).delete()
    return done.deliveries, seconds


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
    Subscription.objects.filter(owner__startswith=OWNER).delete()
    Event.objects.filter(type="workflow.state_changed", subject__owner="bench").delete()
    redis.Redis.from_url(BROKER).delete("webhooks")  # the fan-outs nobody read


def ratio_line(label: str, rates: list[float], base: list[float]) -> tuple[str, float]:
    ratios = [r / b for b, r in zip(base, rates)]
    median = statistics.median(ratios)
    return (f"  with {label} " + ", ".join(f"{r:.0f}" for r in rates)
            + f"   = median {median:.1%} of without (pairs "
            + ", ".join(f"{r:.1%}" for r in ratios) + ")   target: at least 90%  "
            + ("PASS" if median >= 0.9 else "FAIL")), median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workflows", type=int, default=2000, help="claims per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--executors", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--fan-out-events", type=int, default=50,
                        help="events of the 1,000-subscription rounds fanned out (part 2)")
    args = parser.parse_args()
    extra = {"CELERY_BROKER_URL": BROKER, "WEBHOOKS_ALLOW_PRIVATE": "true"}
    os.environ.update(extra)  # this process delivers too
    env = harness.django_database(**extra)
    receiver = Receiver()
    one = {f"{OWNER}-one"}
    many = {f"{OWNER}-{n:02d}" for n in range(MANY_KEYS)}
    try:
        cleanup()
        (single,) = subscribe(receiver.url, sorted(one))
        subscribe(receiver.url, sorted(many), PER_KEY)
        configs = [("none", set()), ("one", one), ("many", many)]
        rates = {name: [] for name, _ in configs}
        per_cpu = {name: [] for name, _ in configs}
        events = {name: [] for name, _ in configs}
        for n in range(args.rounds):
            # Each round in the other order than the last: a drift of the machine's load
            # weighs on each configuration alike.
            for name, owners in (configs if n % 2 == 0 else configs[::-1]):
                rate, cpu_rate, written = claims_per_second(env, args, owners)
                rates[name].append(rate)
                per_cpu[name].append(cpu_rate)
                events[name].extend(written)
        say(f"claims through gunicorn ({args.executors} executors, {args.workers} workers, "
            f"{args.workflows} per round, {args.rounds} interleaved rounds), per second:",
            "  without a subscription:    " + ", ".join(f"{r:.0f}" for r in rates["none"]),
            ratio_line("1 subscription:     ", rates["one"], rates["none"])[0],
            ratio_line("1,000 subscriptions:", rates["many"], rates["none"])[0],
            "per CPU second of the service (gunicorn workers + PostgreSQL: what a shared "
            "machine's load disturbs least):",
            "  without a subscription:    " + ", ".join(f"{r:.0f}" for r in per_cpu["none"]),
            ratio_line("1 subscription:     ", per_cpu["one"], per_cpu["none"])[0],
            ratio_line("1,000 subscriptions:", per_cpu["many"], per_cpu["none"])[0],
            f"  events written: {len(events['one'])} with 1, {len(events['many'])} with 1,000 "
            "(one row per claim whatever the subscriptions)")

        plain, added, crowd = [], [], []
        for _ in range(args.rounds):
            plain.append(transition_milliseconds(args.workflows, set()))
            added.append(transition_milliseconds(args.workflows, one))
            crowd.append(transition_milliseconds(args.workflows, many))
        say(f"one transition in-process (no HTTP), {args.workflows} per round: without "
            + ", ".join(f"{m:.2f}" for m in plain) + " ms; with 1 subscription "
            + ", ".join(f"{m:.2f}" for m in added) + " ms; with 1,000 "
            + ", ".join(f"{m:.2f}" for m in crowd) + " ms")

        from webhooks.models import Event

        # Only the events measured below wait for a fan-out: the in-process rounds' and the
        # rest of the 1,000-subscription rounds' are removed.
        keep = set(events["one"]) | set(events["many"][:args.fan_out_events])
        Event.objects.filter(fanned_out=False).exclude(id__in=keep).delete()
        Event.objects.filter(id__in=events["one"]).update(fanned_out=True)  # held back
        sample = events["many"][:args.fan_out_events]
        deliveries, seconds = fan_out_seconds(sample, many)
        say(f"fan-out (the webhooks worker, in this process): {len(sample)} events x 1,000 "
            f"subscriptions = {deliveries} deliveries in {seconds:.2f} s "
            f"({deliveries / seconds:.0f} deliveries/s)")

        Event.objects.filter(id__in=events["one"]).update(fanned_out=False)
        enable_only(one)
        from webhooks.outbox import fan_out

        fan_out()
        count = single.deliveries.count()
        rate = deliveries_per_second([single])
        say(f"deliveries to a receiver on 127.0.0.1: {count} events of one subscription: "
            f"{rate:.0f} events/s (in order, one at a time)")
        four = subscribe(receiver.url, [f"{OWNER}-four"], 4)
        enable_only(one | {f"{OWNER}-four"})
        copied = copy_events(single, four)
        side_by_side = deliveries_per_second(four)
        say(f"  4 subscriptions side by side, {copied} events each: {side_by_side:.0f} events/s",
            f"  (the receiver got {receiver.count} POSTs in all)")
    finally:
        cleanup()


if __name__ == "__main__":
    main()

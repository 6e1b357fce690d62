"""Cost of the /trpc protocol layer: the same list through REST, tRPC (one call, a batch of
10, a JSON-lines batch of 10) and JSON-RPC (a batch of 10), on one gunicorn against
PostgreSQL, in interleaved rounds. Calls per second are what compare: a batch of 10 is one
request doing ten calls.

    .venv/bin/python bench/trpc.py [--seconds 5] [--rounds 3] [--concurrency 8]

Set DATABASE_URL to use another database (default: a local PostgreSQL `chain_registry_bench`).
"""

import json
from urllib.parse import quote

import harness
from harness import gunicorn, load, merge, say, setup_django

BATCH = 10


def main():
    parser = harness.arguments(__doc__.split("\n")[0])
    args = parser.parse_args()

    env, key = harness.keyed_database("bench-trpc", "api")

    headers = {"X-API-Key": key}
    json_headers = {**headers, "Content-Type": "application/json"}
    batch_path = "/trpc/" + ",".join(["chains.list"] * BATCH) + "?batch=1&input=" + quote(
        json.dumps({str(i): {"limit": 50} for i in range(BATCH)}))
    rpc_body = json.dumps([{"jsonrpc": "2.0", "method": "chains.list", "params": {"limit": 50},
                            "id": i} for i in range(BATCH)]).encode()
    cases = {  # name: (calls per request, request)
        "REST GET /chains": (1, lambda: ("GET", "/chains?limit=50", headers, None)),
        "tRPC chains.list": (1, lambda: ("GET", "/trpc/chains.list?input=" + quote('{"limit":50}'),
                                         headers, None)),
        f"tRPC batch of {BATCH}": (BATCH, lambda: ("GET", batch_path, headers, None)),
        f"tRPC JSON lines, {BATCH}": (BATCH, lambda: (
            "GET", batch_path, {**headers, "trpc-accept": "application/jsonl"}, None)),
        f"JSON-RPC batch of {BATCH}": (BATCH, lambda: ("POST", "/trpc", json_headers, rpc_body)),
    }
    runs = {name: [] for name in cases}
    with gunicorn(env, workers=args.workers) as port:
        for _, make in cases.values():
            load(port, "warm-up", make, seconds=1, concurrency=args.concurrency)
        for _ in range(args.rounds):
            for name, (_, make) in cases.items():
                runs[name].append(load(port, name, make, seconds=args.seconds,
                                       concurrency=args.concurrency))

    results = {name: merge(runs[name]) for name in cases}
    rest_calls = results["REST GET /chains"].rps
    lines = [f"gunicorn workers={args.workers} concurrency={args.concurrency} "
             f"rounds={args.rounds} x {args.seconds}s each"]
    for name, result in results.items():
        calls = result.rps * cases[name][0]
        lines.append(f"{result.line()}   {calls:8.1f} calls/s ({calls / rest_calls:.0%} of REST)")
    say(*lines)
    say(*in_process(env, key, batch_path, rpc_body))


def in_process(env, key: str, batch_path: str, rpc_body: bytes, repeat: int = 300) -> list[str]:
    """Server time per call in this process (Django's handler, no HTTP, no other load
    generator threads): what the protocol layer adds to a call, in microseconds."""
    import time

    setup_django(env)
    from django.test import Client

    client = Client(HTTP_X_API_KEY=key, HTTP_HOST="127.0.0.1")
    requests = {
        "REST GET /chains": (1, lambda: client.get("/chains?limit=50")),
        "tRPC chains.list": (1, lambda: client.get('/trpc/chains.list?input={"limit":50}')),
        f"tRPC batch of {BATCH}": (BATCH, lambda: client.get(batch_path)),
        f"JSON-RPC batch of {BATCH}": (BATCH, lambda: client.post(
            "/trpc", rpc_body, content_type="application/json")),
    }
    per_call = {}
    for name, (calls, send) in requests.items():
        assert send().status_code == 200, name
        started = time.perf_counter()
        for _ in range(repeat // calls):
            send()
        per_call[name] = (time.perf_counter() - started) / (repeat // calls * calls) * 1e6
    rest = per_call["REST GET /chains"]
    return [f"in-process {name:<24} {us:8.0f} us per call ({us - rest:+.0f} us against REST)"
            for name, us in per_call.items()]


if __name__ == "__main__":
    main()

"""What a key holder's hostile body costs a worker (issue 34, item 2): a mebibyte JSON object
of 120,000 unknown keys POSTed to a few endpoints of one gunicorn sync worker, against an
ordinary verification. Reported then: 17.6 s of a worker and an 8.5 MB answer.

    .venv/bin/python bench/bodies.py [--rounds 5]
"""

import argparse
import http.client
import itertools
import json
import statistics
import string
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import PYTHON, ROOT, bench_env, gunicorn  # noqa: E402

API_KEY = "bench-bodies-api-key-" + "k" * 32
ALPHABET = string.ascii_letters + string.digits
KEYS = {"".join(chars): 0 for chars in itertools.islice(
    itertools.product(ALPHABET, repeat=3), 120_000)}
HOSTILE = json.dumps(KEYS, separators=(",", ":")).encode()
ORDINARY = json.dumps({"documentHash": "0x" + "ab" * 32}).encode()


def post(port: int, path: str, body: bytes) -> tuple[float, int, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    conn.request("POST", path, body=body, headers={"Content-Type": "application/json",
                                                   "X-API-Key": API_KEY})
    response = conn.getresponse()
    answer = response.read()
    elapsed = time.perf_counter() - started
    conn.close()
    return elapsed, response.status, len(answer)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    env = bench_env(API_KEY=API_KEY)
    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    print(f"hostile body: {len(HOSTILE):,} bytes, {len(KEYS):,} keys")
    with gunicorn(env, workers=1) as port:
        for path, body in [("/v1/verify", ORDINARY), ("/v1/verify", HOSTILE),
                           ("/workflows", HOSTILE), ("/trpc/verify", HOSTILE)]:
            post(port, path, body)  # warm
            runs = [post(port, path, body) for _ in range(args.rounds)]
            what = "ordinary" if body is ORDINARY else "hostile"
            print(f"{path:14} {what:8} status {runs[0][1]}  answer {runs[0][2]:>6} bytes  "
                  f"median {statistics.median(r[0] for r in runs) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()

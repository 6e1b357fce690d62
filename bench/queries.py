"""GET /attestations at scale: the query plan of every filter with the newest-first order,
and the time of a page (median and p99), on a PostgreSQL table of many attestations.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/queries_bench \\
        .venv/bin/python bench/queries.py [--rows 300000] [--repeat 100]

Fills the table once with generated rows (3 chains, 50 schemas of a document hash, a title
and a grade, 2,000 attesters, 5 % revoked, many attestations sharing a second as a
multiAttest makes them); later runs reuse it. Prints, per query, the indexes its plan uses, whether it sorts, and the median time of
the request through Django's handler (key authentication included).
"""

import argparse
import re
import statistics
import time

from harness import django_database, say

QUERIES = {
    "newest first": "",
    "chainId": "chainId=31337",
    "schemaId": "schemaId={schema}",
    "attester": "attester={attester}",
    "recipient": "recipient={recipient}",
    "documentHash": "documentHash={document}",
    "revoked=true": "revoked=true",
    "revoked=false": "revoked=false",
    "from/to (a day)": "from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z",
    "attester+schemaId": "attester={attester}&schemaId={schema}",
    "chainId+from": "chainId=31337&from=2026-03-01",
    # A decoded field of one schema (issue 21): exact through the GIN index on `decoded`,
    # and an integer range (the schema's rows, each field compared as a number).
    "field.title": "schemaId={schema}&field.title=title-{title}",
    "field.grade range": "schemaId={schema}&field.grade.gte=98",
}
SCHEMA = "bytes32 documentHash,string title,uint16 grade"


def fill(rows: int) -> None:
    from django.db import connection

    from attestations.models import Attestation, IndexCursor, Schema
    from tests.factories import ChainFactory, DeploymentFactory, SchemaFactory

    if (Attestation.objects.count() >= rows
            and Attestation.objects.filter(decoded__has_key="title").exists()):
        return
    say(f"filling {rows} attestations (once) ...")
    Attestation.objects.all().delete()
    Schema.objects.update(schema=SCHEMA)  # a table filled before the decoded fields
    if not Schema.objects.exists():
        for chain_id in (31337, 10, 8453):
            chain = ChainFactory(chain_id=chain_id)
            eas = DeploymentFactory(chain=chain, kind="eas")
            IndexCursor.objects.create(deployment=eas, chain=chain, next_block=rows,
                                       head_block=rows)
            for _ in range(17):
                SchemaFactory(chain=chain, deployment__chain=chain, schema=SCHEMA)
    with connection.cursor() as cur:
        # 20 attestations per block, an hour apart, sharing their time as a multiAttest does.
        cur.execute("""
            INSERT INTO attestations_attestation
              (chain_id, deployment_id, tx_hash, block_number, block_hash, log_index, uid,
               schema_uid, schema_id, attester, recipient, ref_uid, time, revocable, data,
               decoded, document_hash, revocation_time, indexed_at)
            SELECT s.chain_id, d.id, '0x' || lpad(to_hex(n / 20), 64, '0'), n / 20,
                   '0x' || 'b' || lpad(to_hex(n / 20), 63, '0'), n %% 20,
                   '0x' || 'a' || lpad(to_hex(n), 63, '0'), s.uid, s.id,
                   '0x' || 'e' || lpad(to_hex(n %% 2000), 39, '0'),
                   '0x' || 'c' || lpad(to_hex(n %% 5000), 39, '0'),
                   '0x' || repeat('0', 64),
                   timestamptz '2026-01-01' + make_interval(secs => n / 20 * 3600),
                   true, decode('d' || lpad(to_hex(n), 63, '0'), 'hex'),
                   jsonb_build_object('documentHash', '0x' || 'd' || lpad(to_hex(n), 63, '0'),
                                      'title', 'title-' || (n %% 5000), 'grade', n %% 100),
                   '0x' || 'd' || lpad(to_hex(n), 63, '0'),
                   CASE WHEN n %% 20 = 7 THEN timestamptz '2026-12-01' END, now()
            FROM generate_series(1, %s) AS n
            JOIN LATERAL (SELECT * FROM attestations_schema ORDER BY id
                          OFFSET n %% 51 LIMIT 1) s ON true
            JOIN registry_deployment d ON d.chain_id = s.chain_id AND d.kind = 'eas'
        """, [rows])
        cur.execute("ANALYZE attestations_attestation")


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def plan(sql: str, params) -> str:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        text = "\n".join(row[0] for row in cur.fetchall())
    # The attestation table's indexes (the confirmations subquery reads the cursors').
    indexes = sorted({name for name in re.findall(r"(?:using|Index Scan on) (\w+)", text)
                      if "indexcursor" not in name})
    sort = "Sort" if re.search(r"\bSort\b", text) else "no sort"
    ms = re.search(r"Execution Time: ([\d.]+)", text)[1]
    return f"{', '.join(indexes) or 'SEQ SCAN'}; {sort}; {float(ms):.2f} ms in PostgreSQL"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()

    django_database()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from registry.models import ApiKey, KeyScope

    fill(args.rows)
    key = ApiKey.issue(name="bench", scope=KeyScope.API)[1]
    client = Client(HTTP_X_API_KEY=key, HTTP_HOST="127.0.0.1")
    with connection.cursor() as cur:
        cur.execute("SELECT schema_uid, attester, recipient, document_hash, decoded->>'title' "
                    "FROM attestations_attestation ORDER BY id DESC LIMIT 1 OFFSET 5000")
        schema, attester, recipient, document, title = cur.fetchone()
    values = {"schema": schema, "attester": attester, "recipient": recipient,
              "document": document, "title": title.removeprefix("title-")}
    say(f"{args.rows} attestations; page of 50; median of {args.repeat} requests")

    def timed(url):
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.content
        return response, statistics.median(times), p99(times)

    client.get("/attestations")
    p99s = {}
    for name, query in QUERIES.items():
        url = "/attestations?" + query.format(**values)
        with CaptureQueriesContext(connection) as queries:
            response, ms, p99s[name] = timed(url)
        sql = [q["sql"] for q in queries.captured_queries if "attestations_attestation" in q["sql"]]
        say(f"{name:20} {ms:7.2f} ms/request (p99 {p99s[name]:6.2f}); "
            f"{len(response.json()['results']):3} rows; {plan(sql[-1], None)}")
    ratio = p99s["field.title"] / p99s["attester"]
    say(f"decoded-field filter p99 / attester filter p99: {ratio:.2f}x   (target: at most 2x)  "
        f"{'PASS' if ratio <= 2 else 'FAIL'}")
    # A deep page: the cursor after 100 pages costs what the first does.
    url = "/attestations?limit=500"
    for _ in range(20):
        url = client.get(url).json()["next"]
    response, ms, _ = timed(url)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    sql = [q["sql"] for q in queries.captured_queries if "attestations_attestation" in q["sql"]]
    say(f"{'cursor, 10,000 deep':20} {ms:7.2f} ms/request; "
        f"{len(response.json()['results']):3} rows; {plan(sql[-1], None)}")


if __name__ == "__main__":
    main()

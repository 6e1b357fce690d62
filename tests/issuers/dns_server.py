"""A DNS server for the identity tests (run as a process: `python dns_server.py PORT ZONE`).

It answers from ZONE, a JSON file read again at every query so that a test changes the
records by rewriting it: {"records": {name: {"TXT": [...], "A": [...]}}, "slow": [names that
get no answer in time], "ad": whether answers carry the AD flag}. Names it does not know are
NXDOMAIN.
"""

import json
import sys
import time

from dnslib import AAAA, QTYPE, RCODE, RR, TXT, A
from dnslib.server import BaseResolver, DNSServer

TYPES = {"TXT": lambda v: TXT(v), "A": lambda v: A(v), "AAAA": lambda v: AAAA(v)}


class ZoneResolver(BaseResolver):
    def __init__(self, path):
        self.path = path

    def resolve(self, request, handler):
        with open(self.path) as f:
            zone = json.load(f)
        name = str(request.q.qname).rstrip(".").lower()
        qtype = QTYPE[request.q.qtype]
        if name in zone.get("slow", []):
            time.sleep(30)  # longer than any test's timeout
        reply = request.reply()
        reply.header.ad = int(bool(zone.get("ad")))
        records = zone.get("records", {})
        if name not in records:
            reply.header.rcode = RCODE.NXDOMAIN
            return reply
        for value in records[name].get(qtype, []):
            reply.add_answer(RR(name, QTYPE.reverse[qtype], rdata=TYPES[qtype](value), ttl=1))
        return reply


if __name__ == "__main__":
    port, path = int(sys.argv[1]), sys.argv[2]
    server = DNSServer(ZoneResolver(path), port=port, address="127.0.0.1")
    server.start_thread()
    print("ready", flush=True)
    while server.isAlive():
        time.sleep(0.5)

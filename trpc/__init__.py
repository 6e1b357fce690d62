"""/trpc: the RPC-style handler (SPEC section 7), wire-compatible with @trpc/client (v10 and
v11) and speaking JSON-RPC 2.0, over the REST endpoints' own code.

- procedures.py: THE registry, one line per procedure naming the REST route it runs;
- dispatch.py:   the key check, and running a REST route in-process for an input;
- wire.py:       tRPC's HTTP answers (envelopes, batches, streams, statuses);
- jsonrpc.py:    JSON-RPC 2.0 on POST /trpc;
- errors.py:     tRPC's error codes by HTTP status; superjson.py: the optional transformer;
- views.py:      the two views, and the envelopes config.middleware answers for /trpc.
"""

// Calls /trpc with the real @trpc/client (v10 or v11, installed by scripts/client_tools.sh)
// and prints what the client made of each answer, for tests/trpc/test_clients.py.
//
//   node client.cjs < plan.json
// plan: {"clientDir", "version": 10|11, "url", "link": "httpLink"|"httpBatchLink"|
//        "httpBatchStreamLink", "key", "superjson": bool,
//        "calls": [{"type": "query"|"mutation", "path": "chains.list", "input"?, "key"?}]}
// All calls start in the same tick, so that the batching links send them as one request.
// Output: one JSON array, per call {"ok": true, "data"} or {"ok": false, "name", "message",
// "code", "data", "status"}: the error shape and HTTP status as the client saw them.
"use strict";
const { createRequire } = require("node:module");
const path = require("node:path");

async function main() {
  const plan = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
  const load = createRequire(path.join(plan.clientDir, "package.json"));
  const trpc = load("@trpc/client");
  const superjson = plan.superjson ? load("superjson") : undefined;
  const transformer = superjson && (superjson.default || superjson);
  const linkName = plan.link === "httpBatchStreamLink" && plan.version === 10
    ? "unstable_httpBatchStreamLink" : plan.link;
  const clients = new Map();  // one per key: a call may name its own
  const clientFor = (key) => {
    if (!clients.has(key)) {
      const linkOptions = { url: plan.url, headers: key ? { "x-api-key": key } : {} };
      if (plan.version === 11) {
        if (transformer) linkOptions.transformer = transformer;
        clients.set(key, trpc.createTRPCClient({ links: [trpc[linkName](linkOptions)] }));
      } else {
        clients.set(key, trpc.createTRPCProxyClient({
          links: [trpc[linkName](linkOptions)], ...(transformer ? { transformer } : {}),
        }));
      }
    }
    return clients.get(key);
  };

  const settled = await Promise.allSettled(plan.calls.map((call) => {
    const client = clientFor("key" in call ? call.key : plan.key);
    const procedure = call.path.split(".").reduce((node, part) => node[part], client);
    const method = call.type === "mutation" ? "mutate" : "query";
    return "input" in call ? procedure[method](call.input) : procedure[method]();
  }));
  const results = settled.map((outcome) => {
    if (outcome.status === "fulfilled") return { ok: true, data: outcome.value };
    const error = outcome.reason;
    return {
      ok: false,
      name: error.name,
      message: error.message,
      code: error.shape ? error.shape.code : null,
      data: error.data ?? null,
      status: error.meta && error.meta.response ? error.meta.response.status : null,
    };
  });
  process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack || error));
  process.exit(1);
});

// The reference: @trpc/server v11 (installed by scripts/client_tools.sh) serving a router
// with some of /trpc's procedure names and kinds, each taking any input, so that
// tests/trpc/test_reference.py can send the same requests to it and to the service.
//
//   node reference_server.cjs < plan.json     plan: {"clientDir", "procedures": {path: kind},
//                                                     "maxBatchSize"}
// Prints the port it listens on (127.0.0.1), then serves until killed.
"use strict";
const { createRequire } = require("node:module");
const path = require("node:path");

const plan = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const load = createRequire(path.join(plan.clientDir, "package.json"));
const { initTRPC } = load("@trpc/server");
const { createHTTPServer } = load("@trpc/server/adapters/standalone");

const t = initTRPC.create();
const anyInput = (value) => value;  // reads the input, as the service's procedures do
const tree = {};
for (const [name, kind] of Object.entries(plan.procedures)) {
  const parts = name.split(".");  // no name may be another's prefix: tRPC's routers nest
  let node = tree;
  for (const part of parts.slice(0, -1)) node = node[part] = node[part] || {};
  node[parts.at(-1)] = t.procedure.input(anyInput)[kind](({ input }) => input ?? null);
}
const routerOf = (node) => t.router(Object.fromEntries(Object.entries(node).map(
  ([key, value]) => [key, value._def ? value : routerOf(value)])));
const router = routerOf(tree);

const server = createHTTPServer({ router, basePath: "/trpc/", maxBatchSize: plan.maxBatchSize });
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${server.address().port}\n`);
});

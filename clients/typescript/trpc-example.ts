// /trpc with @trpc/client v11 and the shipped router type (trpc.d.ts). tests/test_clients.py
// compiles it under tsc --strict and runs it against a live service.
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { AppClient, AppRouter } from "./trpc.js";

export function connect(url: string, apiKey: string): AppClient {
  // `as AppClient`: adds the call of `verify` itself beside `verify.batch` (see trpc.d.ts).
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url, headers: { "x-api-key": apiKey } })],
  }) as AppClient;
}

export async function check(trpc: AppClient, documentHash: string) {
  const [testnets, chain, verdict, batch] = await Promise.all([  // one HTTP request
    trpc.chains.list.query({ isTestnet: true }),
    trpc.chains.get.query({ chainId: 31337 }),
    trpc.verify.mutate({ documentHash }),
    trpc.verify.batch.mutate({ documentHashes: [documentHash] }),
  ]);
  const everyChain = await trpc.chains.list.query();  // the input is optional
  // The types are real, not `any`: each line below would compile without its directive.
  // @ts-expect-error: chainId is a number
  void trpc.chains.get.query({ chainId: "31337" });
  // @ts-expect-error: no such procedure
  void trpc.chains.remove;
  const verified: boolean = verdict.verified;
  return {
    testnets: testnets.results.map((c) => c.chainId),
    chain: chain.name,
    chains: everyChain.results.length,
    verified,
    batch: batch.results.map((r) => r.verified),
  };
}

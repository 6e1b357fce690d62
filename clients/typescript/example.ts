// The REST API with fetch and the generated types (schema.d.ts, openapi-typescript).
// tests/test_clients.py compiles it under tsc --strict.
import type { components, operations } from "./schema.js";

type Problem = components["schemas"]["Problem"];
type VerifyRequest = components["schemas"]["VerifyRequest"];
type VerifyResponse = components["schemas"]["VerifyResponse"];
type ChainFilters = NonNullable<operations["listChains"]["parameters"]["query"]>;
type ChainPage = operations["listChains"]["responses"][200]["content"]["application/json"];

async function call<T>(baseUrl: string, apiKey: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(baseUrl + path, {
    ...init,
    headers: { "X-API-Key": apiKey, "Content-Type": "application/json" },
  });
  if (!response.ok) {
    const problem = (await response.json()) as Problem;  // RFC 9457, application/problem+json
    throw new Error(`${problem.status} ${problem.code}: ${problem.detail}`);
  }
  return (await response.json()) as T;
}

/** Is the document with this SHA-256 hash attested? */
export async function verify(baseUrl: string, apiKey: string, documentHash: string): Promise<VerifyResponse> {
  const body: VerifyRequest = { documentHash };
  return call<VerifyResponse>(baseUrl, apiKey, "/v1/verify", { method: "POST", body: JSON.stringify(body) });
}

/** The names of the testnets the service supports. */
export async function testnetNames(baseUrl: string, apiKey: string): Promise<string[]> {
  const filters: ChainFilters = { isTestnet: true, limit: 100 };  // a boolean, not "true"
  const query = new URLSearchParams(Object.entries(filters).map(([name, value]) => [name, String(value)]));
  const page = await call<ChainPage>(baseUrl, apiKey, `/chains?${query}`);
  return page.results.map((chain) => chain.name);
}

/** Why a document is not verified, or null when it is. */
export function reason(answer: VerifyResponse): string | null {
  return answer.verified ? null : answer.reason;
}

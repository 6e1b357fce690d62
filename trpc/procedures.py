"""The procedures of /trpc, one line each: the tRPC path, its kind, the REST route it runs.

A query is called with GET and runs the route's GET with its input as query parameters; a
mutation is called with POST and runs the route's POST with its input as the JSON body.
Input fields named like the route's URL parameters (`chainId` of /chains/{chain_id}) fill
the URL. Add a procedure here and it is served, documented by the tests and callable over
JSON-RPC: there is nothing else to write.
"""

from trpc.dispatch import mutation, query

PROCEDURES = {
    "chains.list": query("public-chain-list"),
    "chains.get": query("public-chain-detail"),
    "schemas.list": query("public-schema-list"),
    "schemas.get": query("public-schema-detail"),
    "schemas.validate": mutation("public-schema-validate"),
    "attestations.list": query("public-attestation-list"),
    "attestations.get": query("public-attestation-detail"),
    "attestations.submitOffchain": mutation("public-offchain-attestation-list"),
    "attestations.getOffchain": query("public-offchain-attestation-detail"),
    "timestamps.list": query("public-timestamp-list"),
    "timestamps.get": query("public-timestamp-detail"),
    "offchainRevocations.list": query("public-offchain-revocation-list"),
    "verify": mutation("verify-list"),
    "verify.batch": mutation("verify-batch"),
    "workflows.create": mutation("workflow-list"),
    "workflows.get": query("workflow-detail", pk="workflowId"),
    "workflows.list": query("workflow-list"),
}

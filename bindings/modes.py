"""Binding modes: how an executor binds the documents of a claimed batch on its chain.

- `single`: one EAS `attest` transaction per document (the default);
- `multi`: one `multiAttest` transaction per claimed batch (grouped per schema; the
  reference executor splits one that would take more than a quarter of a block's gas);
- `merkle`: one attestation of the Merkle root of the batch's document hashes.

Every job carries its mode (`bindingMode`), computed here and only here.

A Merkle leaf is a document hash and nothing else: on a `merkle` chain, a workflow of
another schema, or with other values, is bound in `multi` (its attestation carries them);
so is every workflow while the chain has no root schema registered (bindings/merkle.py).
"""

from bindings.models import Workflow
from bindings.workflows import DOCUMENT_SCHEMA
from registry.models import Chain

Mode = Chain.BindingMode


def binding_mode(workflow: Workflow, *, root_schema_uid: str | None = None) -> str:
    """The mode `workflow`'s job is to be bound in: its chain's, but for what a Merkle leaf
    cannot carry; `root_schema_uid` is the chain's root schema (None: none registered)."""
    mode = workflow.chain.binding_mode
    if mode != Mode.MERKLE:
        return mode
    plain = workflow.schema == DOCUMENT_SCHEMA and not workflow.data
    return Mode.MERKLE if plain and root_schema_uid else Mode.MULTI

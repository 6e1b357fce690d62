"""Binding modes: how an executor binds the documents of a claimed batch on its chain.

- `single`: one EAS `attest` transaction per document (the default);
- `multi`: one `multiAttest` transaction per claimed batch (grouped per schema);
- `merkle`: one attestation of the Merkle root of the batch's document hashes.

Every job carries its mode (`bindingMode`), computed here and only here.
"""

from bindings.models import Workflow


def binding_mode(workflow: Workflow) -> str:
    """The mode `workflow`'s job is to be bound in: for now, its chain's."""
    return workflow.chain.binding_mode

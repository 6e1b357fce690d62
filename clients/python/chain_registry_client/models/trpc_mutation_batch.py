from typing import Literal, cast

TrpcMutationBatch = Literal["1"]

TRPC_MUTATION_BATCH_VALUES: set[TrpcMutationBatch] = {
    "1",
}


def check_trpc_mutation_batch(value: str) -> TrpcMutationBatch:
    if value in TRPC_MUTATION_BATCH_VALUES:
        return cast(TrpcMutationBatch, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRPC_MUTATION_BATCH_VALUES!r}")

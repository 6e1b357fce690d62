from typing import Literal, cast

TrpcQueryBatch = Literal["1"]

TRPC_QUERY_BATCH_VALUES: set[TrpcQueryBatch] = {
    "1",
}


def check_trpc_query_batch(value: str) -> TrpcQueryBatch:
    if value in TRPC_QUERY_BATCH_VALUES:
        return cast(TrpcQueryBatch, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRPC_QUERY_BATCH_VALUES!r}")

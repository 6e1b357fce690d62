from typing import Literal, cast

JsonRpcBodyType0Jsonrpc = Literal["2.0"]

JSON_RPC_BODY_TYPE_0_JSONRPC_VALUES: set[JsonRpcBodyType0Jsonrpc] = {
    "2.0",
}


def check_json_rpc_body_type_0_jsonrpc(value: str) -> JsonRpcBodyType0Jsonrpc:
    if value in JSON_RPC_BODY_TYPE_0_JSONRPC_VALUES:
        return cast(JsonRpcBodyType0Jsonrpc, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {JSON_RPC_BODY_TYPE_0_JSONRPC_VALUES!r}")

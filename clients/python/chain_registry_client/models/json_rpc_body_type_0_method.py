from typing import Literal, cast

JsonRpcBodyType0Method = Literal[
    "attestations.get",
    "attestations.getOffchain",
    "attestations.list",
    "attestations.submitOffchain",
    "chains.get",
    "chains.list",
    "offchainRevocations.list",
    "schemas.get",
    "schemas.list",
    "schemas.validate",
    "timestamps.get",
    "timestamps.list",
    "verify",
    "verify.batch",
    "workflows.create",
    "workflows.get",
    "workflows.list",
]

JSON_RPC_BODY_TYPE_0_METHOD_VALUES: set[JsonRpcBodyType0Method] = {
    "attestations.get",
    "attestations.getOffchain",
    "attestations.list",
    "attestations.submitOffchain",
    "chains.get",
    "chains.list",
    "offchainRevocations.list",
    "schemas.get",
    "schemas.list",
    "schemas.validate",
    "timestamps.get",
    "timestamps.list",
    "verify",
    "verify.batch",
    "workflows.create",
    "workflows.get",
    "workflows.list",
}


def check_json_rpc_body_type_0_method(value: str) -> JsonRpcBodyType0Method:
    if value in JSON_RPC_BODY_TYPE_0_METHOD_VALUES:
        return cast(JsonRpcBodyType0Method, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {JSON_RPC_BODY_TYPE_0_METHOD_VALUES!r}")

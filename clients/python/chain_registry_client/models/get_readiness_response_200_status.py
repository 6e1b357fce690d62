from typing import Literal, cast

GetReadinessResponse200Status = Literal["ok"]

GET_READINESS_RESPONSE_200_STATUS_VALUES: set[GetReadinessResponse200Status] = {
    "ok",
}


def check_get_readiness_response_200_status(value: str) -> GetReadinessResponse200Status:
    if value in GET_READINESS_RESPONSE_200_STATUS_VALUES:
        return cast(GetReadinessResponse200Status, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_READINESS_RESPONSE_200_STATUS_VALUES!r}")

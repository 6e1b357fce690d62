from typing import Literal, cast

GetLivenessResponse200Status = Literal["ok"]

GET_LIVENESS_RESPONSE_200_STATUS_VALUES: set[GetLivenessResponse200Status] = {
    "ok",
}


def check_get_liveness_response_200_status(value: str) -> GetLivenessResponse200Status:
    if value in GET_LIVENESS_RESPONSE_200_STATUS_VALUES:
        return cast(GetLivenessResponse200Status, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_LIVENESS_RESPONSE_200_STATUS_VALUES!r}")

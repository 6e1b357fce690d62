from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_deliveries_event_type import ListDeliveriesEventType
from ...models.list_deliveries_state import ListDeliveriesState
from ...models.paginated_delivery_list import PaginatedDeliveryList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    subscription_id: UUID,
    *,
    event_type: ListDeliveriesEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    state: ListDeliveriesState | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_event_type: str | Unset = UNSET
    if not isinstance(event_type, Unset):
        json_event_type = event_type

    params["eventType"] = json_event_type

    params["limit"] = limit

    params["offset"] = offset

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state

    params["state"] = json_state

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/webhooks/{subscription_id}/deliveries".format(
            subscription_id=quote(str(subscription_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedDeliveryList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedDeliveryList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[PaginatedDeliveryList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    subscription_id: UUID,
    *,
    client: AuthenticatedClient,
    event_type: ListDeliveriesEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    state: ListDeliveriesState | Unset = UNSET,
) -> Response[PaginatedDeliveryList | Problem]:
    """List deliveries

     A subscription's deliveries (one per event), newest first, with their attempts.

    Args:
        subscription_id (UUID):
        event_type (ListDeliveriesEventType | Unset):
        limit (int | Unset):
        offset (int | Unset):
        state (ListDeliveriesState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedDeliveryList | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        event_type=event_type,
        limit=limit,
        offset=offset,
        state=state,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: UUID,
    *,
    client: AuthenticatedClient,
    event_type: ListDeliveriesEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    state: ListDeliveriesState | Unset = UNSET,
) -> PaginatedDeliveryList | Problem | None:
    """List deliveries

     A subscription's deliveries (one per event), newest first, with their attempts.

    Args:
        subscription_id (UUID):
        event_type (ListDeliveriesEventType | Unset):
        limit (int | Unset):
        offset (int | Unset):
        state (ListDeliveriesState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedDeliveryList | Problem
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
        event_type=event_type,
        limit=limit,
        offset=offset,
        state=state,
    ).parsed


async def asyncio_detailed(
    subscription_id: UUID,
    *,
    client: AuthenticatedClient,
    event_type: ListDeliveriesEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    state: ListDeliveriesState | Unset = UNSET,
) -> Response[PaginatedDeliveryList | Problem]:
    """List deliveries

     A subscription's deliveries (one per event), newest first, with their attempts.

    Args:
        subscription_id (UUID):
        event_type (ListDeliveriesEventType | Unset):
        limit (int | Unset):
        offset (int | Unset):
        state (ListDeliveriesState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedDeliveryList | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        event_type=event_type,
        limit=limit,
        offset=offset,
        state=state,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: UUID,
    *,
    client: AuthenticatedClient,
    event_type: ListDeliveriesEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    state: ListDeliveriesState | Unset = UNSET,
) -> PaginatedDeliveryList | Problem | None:
    """List deliveries

     A subscription's deliveries (one per event), newest first, with their attempts.

    Args:
        subscription_id (UUID):
        event_type (ListDeliveriesEventType | Unset):
        limit (int | Unset):
        offset (int | Unset):
        state (ListDeliveriesState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedDeliveryList | Problem
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
            event_type=event_type,
            limit=limit,
            offset=offset,
            state=state,
        )
    ).parsed

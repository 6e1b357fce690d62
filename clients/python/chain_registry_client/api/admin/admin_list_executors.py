from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_list_executors_ordering_item import (
    AdminListExecutorsOrderingItem,
)
from ...models.admin_list_executors_status_item import (
    AdminListExecutorsStatusItem,
)
from ...models.paginated_executor_list import PaginatedExecutorList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListExecutorsOrderingItem] | Unset = UNSET,
    status: list[AdminListExecutorsStatusItem] | Unset = UNSET,
    trusted: bool | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["address"] = address

    json_chain_id: list[int] | Unset = UNSET
    if not isinstance(chain_id, Unset):
        json_chain_id = chain_id

    params["chainId"] = json_chain_id

    params["limit"] = limit

    params["offset"] = offset

    json_ordering: list[str] | Unset = UNSET
    if not isinstance(ordering, Unset):
        json_ordering = []
        for ordering_item_data in ordering:
            ordering_item: str = ordering_item_data
            json_ordering.append(ordering_item)

    params["ordering"] = json_ordering

    json_status: list[str] | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = []
        for status_item_data in status:
            status_item: str = status_item_data
            json_status.append(status_item)

    params["status"] = json_status

    params["trusted"] = trusted

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/executors",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedExecutorList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedExecutorList.from_dict(response.json())

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
) -> Response[PaginatedExecutorList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListExecutorsOrderingItem] | Unset = UNSET,
    status: list[AdminListExecutorsStatusItem] | Unset = UNSET,
    trusted: bool | Unset = UNSET,
) -> Response[PaginatedExecutorList | Problem]:
    """List executors

     Executors of every chain; administrators can revoke or restore their trust.

    Args:
        address (str | Unset):
        chain_id (list[int] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListExecutorsOrderingItem] | Unset):
        status (list[AdminListExecutorsStatusItem] | Unset):
        trusted (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedExecutorList | Problem]
    """

    kwargs = _get_kwargs(
        address=address,
        chain_id=chain_id,
        limit=limit,
        offset=offset,
        ordering=ordering,
        status=status,
        trusted=trusted,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListExecutorsOrderingItem] | Unset = UNSET,
    status: list[AdminListExecutorsStatusItem] | Unset = UNSET,
    trusted: bool | Unset = UNSET,
) -> PaginatedExecutorList | Problem | None:
    """List executors

     Executors of every chain; administrators can revoke or restore their trust.

    Args:
        address (str | Unset):
        chain_id (list[int] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListExecutorsOrderingItem] | Unset):
        status (list[AdminListExecutorsStatusItem] | Unset):
        trusted (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedExecutorList | Problem
    """

    return sync_detailed(
        client=client,
        address=address,
        chain_id=chain_id,
        limit=limit,
        offset=offset,
        ordering=ordering,
        status=status,
        trusted=trusted,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListExecutorsOrderingItem] | Unset = UNSET,
    status: list[AdminListExecutorsStatusItem] | Unset = UNSET,
    trusted: bool | Unset = UNSET,
) -> Response[PaginatedExecutorList | Problem]:
    """List executors

     Executors of every chain; administrators can revoke or restore their trust.

    Args:
        address (str | Unset):
        chain_id (list[int] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListExecutorsOrderingItem] | Unset):
        status (list[AdminListExecutorsStatusItem] | Unset):
        trusted (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedExecutorList | Problem]
    """

    kwargs = _get_kwargs(
        address=address,
        chain_id=chain_id,
        limit=limit,
        offset=offset,
        ordering=ordering,
        status=status,
        trusted=trusted,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListExecutorsOrderingItem] | Unset = UNSET,
    status: list[AdminListExecutorsStatusItem] | Unset = UNSET,
    trusted: bool | Unset = UNSET,
) -> PaginatedExecutorList | Problem | None:
    """List executors

     Executors of every chain; administrators can revoke or restore their trust.

    Args:
        address (str | Unset):
        chain_id (list[int] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListExecutorsOrderingItem] | Unset):
        status (list[AdminListExecutorsStatusItem] | Unset):
        trusted (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedExecutorList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            address=address,
            chain_id=chain_id,
            limit=limit,
            offset=offset,
            ordering=ordering,
            status=status,
            trusted=trusted,
        )
    ).parsed
